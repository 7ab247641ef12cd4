package dev.phalanx.ecs.processor.validation;

/**
 * Every message about {@code @GroupQuery} and {@code @ViewQuery} declarations, each with a stable
 * bracketed code and the fix. The codes are listed in the Javadoc of both annotations; tests match
 * on them.
 */
public final class QueryDiagnostics {

  private QueryDiagnostics() {}

  /**
   * The annotated type is not an interface or abstract class.
   *
   * @param annotation {@code "@GroupQuery"} or {@code "@ViewQuery"}
   * @param what the offending declaration, {@code "the enum p.Foo"}
   * @return the coded message
   */
  public static String kind(final String annotation, final String what) {
    return "[PhalanxQueryKind] "
        + annotation
        + " cannot be applied to "
        + what
        + ": annotate an"
        + " interface (or an abstract class) that only declares the query";
  }

  /**
   * Both query annotations on one declaration.
   *
   * @param type the declaration's qualified name
   * @return the coded message
   */
  public static String both(final String type) {
    return "[PhalanxQueryKind] "
        + type
        + " carries both @GroupQuery and @ViewQuery, which would"
        + " generate the same class: keep one, or declare the other on a second interface";
  }

  /**
   * Nothing included.
   *
   * @param annotation {@code "@GroupQuery"} or {@code "@ViewQuery"}
   * @param lists the lists that include components, {@code "owned or get"} or {@code "include"}
   * @return the coded message
   */
  public static String empty(final String annotation, final String lists) {
    return "[PhalanxQueryEmpty] "
        + annotation
        + " includes no component: list at least one class in "
        + lists;
  }

  /**
   * A listed class that is not a component.
   *
   * @param type the listed class
   * @param list the list naming it, {@code "get"}
   * @return the coded message
   */
  public static String unknownComponent(final String type, final String list) {
    return "[PhalanxQueryUnknownComponent] "
        + type
        + " (in "
        + list
        + ") is not a @Component, so it"
        + " has no generated storage: annotate it with @Component, or remove it from the list";
  }

  /**
   * A class listed twice.
   *
   * @param type the listed class
   * @param first the list naming it first
   * @param second the list naming it again (may equal {@code first})
   * @return the coded message
   */
  public static String duplicate(final String type, final String first, final String second) {
    return "[PhalanxQueryDuplicate] "
        + type
        + " is listed twice (in "
        + first
        + " and in "
        + second
        + "): list each component once"
        + (first.equals(second) ? "" : " (a component is either owned or get, not both)");
  }

  /**
   * A class both included and excluded.
   *
   * @param type the listed class
   * @param list the including list naming it
   * @return the coded message
   */
  public static String includedAndExcluded(final String type, final String list) {
    return "[PhalanxQueryIncludedAndExcluded] "
        + type
        + " is both in "
        + list
        + " and in exclude,"
        + " so no entity could match: remove it from one of the two lists";
  }

  /**
   * A class both optional and included or excluded.
   *
   * @param type the listed class
   * @param list the other list naming it: {@code "include"}, {@code "owned"}, {@code "get"} or
   *     {@code "exclude"}
   * @return the coded message
   */
  public static String optionalAndRequired(final String type, final String list) {
    final boolean excluded = "exclude".equals(list);
    return "[PhalanxQueryOptional] "
        + type
        + " is both in optional and in "
        + list
        + (excluded
            ? ", so it would never be present: remove it from optional, or from exclude to visit"
                + " entities that have it too"
            : ", so it would always be present: remove it from optional, or from "
                + list
                + " to visit entities without it too");
  }

  /**
   * An in-place component listed as owned.
   *
   * @param type the component's qualified name
   * @return the coded message
   */
  public static String ownedInPlace(final String type) {
    return "[PhalanxQueryOwnedInPlace] "
        + type
        + " uses in-place deletion (@Component(inPlaceDelete = true)), so its elements must not"
        + " move and a group cannot own it: move it to get, or drop inPlaceDelete";
  }

  /**
   * Owned components with fields but different page sizes.
   *
   * @param type the owned component's qualified name
   * @param pageSize its page size
   * @param first the first owned component with fields, whose page size the others must have
   * @param firstSize that component's page size
   * @return the coded message
   */
  public static String pageSize(
      final String type, final int pageSize, final String first, final int firstSize) {
    return "[PhalanxQueryPageSize] owned "
        + type
        + " has pageSize "
        + pageSize
        + " but "
        + first
        + " has "
        + firstSize
        + "; eachChunk hands one [from, to) range for the page arrays of every owned component, so"
        + " they need one page size: give them the same @Component(pageSize), or move one to get";
  }

  /**
   * Two owning groups that own a common type without being nested.
   *
   * @param group the group being checked, described with its lists (and registry name, if any)
   * @param other the group accepted earlier, described the same way
   * @param shared the owned component both groups share
   * @return the coded message
   */
  public static String conflict(final String group, final String other, final String shared) {
    return "[PhalanxQueryConflict] the owning group "
        + group
        + " and the owning group "
        + other
        + " both own "
        + shared
        + " but are not nested (neither one's owned, get and exclude lists contain the other's), so"
        + " the registry would refuse to create the second one: make one group extend the other"
        + " (for example <A, B> and <A, B, C>), or move the shared type to get in one of them; if"
        + " they are used with different registries, say so with registry names: @GroupQuery(...,"
        + " registry = \"physics\")";
  }

  /**
   * A listed component that has errors of its own.
   *
   * @param type the listed class
   * @param list the list naming it
   * @return the coded message
   */
  public static String invalidComponent(final String type, final String list) {
    return "[PhalanxQueryInvalidComponent] "
        + type
        + " (in "
        + list
        + ") has errors of its own, reported on its declaration, so no storage was generated for"
        + " it: fix them, and this query is generated too";
  }

  /**
   * More visited components than a Java method may take.
   *
   * @param annotation {@code "@GroupQuery"} or {@code "@ViewQuery"}
   * @param slots the parameter slots the visitor method would take
   * @return the coded message
   */
  public static String tooWide(final String annotation, final int slots) {
    return "[PhalanxQueryTooWide] "
        + annotation
        + " hands "
        + slots
        + " parameter slots to its Visitor (the entity takes 2, each visited component 1), more"
        + " than the 254 a Java interface method may take: split the query, or iterate the runtime"
        + " group or view with each(entity -> ...) and read the storages";
  }

  /**
   * A query annotation on a local class.
   *
   * @param annotation the annotation, {@code "@GroupQuery"} or {@code "@ViewQuery"}
   * @param type the local declaration, {@code "class Foo"}
   * @return the coded message
   */
  public static String local(final String annotation, final String type) {
    return "[PhalanxQueryKind] "
        + annotation
        + " cannot be applied to the local "
        + type
        + ", which"
        + " generated code cannot name: move it to the top level or make it a static nested type";
  }

  /**
   * A class in {@code readOnly} that the query neither includes nor lists as optional.
   *
   * @param type the class's qualified name
   * @param lists the lists a read-only class must be in, {@code "include or optional"} or {@code
   *     "owned, get or optional"}
   * @return the coded message
   */
  public static String readOnlyNotIncluded(final String type, final String lists) {
    return "[PhalanxQueryReadOnly] "
        + type
        + " is listed in readOnly but not in "
        + lists
        + ": a query can only read what it includes or looks up; add it to "
        + lists
        + ", or remove it from readOnly";
  }
}
