package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A comet tail particle: a relationship whose target is its comet, which it follows at a fixed
 * offset. Destroying the comet destroys its tail ({@code DESTROY_SOURCES}): the registry's relation
 * of this kind keeps each comet's tail particles, so the lifetime system destroys a comet alone and
 * the tail goes with it.
 *
 * <p>Stored with in-place deletion: removing an attachment leaves a tombstone instead of moving the
 * last element into the hole, so every other tail particle keeps its slot for its whole life while
 * comets die around it (a cursor or a saved position into this storage stays valid), and removing
 * other tail particles while a view led by this storage is walked is allowed.
 *
 * @param comet the comet this particle belongs to, the relationship's target
 * @param offsetX horizontal offset from the comet
 * @param offsetY vertical offset from the comet
 */
@Component(inPlaceDelete = true)
@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.DESTROY_SOURCES)
public record Attachment(@EntityRef long comet, float offsetX, float offsetY) {}
