package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * Tag of sparks: particles that the renderer draws brighter, found through the {@link Sparks} view.
 * No payload is stored.
 */
@Component
public record Glowing() {}
