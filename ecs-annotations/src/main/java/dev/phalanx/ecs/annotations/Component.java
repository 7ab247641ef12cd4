package dev.phalanx.ecs.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a component type: the Phalanx annotation processor generates, in the class's package,
 *
 * <ul>
 *   <li>{@code Foo_Storage}: a struct-of-arrays storage that keeps each field in its own paged
 *       array ({@code float[][]} for a {@code float} field, typed reference pages for other types),
 *       with per-entity and per-position accessors, {@code emplace(entity, fields...)} and {@code
 *       get}/{@code set} from an instance; a tag storage without payload for an empty type;
 *   <li>{@code Foo_Cursor}: a reusable flyweight that reads and writes one element in place;
 *   <li>{@code Foo_Traits}: page size, deletion policy, emptiness, field names and types as
 *       constants, and {@code TYPE}, the key to pass to {@code registry.storage(Foo_Traits.TYPE)}.
 * </ul>
 *
 * <p>A nested class {@code Outer.Foo} gets {@code Outer_Foo_Storage} and so on.
 *
 * <h2>What may be annotated</h2>
 *
 * <p>A record, or a class (final or not) whose every instance field can be read (a non-private
 * field in the same package, or a getter {@code getX()}, {@code isX()} for a {@code boolean}, or
 * {@code x()}) and whose instances can be built (a constructor taking every field, by name and type
 * in declaration order, or a no-argument constructor plus writable fields or setters {@code setX}).
 * Field types: the eight primitive types, and any reference type (enums, strings, arrays, other
 * classes, parameterized types) that the generated code can name.
 *
 * <h2>Diagnostics</h2>
 *
 * <p>The processor reports these errors, each on the offending element:
 *
 * <ul>
 *   <li>{@code [PhalanxComponentKind]}: an interface, annotation, enum or abstract class is
 *       annotated;
 *   <li>{@code [PhalanxGeneric]}: the class has type parameters;
 *   <li>{@code [PhalanxInnerClass]}: a non-static inner class, or a local class (a local record
 *       included);
 *   <li>{@code [PhalanxPrivateClass]}: the class or a class enclosing it is private;
 *   <li>{@code [PhalanxPageSize]}: {@link #pageSize()} is not a power of two from 1 to 65536
 *       (reported on the annotation value);
 *   <li>{@code [PhalanxTagWithFields]}: {@code empty = Empty.TAG} on a type with instance fields;
 *   <li>{@code [PhalanxPrivateField]}: a field that the generated code cannot read (private, or in
 *       another package) and has no accessible getter;
 *   <li>{@code [PhalanxUnwritableField]}: a field that cannot be written (final or private without
 *       a setter) while no constructor takes every field;
 *   <li>{@code [PhalanxConstructor]}: no accessible constructor to build instances with;
 *   <li>{@code [PhalanxFieldType]}: a field type the generated code cannot store (a private or
 *       local type, an array of a parameterized type);
 *   <li>{@code [PhalanxReservedName]}: a field whose generated accessors would clash with a member
 *       of the storage base class or with another field's accessors;
 *   <li>{@code [PhalanxNameCollision]}: two components whose generated class names are the same
 *       (for example {@code Outer.Inner} and a top-level {@code Outer_Inner} in one package), or a
 *       generated name taken by a class written by hand;
 *   <li>{@code [PhalanxMissingType]}: a field type that never resolved (check earlier errors).
 * </ul>
 *
 * <p>and this warning, which {@code @SuppressWarnings("PhalanxValidatingConstructor")} on the
 * record silences:
 *
 * <ul>
 *   <li>{@code [PhalanxValidatingConstructor]}: a record declares its canonical constructor
 *       (compact or not), which may validate, but the typed {@code emplace(entity, fields...)},
 *       {@code replace(entity, fields...)}, field setters and cursors write fields without running
 *       it.
 * </ul>
 *
 * <h2>Wide components</h2>
 *
 * <p>A Java method takes at most 255 parameter slots ({@code long} and {@code double} take two).
 * When the typed {@code emplace(entity, fields...)} and {@code replace(entity, fields...)} would
 * exceed that (a record of 127 {@code long} fields, say), they are not generated, and the storage's
 * Javadoc says so: use {@code emplace(entity, value)} and the field setters instead.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Component {

  /**
   * The default {@link #pageSize()}: 4096 elements. Each field has its own pages, so a page of a
   * {@code float} field is 16 KiB, the size of an EnTT page of a 16-byte component (1024 elements).
   * Smaller pages cost more in chunked loops (a JMH run measured 1.9x the plain-array time for
   * three float fields with 1024-element pages, 1.1x with 4096). Pages lie wherever the garbage
   * collector puts them, so each page starts a new stream for the hardware prefetcher: over three
   * forks, 4096-element pages measured 1.1x to 1.4x the plain arrays and 8192-element pages 1.0x to
   * 1.1x. Give a component walked in bulk every frame {@code pageSize = 8192}.
   */
  int DEFAULT_PAGE_SIZE = 4096;

  /**
   * Whether removal leaves a tombstone instead of moving the last element into the hole ({@code
   * DeletionPolicy.IN_PLACE}): positions, and so cursors and page slots, of the other elements stay
   * stable until {@code compact()}. Iterations skip tombstones. Such a storage cannot be owned by a
   * group. Default {@code false} (swap-and-pop).
   *
   * @return whether the storage deletes in place
   */
  boolean inPlaceDelete() default false;

  /**
   * Whether the storage records, per element, the change tick at which it was last written: by
   * {@code emplace}, {@code replace}, {@code set}, {@code patch}, the generated setters and
   * cursors, and the chunk forms of queries that own the component. Queries then offer {@code
   * eachChangedSince(tick, visitor)}, which visits only the entities whose tracked components
   * changed after {@code tick} (see {@code Registry.advanceChangeTick()}). It costs a {@code long}
   * per element (64-bit ticks never wrap in practice) and a store per write; an untracked
   * component's generated code is unchanged. Default {@code false}. Only components with fields can
   * be tracked ({@code [PhalanxTrackedTag]}).
   *
   * @return whether writes are tracked
   */
  boolean tracked() default false;

  /**
   * Elements per payload page: a power of two from 1 to 65536 ({@code [PhalanxPageSize]}
   * otherwise). Pages are allocated whole on first use, so a larger page wastes more for few
   * elements and hops less for many.
   *
   * @return the number of elements per page
   */
  int pageSize() default DEFAULT_PAGE_SIZE;

  /** {@return what to do with a type without instance fields; see {@link Empty}} */
  Empty empty() default Empty.AUTO;
}
