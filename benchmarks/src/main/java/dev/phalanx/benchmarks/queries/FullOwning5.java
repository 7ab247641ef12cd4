package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Age;
import dev.phalanx.benchmarks.components.Heat;
import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Scale;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * A full-owning group of Position, Velocity, Scale, Heat, Age (nested with the other full-owning
 * groups).
 */
@GroupQuery(owned = {Position.class, Velocity.class, Scale.class, Heat.class, Age.class})
public interface FullOwning5 {}
