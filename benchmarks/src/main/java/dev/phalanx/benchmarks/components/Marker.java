package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * A small component added and removed by the structural workloads.
 *
 * @param value a payload (an int, as the peers' Marker)
 */
@Component
public record Marker(int value) {}
