package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * Where an entity is: stored as two paged {@code float} arrays by the generated {@code
 * Position_Storage}.
 *
 * @param x horizontal coordinate
 * @param y vertical coordinate
 */
@Component
public record Position(float x, float y) {}
