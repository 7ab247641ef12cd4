package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group: positions and masses looked up, frozen ones left out. */
@GroupQuery(
    get = {Position.class, Mass.class},
    exclude = Frozen.class)
interface Weighed {}
