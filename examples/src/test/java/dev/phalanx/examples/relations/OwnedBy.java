package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * An item owned by a player (or by another item, a bag): an owner who still owns items cannot be
 * destroyed, and nothing owns itself, even through others.
 *
 * @param owner the owner, the target
 */
@Component(inPlaceDelete = true)
@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.REFUSE, acyclic = true)
public record OwnedBy(@EntityRef long owner) {}
