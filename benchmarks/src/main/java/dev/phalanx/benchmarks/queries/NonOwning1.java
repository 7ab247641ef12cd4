package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.Position;
import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group of Position alone (iterate1 over a group, next to {@link View1}). */
@GroupQuery(get = {Position.class})
public interface NonOwning1 {}
