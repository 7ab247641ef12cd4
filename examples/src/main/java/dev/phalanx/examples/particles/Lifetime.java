package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * How many more frames a root entity (a particle or a comet) lives. When it reaches zero the
 * lifetime system destroys the entity and the spawner creates a new one in its place.
 *
 * @param ticks frames left
 */
@Component
public record Lifetime(int ticks) {}
