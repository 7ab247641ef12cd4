package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * A position kept in an in-place (stable) storage: removals leave holes, nothing moves.
 *
 * @param x horizontal coordinate
 * @param y vertical coordinate
 */
@Component(inPlaceDelete = true)
public record StablePosition(float x, float y) {}
