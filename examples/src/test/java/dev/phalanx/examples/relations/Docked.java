package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A ship docked in a carrier: destroying the carrier destroys what is docked in it, and so on.
 *
 * @param carrier the carrier, the target
 * @param bay the bay it occupies
 */
@Component
@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.DESTROY_SOURCES)
public record Docked(@EntityRef long carrier, int bay) {}
