package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.ViewQuery;

/** {@link Boosted} without its optional terms: it must visit the same entities. */
@ViewQuery(include = Position.class, exclude = Frozen.class)
interface Placed {}
