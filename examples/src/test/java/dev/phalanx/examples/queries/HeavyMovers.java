package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * Movers that also have a mass: nested in {@link Movers} (each of its lists extends the other's).
 */
@GroupQuery(
    owned = {Position.class, Velocity.class, Mass.class},
    exclude = Frozen.class)
interface HeavyMovers {}
