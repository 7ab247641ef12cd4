package dev.phalanx.examples.alignment;

import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group over a swap-and-pop and an in-place storage of the same page size. */
@GroupQuery(get = {Spot.class, Health.class})
interface Alive {}
