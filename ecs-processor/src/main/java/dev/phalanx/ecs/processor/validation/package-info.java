/**
 * Validation: checks each declaration against what the generated code will need and builds its
 * model. Every problem goes into a {@link dev.phalanx.ecs.processor.base.ValidationReport} with a
 * stable code and a text that says the fix, placed on the most specific element, and every check
 * runs so that all problems of a declaration surface in one compilation. It depends on {@code
 * model} and {@code base} only, never on {@code generation}.
 *
 * <p>Costs: linear in the members of a declaration (and, for a component, of its supertypes); the
 * processor validates each component once per round.
 *
 * <p>Files:
 *
 * <ul>
 *   <li>{@link dev.phalanx.ecs.processor.validation.ComponentValidator}: checks a
 *       {@code @Component} class and builds its {@code ComponentModel}.
 *   <li>{@link dev.phalanx.ecs.processor.validation.QueryValidator}: checks a {@code @GroupQuery}
 *       or {@code @ViewQuery} declaration and builds its {@code QueryModel}.
 *   <li>{@link dev.phalanx.ecs.processor.validation.Diagnostics}: every message about components,
 *       each with its code and fix.
 *   <li>{@link dev.phalanx.ecs.processor.validation.QueryDiagnostics}: every message about queries,
 *       each with its code and fix.
 * </ul>
 */
package dev.phalanx.ecs.processor.validation;
