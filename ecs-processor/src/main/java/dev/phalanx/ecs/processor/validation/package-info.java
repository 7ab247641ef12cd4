/**
 * Validation: {@link dev.phalanx.ecs.processor.validation.ComponentValidator} checks an
 * {@code @Component} class and {@link dev.phalanx.ecs.processor.validation.QueryValidator} a
 * {@code @GroupQuery} or {@code @ViewQuery} declaration, each building its model; every diagnostic
 * goes into a {@link dev.phalanx.ecs.processor.validation.ValidationReport}, with a code and text
 * from {@link dev.phalanx.ecs.processor.validation.Diagnostics} or {@link
 * dev.phalanx.ecs.processor.validation.QueryDiagnostics}, placed on the most specific element.
 */
package dev.phalanx.ecs.processor.validation;
