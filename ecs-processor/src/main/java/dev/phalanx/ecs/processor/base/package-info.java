/**
 * What validation and generation share: the rules that name generated classes and members, the
 * report every diagnostic goes through, and the contract with the runtime (every runtime class and
 * member generated code names). A validator checks a declaration against the same names the
 * generators will write, so both read them from here; this package depends on no other package of
 * the processor.
 *
 * <p>Costs: constants and string-building helpers only; a report keeps its diagnostics until they
 * are printed once.
 *
 * <p>Files:
 *
 * <ul>
 *   <li>{@link dev.phalanx.ecs.processor.base.Names}: every naming rule of generated classes and
 *       members, and which member names are taken.
 *   <li>{@link dev.phalanx.ecs.processor.base.RuntimeContract}: every runtime class and member
 *       generated code uses, and the members generated storages and cursors inherit.
 *   <li>{@link dev.phalanx.ecs.processor.base.ValidationReport}: the coded diagnostics of one
 *       declaration, placed on the most specific element and printed once.
 * </ul>
 */
package dev.phalanx.ecs.processor.base;
