package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * Where a particle is, in world units ({@code [0, World.SIZE)} on both axes, wrapping around).
 *
 * <p>The processor turns this record into {@code Position_Storage}, which keeps {@code x} and
 * {@code y} in two paged {@code float} arrays: no {@code Position} object exists per entity.
 *
 * @param x horizontal coordinate
 * @param y vertical coordinate
 */
@Component
public record Position(float x, float y) {}
