package dev.phalanx.examples.snapshots;

import dev.phalanx.ecs.annotations.Component;

/**
 * A later version of {@code Position} whose {@code y} changed type: loading an old snapshot into it
 * is refused.
 *
 * @param x the same field
 * @param y now a double
 */
@Component
public record PositionV2(float x, double y) {}
