package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A test relationship kind: a ship docked in a carrier goes with it.
 *
 * @param carrier the target
 * @param bay a value beside it
 */
@Component
@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.DESTROY_SOURCES)
public record Docked(@EntityRef long carrier, int bay) {}
