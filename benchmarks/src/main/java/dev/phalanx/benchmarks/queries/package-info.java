/**
 * The views and groups the benchmarks iterate, declared for the Phalanx processor, which generates
 * one class per declaration ({@code View2} gives {@code View2Query}).
 *
 * <p>Owning groups that own a common type must be nested, in one registry and, checked at compile
 * time, in one compilation. The full-owning groups of 2, 3 and 5 components form one nested family
 * ({@link FullOwning2}, {@link FullOwning3}, {@link FullOwning5}) over the components of {@code
 * dev.phalanx.benchmarks.components}; partial-owning groups are not nested with them, so they are
 * declared over their own copies of the same records ({@link Partial}: same fields, same generated
 * storages, other keys).
 */
package dev.phalanx.benchmarks.queries;
