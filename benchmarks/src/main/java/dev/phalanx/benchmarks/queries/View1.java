package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.ecs.annotations.ViewQuery;

/** A view of the entities with Position (iterate1). */
@ViewQuery(include = {Position.class})
public interface View1 {}
