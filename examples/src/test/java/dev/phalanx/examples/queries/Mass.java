package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A mass: owned by the nested group, looked up by the non-owning one. */
@Component
public record Mass(float value) {}
