/**
 * Generation: one generator per kind of file, each taking only a validated model. For a component,
 * {@link dev.phalanx.ecs.processor.generation.StorageGenerator}, {@link
 * dev.phalanx.ecs.processor.generation.CursorGenerator} and {@link
 * dev.phalanx.ecs.processor.generation.TraitsGenerator}; for a query, {@link
 * dev.phalanx.ecs.processor.generation.OwningGroupQueryGenerator}, {@link
 * dev.phalanx.ecs.processor.generation.NonOwningGroupQueryGenerator} and {@link
 * dev.phalanx.ecs.processor.generation.ViewQueryGenerator}. {@link
 * dev.phalanx.ecs.processor.generation.SourceFileGenerator} adds what every file carries, {@link
 * dev.phalanx.ecs.processor.generation.Names} holds every naming rule and {@link
 * dev.phalanx.ecs.processor.generation.RuntimeContract} every runtime name and protocol.
 */
package dev.phalanx.ecs.processor.generation;
