package dev.phalanx.ecs.inspector;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A test relationship kind: an owner that still owns something cannot be destroyed, and nothing
 * owns itself, even through others.
 *
 * @param owner the target
 */
@Component
@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.REFUSE, acyclic = true)
public record OwnedBy(@EntityRef long owner) {}
