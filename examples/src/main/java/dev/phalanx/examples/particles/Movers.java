package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * The particles that move: every entity with a {@link Position} and a {@link Velocity}, except
 * {@link Frozen} dust. The processor generates {@code MoversQuery}, an owning group over the two
 * storages whose {@code eachChunk} hands out their {@code float[]} pages.
 *
 * <p>Owning both storages means the group keeps its members packed at the front of each, in the
 * same order: the movement loop is a walk over plain arrays. Frozen entities, and comet tails (no
 * velocity), sit behind the group's range.
 */
@GroupQuery(
    owned = {Position.class, Velocity.class},
    exclude = Frozen.class)
public interface Movers {}
