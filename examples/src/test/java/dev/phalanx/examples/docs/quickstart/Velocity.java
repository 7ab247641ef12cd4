package dev.phalanx.examples.docs.quickstart;

import dev.phalanx.ecs.annotations.Component;

/** A velocity, in units per second. */
@Component
public record Velocity(float dx, float dy) {}
