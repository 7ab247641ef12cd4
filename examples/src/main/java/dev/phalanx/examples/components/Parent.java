package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/**
 * A link to another entity; {@code Parent_Traits.ENTITY_REF_FIELDS} lists {@code entity} so that
 * snapshots can remap it.
 *
 * @param entity the parent entity's handle
 * @param depth how deep the child is in the hierarchy
 */
@Component
public record Parent(@EntityRef long entity, int depth) {}
