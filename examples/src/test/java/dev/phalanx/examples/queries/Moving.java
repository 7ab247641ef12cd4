package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.ViewQuery;

/** A view over two storages that are usually filled in the same order. */
@ViewQuery(include = {Position.class, Velocity.class})
interface Moving {}
