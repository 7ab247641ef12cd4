package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/** A push that only some entities have: the optional term of the queries that follow it. */
@Component(tracked = true, pageSize = 8)
public record Boost(float x, float y) {}
