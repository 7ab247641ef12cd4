package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A tag that only some entities have: an optional tag comes to a visitor as a boolean. */
@Component
public record Marked() {}
