package dev.phalanx.examples.relations;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.Relationship;

/**
 * A pair kind declared by annotation: an entity trusts any number of others, and whoever trusts an
 * entity that is destroyed goes with it. Acyclic: trust never comes back to where it started.
 */
@Component
@Relationship(onTargetDestroyed = Relationship.OnTargetDestroyed.DESTROY_SOURCES, acyclic = true)
public record Trusts() {}
