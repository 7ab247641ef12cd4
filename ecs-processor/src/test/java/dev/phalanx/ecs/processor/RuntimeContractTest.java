package dev.phalanx.ecs.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.List;
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
      // A protected member class (Query.Alignment) is reachable from the generated subclasses.
      assertTrue(
          Modifier.isPublic(type.getModifiers())
              || (null != type.getEnclosingClass() && Modifier.isProtected(type.getModifiers())),
          name + " is neither public nor a protected member class");
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

  /**
   * The runtime's surface for generated code is exactly what {@link RuntimeContract#MEMBERS} lists
   * of it: every protected member of the base classes generated code extends ({@code Query}, the
   * storages, {@code Cursor}) and every public member of the generated-code classes in the {@code
   * internal} package. A member there that generated code does not use is surface a user can reach
   * for nothing: make it package-private, or add it to the contract when generation starts using
   * it.
   */
  @Test
  void generatedCodeSurfaceIsExactlyTheContract() throws ClassNotFoundException {
    final Set<String> runtime = new TreeSet<>();
    final Set<String> inherited = new TreeSet<>();
    for (final ClassName base :
        List.of(
            RuntimeContract.QUERY,
            RuntimeContract.SPARSE_SET,
            RuntimeContract.STORAGE,
            RuntimeContract.EMPTY_STORAGE,
            RuntimeContract.OBJECT_STORAGE,
            RuntimeContract.CURSOR)) {
      for (final String member : declared(load(base), Modifier.PROTECTED)) {
        // An override in a runtime storage is the member it overrides, counted already.
        final String signature = member.substring(member.indexOf('.') + 1);
        if (inherited.add(signature) || member.contains("<init>")) {
          runtime.add(member);
        }
      }
    }
    for (final ClassName internal :
        List.of(
            RuntimeContract.TYPED_RECORDING,
            RuntimeContract.LOOP_COPIES,
            RuntimeContract.RECORDED_FIELDS)) {
      assertEquals(RuntimeContract.INTERNAL_PACKAGE, internal.packageName());
      runtime.addAll(declared(load(internal), Modifier.PUBLIC));
    }
    final Set<String> contract = new TreeSet<>();
    for (final RuntimeContract.Member member : RuntimeContract.MEMBERS) {
      final String key = member.owner().simpleName() + "." + member.name() + "/" + member.arity();
      if (runtime.contains(key)) {
        contract.add(key);
      } else if (RuntimeContract.INTERNAL_PACKAGE.equals(member.owner().packageName())) {
        contract.add(key + " (missing from the runtime)");
      }
    }
    assertEquals(
        runtime,
        contract,
        "the protected members of the runtime's base classes and the public members of its"
            + " internal classes must be exactly the ones RuntimeContract.MEMBERS lists");
  }

  /**
   * The members generated code reaches through {@code Query} and {@code TypedRecording} are no
   * longer public where users would find them: on the sets, the cursors and the command buffer.
   */
  /**
   * The loop protocol and field recording are for generated code only. {@code structureStamp} is no
   * longer among them: it is a documented public query (has a set's membership or order changed
   * since a look), which schedules' change conditions use.
   */
  @Test
  void loopAndRecordingMembersAreNotPublicApi() throws ClassNotFoundException {
    final Set<String> publicApi = new TreeSet<>();
    for (final ClassName type :
        List.of(
            RuntimeContract.SPARSE_SET,
            RuntimeContract.STORAGE,
            RuntimeContract.CURSOR,
            RuntimeContract.COMMAND_BUFFER,
            RuntimeContract.QUERY)) {
      for (final Method method : load(type).getMethods()) {
        publicApi.add(method.getName());
      }
    }
    for (final String name :
        List.of(
            "beginIteration",
            "visit",
            "endIteration",
            "holdsAt",
            "samePositions",
            "moveToPage",
            "moveWithinPage",
            "moveToElement",
            "beginFields",
            "beginFieldsIfAbsent",
            "putWord",
            "putRef",
            "nextWord",
            "nextRef")) {
      assertFalse(publicApi.contains(name), name + " is public API");
    }
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

  /**
   * The members {@code type} declares with exactly the access {@code access} ({@link
   * Modifier#PUBLIC} or {@link Modifier#PROTECTED}), as {@code Simple.name/arity} ({@code -1} for a
   * field, {@code <init>} for a constructor).
   */
  private static Set<String> declared(final Class<?> type, final int access) {
    final Set<String> members = new TreeSet<>();
    final String owner = type.getSimpleName() + ".";
    for (final Method method : type.getDeclaredMethods()) {
      if (0 != (method.getModifiers() & access) && !method.isSynthetic() && !method.isBridge()) {
        members.add(owner + method.getName() + "/" + method.getParameterCount());
      }
    }
    for (final Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (0 != (constructor.getModifiers() & access)) {
        members.add(owner + "<init>/" + constructor.getParameterCount());
      }
    }
    for (final Field field : type.getDeclaredFields()) {
      if (0 != (field.getModifiers() & access) && !field.isSynthetic()) {
        members.add(owner + field.getName() + "/-1");
      }
    }
    return members;
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
