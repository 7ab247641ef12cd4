package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;

/** A test component that a system expects only on entities with a parent in the hierarchy. */
@Component
public record Attachment(float offsetX, float offsetY) {}
