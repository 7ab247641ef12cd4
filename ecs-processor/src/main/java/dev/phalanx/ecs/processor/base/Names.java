package dev.phalanx.ecs.processor.base;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/**
 * Every naming rule of the generated code, in one place.
 *
 * <p>Generated classes sit in the component's package and are named after its nesting chain joined
 * with underscores, then a suffix: {@code Outer.Inner} gets {@code Outer_Inner_Storage}, {@code
 * Outer_Inner_ReadCursor}, {@code Outer_Inner_Cursor} and {@code Outer_Inner_Traits}. The runtime's
 * {@code ComponentType.of(Class)} finds the traits by that rule, so the two must agree.
 *
 * <p>A field {@code x} of type {@code F} gets, on the storage, {@code F x(long entity)}, {@code
 * setX(long entity, F value)}, {@code F xAt(int position)}, {@code setXAt(int position, F value)}
 * and {@code F[][] xPages()}; on the read cursor, {@code F x()}; on the cursor, which extends it,
 * {@code setX(F value)} too.
 */
public final class Names {

  /** Suffix of the generated storage class. */
  public static final String STORAGE_SUFFIX = "_Storage";

  /** Suffix of the generated cursor class. */
  public static final String CURSOR_SUFFIX = "_Cursor";

  /** Suffix of the generated read-only cursor class, the superclass of the cursor. */
  public static final String READ_CURSOR_SUFFIX = "_ReadCursor";

  /** Suffix of the generated traits class. */
  public static final String TRAITS_SUFFIX = "_Traits";

  /** Members a generated storage declares for the whole component, as name and parameter count. */
  private static final Set<String> STORAGE_GENERATED = Set.of("set/2", "cursor/0");

  /**
   * Members a generated cursor declares besides the field accessors, as name and parameter count.
   */
  private static final Set<String> CURSOR_GENERATED =
      Set.of("moveTo/1", "moveToEntity/1", "currentEntity/0", "get/0", "set/1", "storage/0");

  private Names() {}

  /**
   * {@return the nesting chain of {@code type} joined with underscores: {@code Outer_Inner}}
   *
   * @param type a class, possibly nested
   */
  public static String flatName(final TypeElement type) {
    final StringBuilder flat = new StringBuilder(type.getSimpleName());
    for (Element outer = type.getEnclosingElement();
        null != outer && ElementKind.PACKAGE != outer.getKind();
        outer = outer.getEnclosingElement()) {
      flat.insert(0, outer.getSimpleName() + "_");
    }
    return flat.toString();
  }

  /**
   * {@return the package of {@code type}, {@code ""} for the unnamed package}
   *
   * @param type a class, or any element inside a package
   */
  public static String packageOf(final Element type) {
    Element current = type;
    while (ElementKind.PACKAGE != current.getKind()) {
      current = current.getEnclosingElement();
    }
    return ((PackageElement) current).getQualifiedName().toString();
  }

  /**
   * Returns the qualified name of the traits class of a component: {@code p.Outer_Inner_Traits} for
   * {@code p.Outer.Inner}. The runtime's {@code ComponentType.of(Class)} loads it by this rule
   * ({@code RuntimeContractTest} checks that both agree).
   *
   * @param packageName the component's package, {@code ""} for the unnamed package
   * @param flatName the component's nesting chain joined with underscores
   * @return the qualified name
   */
  public static String traits(final String packageName, final String flatName) {
    return (packageName.isEmpty() ? "" : packageName + ".") + flatName + TRAITS_SUFFIX;
  }

  /**
   * {@return {@code name} with its first letter upper-cased: {@code x} to {@code X}}
   *
   * @param name a non-empty field name
   */
  public static String capitalize(final String name) {
    return name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
  }

  /**
   * {@return the per-entity getter of field {@code name}: {@code x}}
   *
   * @param name the field's name
   */
  public static String getter(final String name) {
    return name;
  }

  /**
   * {@return the per-entity setter of field {@code name}: {@code setX}}
   *
   * @param name the field's name
   */
  public static String setter(final String name) {
    return "set" + capitalize(name);
  }

  /**
   * {@return the positional getter of field {@code name}: {@code xAt}}
   *
   * @param name the field's name
   */
  public static String positionalGetter(final String name) {
    return name + "At";
  }

  /**
   * {@return the positional setter of field {@code name}: {@code setXAt}}
   *
   * @param name the field's name
   */
  public static String positionalSetter(final String name) {
    return "set" + capitalize(name) + "At";
  }

  /**
   * {@return the page-array accessor (and private field) of field {@code name}: {@code xPages}}
   *
   * @param name the field's name
   */
  public static String pages(final String name) {
    return name + "Pages";
  }

  /**
   * {@return the members generated for field {@code name} on the storage, as {@code name/arity}
   * (positional and per-entity forms share a count, so {@code xAt(int)} and a field {@code xAt}'s
   * {@code xAt(long)} count as a clash)}
   *
   * @param name the field's name
   */
  public static List<String> storageMembers(final String name) {
    final List<String> members = new ArrayList<>();
    members.add(getter(name) + "/1");
    members.add(setter(name) + "/2");
    members.add(positionalGetter(name) + "/1");
    members.add(positionalSetter(name) + "/2");
    members.add(pages(name) + "/0");
    return members;
  }

  /**
   * {@return the members generated for field {@code name} on the cursor, as {@code name/arity}}
   *
   * @param name the field's name
   */
  public static List<String> cursorMembers(final String name) {
    return List.of(getter(name) + "/0", setter(name) + "/1");
  }

  /**
   * {@return whether {@code member} is taken on the storage: inherited from the runtime's storage,
   * or generated for the whole component}
   *
   * @param member a member as {@code name/arity}, {@code "get/1"}
   */
  public static boolean reservedOnStorage(final String member) {
    return RuntimeContract.STORAGE_INHERITED.contains(member) || STORAGE_GENERATED.contains(member);
  }

  /**
   * {@return whether {@code member} is taken on the cursor: inherited from {@code Cursor} or {@code
   * Object}, or generated besides the field accessors}
   *
   * @param member a member as {@code name/arity}, {@code "get/0"}
   */
  public static boolean reservedOnCursor(final String member) {
    return RuntimeContract.CURSOR_INHERITED.contains(member) || CURSOR_GENERATED.contains(member);
  }
}
