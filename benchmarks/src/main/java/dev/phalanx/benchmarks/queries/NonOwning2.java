package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group of Position, Velocity: its own sparse set of members. */
@GroupQuery(get = {Position.class, Velocity.class})
public interface NonOwning2 {}
