/**
 * Entity handles and the entity storage. An entity is a {@code long}: a 32-bit index and a 32-bit
 * version (see {@link dev.phalanx.ecs.entity.Entity} for the layout); {@link
 * dev.phalanx.ecs.entity.EntityStorage} creates identifiers and recycles released ones last in, first
 * out, bumping their version so that stale handles are detected.
 */
package dev.phalanx.ecs.entity;
