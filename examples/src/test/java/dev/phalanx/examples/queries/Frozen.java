package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A tag that excludes an entity from every query of this package. */
@Component
public record Frozen() {}
