package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A component owned by a partial-owning group ({@link Spinning}). */
@Component
public record Spin(float rate) {}
