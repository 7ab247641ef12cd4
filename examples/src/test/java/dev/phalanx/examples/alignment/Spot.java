package dev.phalanx.examples.alignment;

import dev.phalanx.ecs.annotations.Component;

/** A position in small pages (8), so that a few hundred entities make many runs. */
@Component(pageSize = 8)
public record Spot(float x, float y) {}
