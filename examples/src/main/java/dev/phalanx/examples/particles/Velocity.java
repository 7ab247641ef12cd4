package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * How fast a particle moves, in world units per second.
 *
 * @param dx horizontal speed
 * @param dy vertical speed
 */
@Component
public record Velocity(float dx, float dy) {}
