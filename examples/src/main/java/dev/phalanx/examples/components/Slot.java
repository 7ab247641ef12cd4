package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;

/**
 * An in-place deleted component with 8-element pages: elements never move while they live, removals
 * leave holes that later insertions reuse.
 *
 * @param value a number
 * @param name a name
 */
@Component(inPlaceDelete = true, pageSize = 8)
public record Slot(int value, String name) {}
