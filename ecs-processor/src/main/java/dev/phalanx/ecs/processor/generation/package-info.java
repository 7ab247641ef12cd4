/**
 * Generation: one generator per kind of output ({@link
 * dev.phalanx.ecs.processor.generation.StorageGenerator}, {@link
 * dev.phalanx.ecs.processor.generation.CursorGenerator}, {@link
 * dev.phalanx.ecs.processor.generation.TraitsGenerator}), each taking only a validated {@link
 * dev.phalanx.ecs.processor.model.ComponentModel}. {@link
 * dev.phalanx.ecs.processor.generation.SourceFileGenerator} adds what every file carries, and {@link
 * dev.phalanx.ecs.processor.generation.Names} holds every naming rule.
 */
package dev.phalanx.ecs.processor.generation;
