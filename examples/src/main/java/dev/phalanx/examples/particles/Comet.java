package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * Marks a comet head. Its tail particles are its children in the registry's {@link
 * dev.phalanx.ecs.hierarchy.Hierarchy}: the links live there, not in components.
 */
@Component
public final class Comet {}
