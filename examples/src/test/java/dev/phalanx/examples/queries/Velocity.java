package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A velocity, owned by the mover groups. */
@Component
public record Velocity(float x, float y) {}
