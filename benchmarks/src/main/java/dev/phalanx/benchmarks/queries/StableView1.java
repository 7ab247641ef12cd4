package dev.phalanx.benchmarks.queries;

import dev.phalanx.benchmarks.components.StablePosition;
import dev.phalanx.ecs.annotations.ViewQuery;

/** A view of an in-place (stable) storage: its loop skips tombstones. */
@ViewQuery(include = StablePosition.class)
public interface StableView1 {}
