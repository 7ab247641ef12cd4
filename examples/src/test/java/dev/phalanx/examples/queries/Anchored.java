package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.ViewQuery;

/** A view over an in-place component. */
@ViewQuery(
    include = {Position.class, Anchor.class},
    exclude = Frozen.class)
interface Anchored {}
