package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** Entities that move: a full-owning group of position and velocity, frozen ones left out. */
@GroupQuery(
    owned = {Position.class, Velocity.class},
    exclude = Frozen.class)
interface Movers {}
