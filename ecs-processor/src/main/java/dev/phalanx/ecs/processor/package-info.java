/**
 * The Phalanx annotation processor: turns {@code @Component} classes and
 * {@code @GroupQuery}/{@code @ViewQuery} declarations into ordinary Java source at compile time,
 * one pipeline for both.
 *
 * <p>Each round it validates every declaration once ({@code validation}, into a {@code model}),
 * then hands each valid model to the generators that apply to it ({@code generation}); what both
 * phases share (naming rules, diagnostics reports, the contract with the runtime) is in {@code
 * base}. The packages depend one way only: this one on all, {@code validation} and {@code
 * generation} on {@code model} and {@code base}, never on each other; {@code model} and {@code
 * base} on no other package of the processor ({@code ProcessorPackagesTest} checks it).
 *
 * <p>Costs: compile time only, nothing at run time. Validation is linear in the members of each
 * declaration, and a component is validated once per round however many queries list it; generation
 * writes a fixed number of files per declaration (three per component, one per query), each linear
 * in its fields. The processor keeps per-round caches only, and is isolating for Gradle's
 * incremental builds.
 *
 * <p>Files:
 *
 * <ul>
 *   <li>{@link dev.phalanx.ecs.processor.PhalanxProcessor}: the entry point; the round loop,
 *       deferral of unresolved declarations, cross-declaration checks.
 *   <li>{@code LocalDeclarations}: reports the annotations on local classes, which javac never
 *       hands to a processor.
 * </ul>
 */
package dev.phalanx.ecs.processor;
