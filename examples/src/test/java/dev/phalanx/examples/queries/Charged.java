package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** An owning group with an optional term: the boost is looked up, never owned. */
@GroupQuery(owned = Charge.class, optional = Boost.class)
interface Charged {}
