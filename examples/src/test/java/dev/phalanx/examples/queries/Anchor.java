package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** An in-place component: it cannot be owned, so it is used by the view and listed as get. */
@Component(inPlaceDelete = true)
public record Anchor(int id) {}
