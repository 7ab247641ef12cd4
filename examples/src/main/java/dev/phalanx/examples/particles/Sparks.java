package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.ViewQuery;

/**
 * Glowing particles, for the renderer: a view of {@link Position} and the {@link Glowing} tag. A
 * tag has no fields, so the generated {@code SparksQuery} passes no cursor for it.
 */
@ViewQuery(include = {Position.class, Glowing.class})
public interface Sparks {}
