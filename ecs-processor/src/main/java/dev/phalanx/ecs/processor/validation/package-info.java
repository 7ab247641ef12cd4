/**
 * Validation: {@link dev.phalanx.ecs.processor.validation.ComponentValidator} checks an
 * {@code @Component} class and builds its model; problems go into a {@link
 * dev.phalanx.ecs.processor.validation.ValidationReport}, each with a code and text from {@link
 * dev.phalanx.ecs.processor.validation.Diagnostics}, placed on the most specific element.
 */
package dev.phalanx.ecs.processor.validation;
