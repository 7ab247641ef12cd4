package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.TrackedPosition;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * {@link FullOwning2} with a tracked position. It owns Velocity too, without being nested with
 * FullOwning2: the two are never created in one registry, which the registry name declares.
 */
@GroupQuery(
    owned = {TrackedPosition.class, Velocity.class},
    registry = "tracking")
public interface TrackedOwning2 {}
