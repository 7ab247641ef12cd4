package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;

/** The tag of a non-exclusive relationship kind: the pair benchmarks' {@code (Follows, leader)}. */
@Component
public final class Follows {}
