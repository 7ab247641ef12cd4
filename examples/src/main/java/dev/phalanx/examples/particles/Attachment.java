package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;

/**
 * A comet tail particle: it follows its parent (its parent in the registry's {@link
 * dev.phalanx.ecs.hierarchy.Hierarchy}) at a fixed offset.
 *
 * <p>Stored with in-place deletion: removing an attachment leaves a tombstone instead of moving the
 * last element into the hole, so every other tail particle keeps its slot for its whole life while
 * comets die around it (a cursor or a saved position into this storage stays valid), and removing
 * other children while a view led by this storage is walked is allowed.
 *
 * @param offsetX horizontal offset from the parent
 * @param offsetY vertical offset from the parent
 */
@Component(inPlaceDelete = true)
public record Attachment(float offsetX, float offsetY) {}
