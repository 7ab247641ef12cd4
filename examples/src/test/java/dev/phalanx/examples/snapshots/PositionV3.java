package dev.phalanx.examples.snapshots;

import dev.phalanx.ecs.annotations.Component;

/**
 * A later version of {@code Position} that dropped {@code y} and gained {@code extra}: old
 * snapshots load with {@code y} skipped and {@code extra} at its default.
 *
 * @param extra a new field
 * @param x the same field
 */
@Component
public record PositionV3(int extra, float x) {}
