package dev.phalanx.examples.particles;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/**
 * The parent side of the comet hierarchy: the head of an intrusive list of children, linked through
 * {@link Attachment#nextSibling()} (the "relationship" pattern of EnTT: no collection per entity,
 * only handles stored in components).
 *
 * @param firstChild the first child, or {@code Entity.NULL}
 * @param children how many children the list holds
 */
@Component
public record Comet(@EntityRef long firstChild, int children) {}
