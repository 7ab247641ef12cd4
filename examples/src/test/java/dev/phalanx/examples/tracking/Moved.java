package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.Component;

/** A tag that a reactive storage fills: the entities whose Temperature was replaced. */
@Component
public final class Moved {}
