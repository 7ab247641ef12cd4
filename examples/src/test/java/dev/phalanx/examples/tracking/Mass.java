package dev.phalanx.examples.tracking;

import dev.phalanx.ecs.annotations.Component;

/**
 * An untracked component next to the tracked one.
 *
 * @param kilograms the mass
 */
@Component
public record Mass(float kilograms) {}
