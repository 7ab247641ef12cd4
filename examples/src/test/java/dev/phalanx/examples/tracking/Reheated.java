package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.ViewQuery;

/** Entities with a temperature that a reactive storage collected. */
@ViewQuery(include = {Temperature.class, Moved.class})
interface Reheated {}
