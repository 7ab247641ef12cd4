package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * Tag of frozen dust: particles that never move. The movers query excludes it, so frozen particles
 * are simply not in the owning group the movement system walks (no per-entity test, no branch). A
 * tag stores no payload: the generated storage is a sparse set and nothing else.
 */
@Component
public record Frozen() {}
