/**
 * The Phalanx annotation processor. {@link dev.phalanx.ecs.processor.PhalanxProcessor} is the one
 * entry point for components and queries: {@code validation} checks each declaration and builds its
 * {@code model}, and {@code generation} writes the storage, cursor, traits and query classes from
 * those models.
 */
package dev.phalanx.ecs.processor;
