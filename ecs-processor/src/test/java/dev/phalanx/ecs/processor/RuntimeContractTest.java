package dev.phalanx.ecs.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.palantir.javapoet.ClassName;
import dev.phalanx.ecs.processor.base.Names;
import dev.phalanx.ecs.processor.base.RuntimeContract;
import dev.phalanx.ecs.processor.validation.Diagnostics;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Checks the processor's side of the contract with the runtime ({@link RuntimeContract}) against
 * the runtime itself, by reflection: every class and member generated code names exists and is
 * public or protected, the members a generated storage inherits are exactly the runtime's public
 * and protected methods (so a new runtime method that a field accessor could clash with fails
 * here), and the processor and {@code ComponentType.of} agree on the name of a component's traits
 * class.
 */
class RuntimeContractTest {

  @Test
  void everyRuntimeClassExists() throws ClassNotFoundException {
    for (final ClassName name : RuntimeContract.CLASSES) {
      final Class<?> type = load(name);
      assertTrue(Modifier.isPublic(type.getModifiers()), name + " is not public");
    }
  }

  @Test
  void everyRuntimeMemberExistsAndIsAccessibleToSubclassesOrCallers()
      throws ClassNotFoundException {
    for (final RuntimeContract.Member member : RuntimeContract.MEMBERS) {
      final Class<?> owner = load(member.owner());
      assertTrue(resolves(owner, member), "the runtime has no public or protected " + member);
    }
  }

  @Test
  void storageInheritedMembersAreDerivedFromTheRuntime() throws ClassNotFoundException {
    final Set<String> derived = new TreeSet<>();
    for (Class<?> type = load(RuntimeContract.STORAGE); null != type; type = type.getSuperclass()) {
      derived.addAll(visibleMethods(type));
    }
    assertEquals(
        derived,
        new TreeSet<>(RuntimeContract.STORAGE_INHERITED),
        "RuntimeContract.STORAGE_INHERITED must list every public and protected method a generated"
            + " storage inherits: a field accessor of the same name and parameter count would clash"
            + " with it");
  }

  @Test
  void cursorInheritedMembersAreDerivedFromTheRuntime() throws ClassNotFoundException {
    final Set<String> derived = new TreeSet<>();
    for (Class<?> type = load(RuntimeContract.CURSOR); null != type; type = type.getSuperclass()) {
      derived.addAll(visibleMethods(type));
    }
    assertEquals(
        derived,
        new TreeSet<>(RuntimeContract.CURSOR_INHERITED),
        "RuntimeContract.CURSOR_INHERITED must list every public and protected method a generated"
            + " cursor inherits: a field accessor of the same name and parameter count would clash"
            + " with it");
  }

  @Test
  void traitsNamingRuleAgreesWithTheRuntime() throws ReflectiveOperationException {
    final Method rule =
        load(RuntimeContract.COMPONENT_TYPE).getDeclaredMethod("traitsClassName", Class.class);
    rule.setAccessible(true);
    assertEquals(
        rule.invoke(null, Outer.Inner.class),
        Names.traits("dev.phalanx.ecs.processor", "RuntimeContractTest_Outer_Inner"));
    assertEquals(
        rule.invoke(null, RuntimeContractTest.class),
        Names.traits("dev.phalanx.ecs.processor", "RuntimeContractTest"));
  }

  @Test
  void pageSizeLimitAgreesWithTheRuntime() throws ReflectiveOperationException {
    final Class<?> traits = load(RuntimeContract.COMPONENT_TRAITS);
    final boolean declared =
        Set.of(traits.getFields()).stream().anyMatch(f -> "MAX_PAGE_SIZE".equals(f.getName()));
    assumeTrue(declared, "the runtime on this branch has no ComponentTraits.MAX_PAGE_SIZE yet");
    assertEquals(traits.getField("MAX_PAGE_SIZE").getInt(null), Diagnostics.MAX_PAGE_SIZE);
  }

  /** A nested class for the naming rule. */
  static final class Outer {
    static final class Inner {}
  }

  private static Class<?> load(final ClassName name) throws ClassNotFoundException {
    return Class.forName(name.reflectionName());
  }

  /** The public and protected methods {@code type} declares, as {@code name/arity}. */
  private static Set<String> visibleMethods(final Class<?> type) {
    final Set<String> methods = new TreeSet<>();
    for (final Method method : type.getDeclaredMethods()) {
      if (visible(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()) {
        methods.add(method.getName() + "/" + method.getParameterCount());
      }
    }
    return methods;
  }

  private static boolean visible(final int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static boolean resolves(final Class<?> owner, final RuntimeContract.Member member) {
    if ("<init>".equals(member.name())) {
      for (final Constructor<?> constructor : owner.getDeclaredConstructors()) {
        if (visible(constructor.getModifiers())
            && constructor.getParameterCount() == member.arity()) {
          return true;
        }
      }
      return false;
    }
    for (Class<?> type = owner; null != type; type = type.getSuperclass()) {
      if (member.arity() < 0) {
        for (final Field field : type.getDeclaredFields()) {
          if (visible(field.getModifiers()) && field.getName().equals(member.name())) {
            return true;
          }
        }
      }
      for (final Method method : type.getDeclaredMethods()) {
        if (visible(method.getModifiers())
            && method.getName().equals(member.name())
            && method.getParameterCount() == member.arity()) {
          return true;
        }
      }
    }
    for (final Class<?> face : owner.getInterfaces()) {
      for (final Method method : face.getMethods()) {
        if (method.getName().equals(member.name())
            && method.getParameterCount() == member.arity()) {
          return true;
        }
      }
    }
    return false;
  }
}
