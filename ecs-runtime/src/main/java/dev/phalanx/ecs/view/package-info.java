/**
 * Views: iterations over the entities that have every included component and no excluded one,
 * computed on the fly by walking the smallest set and looking the others up. {@link
 * dev.phalanx.ecs.view.View} documents what may change during an iteration.
 */
package dev.phalanx.ecs.view;
