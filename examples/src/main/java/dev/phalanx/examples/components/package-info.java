/**
 * Example component declarations, one per storage shape the processor generates: a record ({@link
 * dev.phalanx.examples.components.Position}), a mutable class ({@link
 * dev.phalanx.examples.components.Velocity}), every primitive type ({@link
 * dev.phalanx.examples.components.Primitives}), reference, enum and parameterized fields behind
 * accessors ({@link dev.phalanx.examples.components.Label}), an entity reference ({@link
 * dev.phalanx.examples.components.Parent}), a tag ({@link dev.phalanx.examples.components.Frozen}),
 * a field-less type whose instances are kept ({@link dev.phalanx.examples.components.Token}) and an
 * in-place deleted component with small pages ({@link dev.phalanx.examples.components.Slot}).
 */
package dev.phalanx.examples.components;
