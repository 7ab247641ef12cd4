package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Scale;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.ViewQuery;

/** A view of the entities with Position, Velocity, Scale (iterate3). */
@ViewQuery(include = {Position.class, Velocity.class, Scale.class})
public interface View3 {}
