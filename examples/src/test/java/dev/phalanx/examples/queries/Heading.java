package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/**
 * A direction, included by {@link Steered} and {@link SteeredMembers}: its small pages, the size of
 * {@link Boost}'s and {@link Trail}'s, let their optional cursors walk its runs.
 */
@Component(pageSize = 8)
public record Heading(float angle) {}
