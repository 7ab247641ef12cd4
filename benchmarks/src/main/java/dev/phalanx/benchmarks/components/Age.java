package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * A fifth float component (iterate5 adds 1 to it).
 *
 * @param value the value
 */
@Component
public record Age(float value) {}
