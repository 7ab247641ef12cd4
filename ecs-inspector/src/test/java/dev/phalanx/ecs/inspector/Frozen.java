package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;

/** A test tag: no fields, no payload. */
@Component
public record Frozen() {}
