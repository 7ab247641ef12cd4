package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;

/** A test component: a record of two floats. */
@Component
public record Velocity(float dx, float dy) {}
