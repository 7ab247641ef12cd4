package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.ViewQuery;

/** A view of the entities with Position, Velocity (iterate2). */
@ViewQuery(include = {Position.class, Velocity.class})
public interface View2 {}
