package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A turret's lock on an enemy: the lock goes when the enemy does. Tracked, so that in-place writes
 * stamp a tick and the relation still follows.
 *
 * @param enemy the enemy, the target
 * @param lockTime how long the lock has held
 */
@Component(tracked = true)
@Relationship
public record Targets(@EntityRef long enemy, float lockTime) {}
