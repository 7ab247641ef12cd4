/**
 * Generation: one generator per kind of file, each taking only a validated model and writing one
 * formatted, Javadoc'd, {@code @Generated} source file through JavaPoet. Generators name the
 * runtime only through {@link dev.phalanx.ecs.processor.base.RuntimeContract} and generated members
 * only through {@link dev.phalanx.ecs.processor.base.Names}; they never report a diagnostic (the
 * model is valid by construction).
 *
 * <p>Costs: each file is built in memory and written once; its size is linear in the model's fields
 * (a component's storage, cursor and traits) or in the query's listed components and their fields.
 *
 * <p>Files:
 *
 * <ul>
 *   <li>{@link dev.phalanx.ecs.processor.generation.SourceFileGenerator}: the base of every
 *       generator; {@code @Generated}, originating element, deprecation suppression, writing.
 *   <li>{@code ComponentFileGenerator}: the base of the generators of one file per component.
 *   <li>{@link dev.phalanx.ecs.processor.generation.StorageGenerator}: {@code Foo_Storage}, the
 *       struct-of-arrays, tag or instance-keeping storage.
 *   <li>{@link dev.phalanx.ecs.processor.generation.ReadCursorGenerator}: {@code Foo_ReadCursor},
 *       the read-only flyweight over one element (state, moves, getters), which queries hand for a
 *       component listed in {@code readOnly}.
 *   <li>{@link dev.phalanx.ecs.processor.generation.CursorGenerator}: {@code Foo_Cursor}, the
 *       flyweight over one element, the final subclass of {@code Foo_ReadCursor} with the setters.
 *   <li>{@link dev.phalanx.ecs.processor.generation.TraitsGenerator}: {@code Foo_Traits}, the
 *       traits, field list and {@code TYPE} key.
 *   <li>{@link dev.phalanx.ecs.processor.generation.QueryFileGenerator}: the base of the query
 *       generators; what every query has ({@code of}, {@code contains}, {@code each}).
 *   <li>{@link dev.phalanx.ecs.processor.generation.OwningGroupQueryGenerator}: the query of an
 *       owning group; positional access, {@code eachChunk}, {@code parallelEachChunk}.
 *   <li>{@link dev.phalanx.ecs.processor.generation.NonOwningGroupQueryGenerator}: the query of a
 *       non-owning group; one lookup per component.
 *   <li>{@link dev.phalanx.ecs.processor.generation.ViewQueryGenerator}: the query of a view; walks
 *       the leading storage, tests the others.
 *   <li>{@code RuntimeProtocols}: the insertion protocol and the guarded paged loop, each emitted
 *       from one place.
 *   <li>{@code Code}: small code fragments the generators share.
 * </ul>
 */
package dev.phalanx.ecs.processor.generation;
