package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * A 2D position. Generated: {@code Position_Storage} (two {@code float[][]} page arrays), {@code
 * Position_Cursor} and {@code Position_Traits}.
 *
 * @param x the horizontal coordinate
 * @param y the vertical coordinate
 */
@Component
public record Position(float x, float y) {}
