package dev.phalanx.ecs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a view over {@link Component} types; the Phalanx annotation processor generates a typed
 * query class for it. Annotate an interface (or an abstract class) that serves only as the
 * declaration:
 *
 * <pre>{@code
 * @ViewQuery(include = {Position.class, Sprite.class}, exclude = Hidden.class)
 * interface Visible {}
 * }</pre>
 *
 * <p>generates {@code VisibleQuery} in the same package (a declaration nested in a holder class,
 * {@code Queries.Visible}, gets {@code Queries_VisibleQuery}), with:
 *
 * <ul>
 *   <li>{@code VisibleQuery.of(registry)}, {@code view()} (the runtime view), {@code
 *       contains(entity)}, {@code sizeHint()};
 *   <li>{@code onEnter()} and {@code onLeave()}, the view's membership signals;
 *   <li>one typed storage getter per listed component ({@code positionStorage()}, excluded ones
 *       included);
 *   <li>an allocation-free {@code each(Visitor)} that hands the visitor reused, typed cursors
 *       ({@code Position_Cursor}) over every included component that has fields, and the nested
 *       {@code Visitor} interface;
 *   <li>{@code eachChangedSince(tick, Visitor)} when an included component is {@code tracked}: it
 *       visits the entities any of whose tracked included components changed after {@code tick}.
 * </ul>
 *
 * <h2>Optional terms</h2>
 *
 * <p>The components listed in {@link #optional()} are those a visited entity may or may not have;
 * they never change which entities are visited. For each, the visitor receives, after the included
 * ones:
 *
 * <ul>
 *   <li>for a component with fields, its cursor, positioned on the entity's component, or {@code
 *       null} when the entity has none ({@code if (velocity != null)} in Java, {@code velocity?.x}
 *       in Kotlin);
 *   <li>for a tag, a {@code boolean}: whether the entity has it;
 *   <li>for a field-less stored type ({@code Empty.STORE}), the instance, or {@code null}.
 * </ul>
 *
 * <p>A component with fields costs no lookup on a run of the lead (a page of its positions) where
 * its storage holds the run's entities at the same positions and has the same page size, as
 * storages filled in the same order do: its cursor walks the run as an included component's does.
 * The query remembers which runs agree from one pass to the next, so a pass over storages that did
 * not change compares nothing for it. Elsewhere, and for tags and field-less types, each costs a
 * read of its storage at the lead's position per visited entity, and a sparse lookup when that
 * misses. Either way it allocates nothing. An optional component may be listed in {@link
 * #readOnly()}; the query declares its access as for an included one. {@code eachChangedSince}
 * tests only the included tracked components: an optional one never makes an entity visited, so
 * that {@code eachChangedSince} visits the same entities with or without optional terms; a visitor
 * that cares asks the optional cursor's {@code changedSince(tick)}.
 *
 * <p>A view keeps nothing up to date: it costs nothing until iterated and then tests each entity of
 * its smallest included storage.
 *
 * <h2>Diagnostics</h2>
 *
 * <p>The processor reports these errors on the declaration (on the offending annotation value where
 * there is one); no query is generated for a declaration with errors:
 *
 * <ul>
 *   <li>{@code [PhalanxQueryKind]}: the annotated type is not an interface or abstract class, or
 *       carries both {@code @ViewQuery} and {@link GroupQuery};
 *   <li>{@code [PhalanxQueryEmpty]}: {@link #include()} is empty;
 *   <li>{@code [PhalanxQueryUnknownComponent]}: a listed class is not a {@link Component} (a class
 *       that does not resolve at all is left to the compiler's own error);
 *   <li>{@code [PhalanxQueryDuplicate]}: a class is listed twice;
 *   <li>{@code [PhalanxQueryReadOnly]}: a class in {@code readOnly} is neither included nor
 *       optional;
 *   <li>{@code [PhalanxQueryIncludedAndExcluded]}: a class is both included and excluded;
 *   <li>{@code [PhalanxQueryOptional]}: a class is both optional and included (it would always be
 *       present), or both optional and excluded (it would never be);
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
public @interface ViewQuery {

  /** {@return the components the entities must have; at least one} */
  Class<?>[] include();

  /** {@return the components the entities must not have} */
  Class<?>[] exclude() default {};

  /**
   * {@return the included components this query only reads} A system that uses the query (see
   * {@code dev.phalanx.ecs.schedule}) is then held to a read of them, not a write, so it may run
   * beside other readers. The generated visitor receives each of them as a read-only cursor, {@code
   * Foo_ReadCursor}, the superclass of {@code Foo_Cursor} without its setters, so a write through
   * it does not compile. Each must also be listed as included or optional ({@code
   * [PhalanxQueryReadOnly]} otherwise).
   */
  Class<?>[] readOnly() default {};

  /**
   * {@return the components the entities may or may not have} They do not change which entities are
   * visited: the visitor receives each one's cursor, positioned on the entity's component, or
   * {@code null} when the entity has none (a tag comes as a {@code boolean}). See "Optional terms"
   * above.
   */
  Class<?>[] optional() default {};
}
