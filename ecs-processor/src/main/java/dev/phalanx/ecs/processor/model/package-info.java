/**
 * The immutable models of validated declarations ({@link
 * dev.phalanx.ecs.processor.model.ComponentModel}, {@link
 * dev.phalanx.ecs.processor.model.QueryModel}): names and JavaPoet types only, plus the originating
 * element that every generated file records (for isolating incremental builds). Built by the
 * validation phase, read by the generation phase.
 */
package dev.phalanx.ecs.processor.model;
