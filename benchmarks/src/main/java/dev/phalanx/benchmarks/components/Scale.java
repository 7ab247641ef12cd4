package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * A third float component (iterate3 and iterate5 scale the velocity by it).
 *
 * @param s the factor (1 in every world)
 */
@Component
public record Scale(float s) {}
