package dev.phalanx.ecs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a group of {@link Component} types; the Phalanx annotation processor generates a typed
 * query class for it. Annotate an interface (or an abstract class) that serves only as the
 * declaration:
 *
 * <pre>{@code
 * @GroupQuery(owned = {Position.class, Velocity.class}, exclude = Frozen.class)
 * interface Movers {}
 * }</pre>
 *
 * <p>generates {@code MoversQuery} in the same package (a nested declaration {@code Systems.Movers}
 * gets {@code Systems_MoversQuery}), with:
 *
 * <ul>
 *   <li>{@code MoversQuery.of(registry)}: gets or creates the runtime group (see {@code
 *       Registry#group}) and keeps typed references to the generated storages;
 *   <li>{@code each(Visitor)}: per entity, with reused, typed cursors ({@code Position_Cursor})
 *       over every included component that has fields; allocation-free;
 *   <li>{@code eachInOrder(Visitor)}: the same, walking from position 0 (a sort's order) with the
 *       group's storages locked against structural changes; allocation-free;
 *   <li>for an owning group, {@code eachChunk(Chunk)}: per run of contiguous positions, the
 *       primitive page arrays of every field of every owned component and the {@code [from, to)}
 *       offsets into them, so that the body is a plain counted loop the JIT can vectorize;
 *   <li>for an owning group, {@code parallelEachChunk(Chunk)} and {@code
 *       parallelEachChunk(ForkJoinPool, Chunk)}: the same runs spread over a fork-join pool.
 * </ul>
 *
 * <p>With {@link #owned()} empty the group is non-owning: it owns no storage, may include any type
 * (in-place ones too) and has no chunk forms.
 *
 * <h2>Optional terms</h2>
 *
 * <p>The components listed in {@link #optional()} are those a member may or may not have. They are
 * no part of the group (it neither owns them nor keeps them in its member set, and two declarations
 * that differ only in them share one runtime group). In a non-owning group, a component with fields
 * costs no lookup on a run of the members (a page of their positions) where its storage holds the
 * run's members at the same positions and has the same page size: its cursor walks the run as a
 * {@link #get()} component's does, and which runs agree is remembered from one pass to the next.
 * Elsewhere, in an owning group, and for tags and field-less types, each is looked up per visited
 * member: at the member's position when its storage holds the member there, else by one sparse
 * lookup. Allocation-free either way. {@code each} and {@code eachInOrder} pass, after the included
 * components, the cursor of each optional component with fields, positioned on the member's
 * component, or {@code null} when the member has none (a tag comes as a {@code boolean}, a
 * field-less stored type as the instance or {@code null}). The chunk forms hand out owned arrays
 * only and do not see optional terms. An optional component may be listed in {@link #readOnly()};
 * the query declares its access as for an included one. {@code eachChangedSince} tests only the
 * included tracked components, so that it visits the same members with or without optional terms.
 *
 * <h2>Diagnostics</h2>
 *
 * <p>The processor reports these errors on the declaration (on the offending annotation value where
 * there is one); no query is generated for a declaration with errors:
 *
 * <ul>
 *   <li>{@code [PhalanxQueryKind]}: the annotated type is not an interface or abstract class, or
 *       carries both {@code @GroupQuery} and {@link ViewQuery};
 *   <li>{@code [PhalanxQueryEmpty]}: {@link #owned()} and {@link #get()} are both empty;
 *   <li>{@code [PhalanxQueryUnknownComponent]}: a listed class is not a {@link Component} (a class
 *       that does not resolve at all is left to the compiler's own error);
 *   <li>{@code [PhalanxQueryDuplicate]}: a class is listed twice (for example both owned and get);
 *   <li>{@code [PhalanxQueryIncludedAndExcluded]}: a class is both included (owned or get) and
 *       excluded;
 *   <li>{@code [PhalanxQueryOptional]}: a class is both optional and owned or get (it would always
 *       be present), or both optional and excluded (it would never be);
 *   <li>{@code [PhalanxQueryReadOnly]}: a class in {@code readOnly} is neither owned, get nor
 *       optional;
 *   <li>{@code [PhalanxQueryOwnedInPlace]}: an {@code @Component(inPlaceDelete = true)} class is
 *       owned (its elements must not move);
 *   <li>{@code [PhalanxQueryPageSize]}: owned components with fields have different page sizes (the
 *       chunk form hands out one {@code [from, to)} range for all of their page arrays);
 *   <li>{@code [PhalanxQueryConflict]}: two owning groups declared in the same compilation own a
 *       common type without being nested (each of the owned, get and exclude lists of one must
 *       contain the other's), which the registry would refuse at run time; give the two
 *       declarations different {@link #registry()} names if they are never used in one registry;
 *   <li>{@code [PhalanxQueryInvalidComponent]}: a listed component has errors of its own (reported
 *       on it);
 *   <li>{@code [PhalanxQueryTooWide]}: the visitor would take more parameters than a Java method
 *       may (more than 252 visited components);
 *   <li>{@code [PhalanxNameCollision]}: the generated class's name is taken (by a class written by
 *       hand, or generated for another declaration).
 * </ul>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface GroupQuery {

  /**
   * {@return the components the group owns: kept packed, in one order, at the front of their
   * storages}
   */
  Class<?>[] owned() default {};

  /** {@return the components the members must have, looked up rather than owned} */
  Class<?>[] get() default {};

  /** {@return the components the members must not have} */
  Class<?>[] exclude() default {};

  /**
   * {@return the included components this query only reads} A system that uses the query (see
   * {@code dev.phalanx.ecs.schedule}) is then held to a read of them, not a write, so it may run
   * beside other readers. The generated visitor receives each of them as a read-only cursor, {@code
   * Foo_ReadCursor}, the superclass of {@code Foo_Cursor} without its setters, so a write through
   * it does not compile; the chunk interfaces, which hand out arrays, say in their Javadoc which
   * arrays are read-only, and chunk passes do not stamp a tracked component listed here. Each must
   * also be listed as owned, get or optional ({@code [PhalanxQueryReadOnly]} otherwise).
   */
  Class<?>[] readOnly() default {};

  /**
   * {@return the components the members may or may not have, looked up per member} They are no part
   * of the group and do not change which entities are visited: the visitor receives each one's
   * cursor, positioned on the member's component, or {@code null} when the member has none (a tag
   * comes as a {@code boolean}). See "Optional terms" above.
   */
  Class<?>[] optional() default {};

  /**
   * The name of the registry (the world) this group is used with; {@code ""} by default. It changes
   * no generated code: it tells the processor's {@code [PhalanxQueryConflict]} check that two
   * owning groups which own a common type without being nested are never created in the same
   * registry (a physics world and a render world, say), so both may be declared. Groups are
   * compared only with groups of the same name. If both are created in one registry anyway, the
   * registry refuses the second at run time with an {@code IllegalStateException}.
   *
   * @return the registry's name
   */
  String registry() default "";
}
