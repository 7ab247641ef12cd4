/**
 * The Phalanx annotation processor. {@link dev.phalanx.ecs.processor.PhalanxProcessor} is the entry
 * point; {@code validation} checks each {@code @Component} and builds its {@code model}, and
 * {@code generation} writes the storage, cursor and traits classes from that model.
 */
package dev.phalanx.ecs.processor;
