package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.benchmarks.components.Scale;
import dev.phalanx.benchmarks.components.Velocity;
import dev.phalanx.ecs.annotations.GroupQuery;

/** A full-owning group of Position, Velocity, Scale (nested with the other full-owning groups). */
@GroupQuery(owned = {Position.class, Velocity.class, Scale.class})
public interface FullOwning3 {}
