package dev.phalanx.examples.docs.quickstart;

import dev.phalanx.ecs.annotations.GroupQuery;

// tag::query[]
@GroupQuery(
    owned = {Position.class, Velocity.class},
    exclude = Asleep.class)
public interface Moving {} // generates MovingQuery
// end::query[]
