package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * Marks a comet head. Its tail particles are the sources of the {@link Attachment} relationship
 * that name it: the links live in the tail particles' components, and the registry's relation of
 * that kind lists each comet's tail.
 */
@Component
public final class Comet {}
