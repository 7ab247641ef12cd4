package dev.phalanx.examples.queries;

import dev.phalanx.ecs.annotations.Component;

/**
 * An optional term whose storage deletes in place: a removal leaves a tombstone at its position.
 */
@Component(inPlaceDelete = true, pageSize = 8)
public record Trail(float length) {}
