package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A relationship kind (a turret's lock on an enemy), removed when the enemy is destroyed.
 *
 * @param enemy the target
 * @param slot a payload word
 */
@Component
@Relationship
public record Lock(@EntityRef long enemy, int slot) {}
