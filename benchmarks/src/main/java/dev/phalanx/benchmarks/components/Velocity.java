package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * How fast an entity moves.
 *
 * @param x horizontal speed
 * @param y vertical speed
 */
@Component
public record Velocity(float x, float y) {}
