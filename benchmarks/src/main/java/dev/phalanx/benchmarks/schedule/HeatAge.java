package dev.phalanx.benchmarks.schedule;

import dev.phalanx.benchmarks.components.Age;
import dev.phalanx.benchmarks.components.Heat;
import dev.phalanx.ecs.annotations.GroupQuery;

/** A full-owning group of Heat, Age: disjoint from {@code FullOwning2}'s Position, Velocity. */
@GroupQuery(owned = {Heat.class, Age.class})
public interface HeatAge {}
