package dev.phalanx.ecs.processor.validation;

import java.util.List;

/**
 * Every message the processor reports, each with a stable bracketed code and the fix. The codes are
 * listed in the Javadoc of {@code @Component} and {@code @EntityRef}; tests match on them.
 */
public final class Diagnostics {

  private Diagnostics() {}

  /**
   * An interface, annotation, enum or abstract class is annotated.
   *
   * @param what the offending declaration, {@code "the interface p.Foo"}
   * @return the coded message
   */
  public static String componentKind(final String what) {
    return "[PhalanxComponentKind] @Component cannot be applied to "
        + what
        + ": annotate a record or a concrete class whose instances hold the component's data";
  }

  /**
   * The component has type parameters.
   *
   * @param type the component's qualified name
   * @return the coded message
   */
  public static String generic(final String type) {
    return "[PhalanxGeneric] @Component "
        + type
        + " has type parameters, but a storage holds one"
        + " concrete type: remove the type parameters, or annotate a non-generic subclass or record"
        + " that fixes them";
  }

  /**
   * A non-static inner class, or a local or anonymous class.
   *
   * @param type the class's name
   * @param local whether it is a local or anonymous class rather than a non-static member class
   * @return the coded message
   */
  public static String innerClass(final String type, final boolean local) {
    return local
        ? "[PhalanxInnerClass] @Component "
            + type
            + " is a local class, which generated code cannot"
            + " name: move it to the top level or make it a static nested class"
        : "[PhalanxInnerClass] @Component "
            + type
            + " is an inner class (its instances need an"
            + " enclosing instance): declare it static";
  }

  /**
   * The class or an enclosing class is private.
   *
   * @param type the component's qualified name
   * @param privateOne which class is private: {@code "it"} or {@code "its enclosing class Outer"}
   * @return the coded message
   */
  public static String privateClass(final String type, final String privateOne) {
    return "[PhalanxPrivateClass] @Component "
        + type
        + " cannot be used by the generated classes"
        + " in its package because "
        + privateOne
        + " is private: make it package-private or public";
  }

  /**
   * The largest page size, in elements: the runtime's {@code ComponentTraits.MAX_PAGE_SIZE}. A page
   * is allocated whole on first use, so one element costs a whole page of every field.
   */
  public static final int MAX_PAGE_SIZE = 1 << 16;

  /**
   * The page size is not a power of two in {@code [1, MAX_PAGE_SIZE]}.
   *
   * @param pageSize the page size given
   * @return the coded message, with a power of two to use instead
   */
  public static String pageSize(final int pageSize) {
    if (pageSize > MAX_PAGE_SIZE) {
      return "[PhalanxPageSize] pageSize must be a power of two from 1 to "
          + MAX_PAGE_SIZE
          + ", got "
          + pageSize
          + ": a page is allocated whole on first use (one entity costs a page of every"
          + " field), and the runtime refuses larger pages; use "
          + MAX_PAGE_SIZE
          + " or less";
    }
    int suggestion = 1;
    while (suggestion < pageSize) {
      suggestion <<= 1;
    }
    return "[PhalanxPageSize] pageSize must be a power of two from 1 to "
        + MAX_PAGE_SIZE
        + " (positions map to pages with a shift and a mask), got "
        + pageSize
        + ": use "
        + Math.max(1, suggestion)
        + " for example";
  }

  /**
   * {@code tracked = true} on a component without fields.
   *
   * @param type the component's simple name
   * @return the coded message
   */
  public static String trackedTag(final String type) {
    return "[PhalanxTrackedTag] tracked = true records when fields are written, but "
        + type
        + " has no fields: remove tracked, or watch its additions with a Reactive storage"
        + " (onConstruct)";
  }

  /**
   * {@code empty = Empty.TAG} on a type with instance fields.
   *
   * @param type the component's simple name
   * @param field the name of one of its instance fields
   * @return the coded message
   */
  public static String tagWithFields(final String type, final String field) {
    return "[PhalanxTagWithFields] empty = Empty.TAG stores no payload, but "
        + type
        + " has the instance field '"
        + field
        + "', which would be lost: remove the field, or use"
        + " Empty.AUTO (the default)";
  }

  /**
   * A field that the generated code can read neither directly nor through a getter.
   *
   * @param field the field's name
   * @param type the component's simple name
   * @param getters the getter(s) that would do, {@code "getX()"} or {@code "isX() or getX()"}
   * @return the coded message
   */
  public static String privateField(final String field, final String type, final String getters) {
    return "[PhalanxPrivateField] field '"
        + field
        + "' of "
        + type
        + " cannot be read by the"
        + " generated storage: make it package-private or public, or add an accessible getter "
        + getters;
  }

  /**
   * A field that cannot be written while no constructor takes every field.
   *
   * @param field the field's name
   * @param setter the setter that would do, {@code "setX(float)"}
   * @param why why the field cannot be written directly, {@code "is final"}
   * @return the coded message
   */
  public static String unwritableField(final String field, final String setter, final String why) {
    return "[PhalanxUnwritableField] field '"
        + field
        + "' "
        + why
        + ", and no constructor takes"
        + " every field: make it non-final and non-private, add an accessible "
        + setter
        + ", or add a constructor taking all fields (by name and type, in declaration order)";
  }

  /**
   * No accessible constructor to build instances with.
   *
   * @param type the component's qualified name
   * @param signature the all-fields constructor to add, {@code "Foo(float x, float y)"}
   * @return the coded message
   */
  public static String constructor(final String type, final String signature) {
    return "[PhalanxConstructor] "
        + type
        + " has no accessible constructor the generated storage"
        + " can build instances with: add a non-private constructor "
        + signature
        + " (all fields in declaration order), or a non-private no-argument constructor";
  }

  /**
   * A field type the generated code cannot store.
   *
   * @param field the field's name
   * @param type the field's type
   * @param why why no storage can hold it, and the fix
   * @return the coded message
   */
  public static String fieldType(final String field, final String type, final String why) {
    return "[PhalanxFieldType] field '"
        + field
        + "' has type "
        + type
        + ", which a generated"
        + " storage cannot hold: "
        + why;
  }

  /**
   * A field whose generated accessor clashes.
   *
   * @param field the field's name
   * @param member the generated member that clashes
   * @param with what it clashes with
   * @return the coded message
   */
  public static String reservedName(final String field, final String member, final String with) {
    return "[PhalanxReservedName] field '"
        + field
        + "' would generate "
        + member
        + ", which clashes"
        + " with "
        + with
        + ": rename the field";
  }

  /**
   * A generated class whose name is taken.
   *
   * @param generated the qualified name of the generated class
   * @param declaration what it is generated for, {@code "@Component p.Foo"}
   * @param other what already has the name
   * @return the coded message
   */
  public static String nameCollision(
      final String generated, final String declaration, final String other) {
    return "[PhalanxNameCollision] the class "
        + generated
        + " generated for "
        + declaration
        + " would have the same name as "
        + other
        + ": rename one of the two";
  }

  /**
   * A record whose canonical constructor is declared, and so may validate.
   *
   * @param type the record's qualified name
   * @return the coded message (a warning)
   */
  public static String validatingConstructor(final String type) {
    return "[PhalanxValidatingConstructor] record "
        + type
        + " declares its canonical constructor, but the generated emplace(entity, fields...),"
        + " replace(entity, fields...), field setters and cursors write fields directly and never"
        + " run it; only get(entity) does. Validate before calling them (or emplace a constructed"
        + " instance with emplace(entity, value)), or add"
        + " @SuppressWarnings(\"PhalanxValidatingConstructor\") to the record if the constructor"
        + " does not validate";
  }

  /**
   * A failure of the processor itself, not of the user's code.
   *
   * @param element the declaration being processed
   * @param failure what was thrown
   * @return the coded message, with the first three stack frames of {@code failure}
   */
  public static String internal(final String element, final Throwable failure) {
    final StringBuilder where = new StringBuilder();
    final StackTraceElement[] frames = failure.getStackTrace();
    for (int i = 0; i < Math.min(3, frames.length); i++) {
      where.append(i > 0 ? " < " : "").append(frames[i]);
    }
    return "[PhalanxInternal] the Phalanx processor failed on "
        + element
        + " ("
        + failure
        + " at "
        + where
        + "); this is a bug of the processor, not of your code: please report it with this"
        + " message";
  }

  /**
   * {@code @EntityRef} on a field that is not a {@code long}.
   *
   * @param field the field's name
   * @param type the field's type
   * @return the coded message
   */
  public static String entityRefType(final String field, final String type) {
    return "[PhalanxEntityRefType] @EntityRef field '"
        + field
        + "' has type "
        + type
        + ", but entity handles are long: declare it long, or remove @EntityRef";
  }

  /**
   * A {@code @Relationship} component without exactly one {@code @EntityRef} field.
   *
   * @param component the component's name
   * @param targets the names of its {@code @EntityRef} fields
   * @return the coded message
   */
  public static String relationshipTarget(final String component, final List<String> targets) {
    return "[PhalanxRelationshipTarget] @Relationship "
        + component
        + (targets.isEmpty()
            ? " has no @EntityRef field: mark the long field that names the target @EntityRef"
            : " has "
                + targets.size()
                + " @EntityRef fields "
                + targets
                + ": a relationship names one target; keep @EntityRef on the target field only,"
                + " or declare one relationship per target");
  }

  /**
   * A {@code @Relationship} component whose instances are kept whole.
   *
   * @param component the component's name
   * @return the coded message
   */
  public static String relationshipStorage(final String component) {
    return "[PhalanxRelationshipStorage] @Relationship "
        + component
        + " keeps its instances whole: give it a long @EntityRef field naming the target and"
        + " leave @Component(empty) at its default (an exclusive kind), or make it a tag without"
        + " fields (a pair kind)";
  }

  /**
   * A field type that never resolved.
   *
   * @param type the component's name
   * @return the coded message
   */
  public static String missingType(final String type) {
    return "[PhalanxMissingType] @Component "
        + type
        + " has a field whose type could not be"
        + " resolved, so no storage was generated for it; check the earlier errors";
  }
}
