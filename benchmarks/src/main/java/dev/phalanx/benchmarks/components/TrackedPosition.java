package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * Position with change tracking: the same fields as {@link Position}, plus a change tick per
 * element stamped by every write.
 *
 * @param x horizontal coordinate
 * @param y vertical coordinate
 */
@Component(tracked = true)
public record TrackedPosition(float x, float y) {}
