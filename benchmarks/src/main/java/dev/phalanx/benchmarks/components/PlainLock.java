package dev.phalanx.benchmarks.components;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.EntityRef;

/**
 * {@link Lock}'s fields as a plain component: the baseline of the relationship rows.
 *
 * @param enemy an entity reference
 * @param slot a payload word
 */
@Component
public record PlainLock(@EntityRef long enemy, int slot) {}
