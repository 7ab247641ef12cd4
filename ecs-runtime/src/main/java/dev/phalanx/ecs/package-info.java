/**
 * Phalanx: an EnTT-style sparse-set Entity-Component-System.
 *
 * <p>A {@link dev.phalanx.ecs.Registry} creates entities ({@code long} handles with an index and a
 * version, see {@link dev.phalanx.ecs.Entity}) and owns one {@link dev.phalanx.ecs.Storage} per
 * component type, found by a {@link dev.phalanx.ecs.ComponentType} key. Views ({@link
 * dev.phalanx.ecs.View}) iterate entities that have a set of components; groups ({@link
 * dev.phalanx.ecs.Group}) keep such entities packed together for the fastest iteration.
 */
package dev.phalanx.ecs;
