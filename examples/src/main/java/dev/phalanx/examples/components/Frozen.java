package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;

/** A tag: no fields, so the generated storage keeps no payload. */
@Component
public record Frozen() {}
