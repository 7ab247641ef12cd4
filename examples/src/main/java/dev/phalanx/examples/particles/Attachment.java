package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/**
 * The child side of the comet hierarchy: a tail particle that follows its parent at a fixed offset.
 *
 * <p>Stored with in-place deletion: removing an attachment leaves a tombstone instead of moving the
 * last element into the hole, so every other tail particle keeps its slot for its whole life while
 * comets die around it (a cursor or a saved position into this storage stays valid), and removing
 * other children while a view led by this storage is walked is allowed. The family itself is linked
 * by handles, not slots: handles stay right under any deletion policy, and a stale one is detected.
 *
 * @param parent the comet this particle belongs to
 * @param nextSibling the next child of the same comet, or {@code Entity.NULL}
 * @param offsetX horizontal offset from the parent
 * @param offsetY vertical offset from the parent
 */
@Component(inPlaceDelete = true)
public record Attachment(@EntityRef long parent, @EntityRef long nextSibling, float offsetX, float offsetY) {}
