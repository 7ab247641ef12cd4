package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Age;
import dev.phalanx.benchmarks.components.Heat;
import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Scale;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group of Position, Velocity, Scale, Heat, Age: its own sparse set of members. */
@GroupQuery(get = {Position.class, Velocity.class, Scale.class, Heat.class, Age.class})
public interface NonOwning5 {}
