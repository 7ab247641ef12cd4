/**
 * The immutable models of validated declarations: names and JavaPoet types only, plus the
 * originating element every generated file records (for isolating incremental builds). Built by
 * {@code validation}, read by {@code generation}; a model exists only for a declaration that passed
 * every check. This package depends on no other package of the processor.
 *
 * <p>Costs: records and enums; a model holds a few strings and types per field.
 *
 * <p>Files:
 *
 * <ul>
 *   <li>{@link dev.phalanx.ecs.processor.model.ComponentModel}: a validated component.
 *   <li>{@link dev.phalanx.ecs.processor.model.FieldModel}: one stored field of a component.
 *   <li>{@link dev.phalanx.ecs.processor.model.Access}: how generated code reads or writes a field
 *       of an instance.
 *   <li>{@link dev.phalanx.ecs.processor.model.Construction}: how generated code builds an
 *       instance.
 *   <li>{@link dev.phalanx.ecs.processor.model.StorageKind}: how a storage keeps its payload.
 *   <li>{@link dev.phalanx.ecs.processor.model.QueryModel}: a validated query declaration.
 * </ul>
 */
package dev.phalanx.ecs.processor.model;
