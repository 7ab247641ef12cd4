package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A tracked level, owned by {@link Charged}. */
@Component(tracked = true, pageSize = 8)
public record Charge(int level) {}
