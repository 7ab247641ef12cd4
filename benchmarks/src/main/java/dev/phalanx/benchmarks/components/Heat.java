package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * A fourth float component (iterate5 adds 1 to it).
 *
 * @param value the value
 */
@Component
public record Heat(float value) {}
