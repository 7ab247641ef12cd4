package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.GroupQuery;

/** A full-owning group of Position, Velocity (nested with the other full-owning groups). */
@GroupQuery(owned = {Position.class, Velocity.class})
public interface FullOwning2 {}
