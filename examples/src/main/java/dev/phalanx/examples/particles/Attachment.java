package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/**
 * The child side of the comet hierarchy: a tail particle that follows its parent at a fixed offset.
 *
 * <p>Stored with in-place deletion: removing an attachment leaves a tombstone instead of moving the
 * last element into the hole, so the slots (and the handles in them) of every other child stay
 * where they are. The lifetime system relies on it when it tears down a family: it reads a child's
 * {@code nextSibling}, destroys the child, and the next child's slot is still the one it read. The
 * follow view, led by this storage, skips the tombstones.
 *
 * @param parent the comet this particle belongs to
 * @param nextSibling the next child of the same comet, or {@code Entity.NULL}
 * @param offsetX horizontal offset from the parent
 * @param offsetY vertical offset from the parent
 */
@Component(inPlaceDelete = true)
public record Attachment(@EntityRef long parent, @EntityRef long nextSibling, float offsetX, float offsetY) {}
