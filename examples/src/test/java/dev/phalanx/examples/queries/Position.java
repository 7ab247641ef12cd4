package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A position, owned by the mover groups. */
@Component
public record Position(float x, float y) {}
