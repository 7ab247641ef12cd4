package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.GroupQuery;

/** A non-owning group over positions, sorted into a draw order by key. */
@GroupQuery(get = {Position.class})
interface Drawn {}
