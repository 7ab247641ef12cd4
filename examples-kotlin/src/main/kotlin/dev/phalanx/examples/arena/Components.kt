package dev.phalanx.examples.arena

import dev.phalanx.ecs.annotations.Component

// Components written in Kotlin. The processor sees the Java stubs kapt makes of them: a `val` is a
// private final field with a getter, and the primary constructor takes every field in order, so
// the storage reads through the getters and builds instances with the constructor.

/** Where an entity is, in arena units: a data class. */
@Component data class Position(val x: Float, val y: Float)

/** How far an entity moves per second: a data class. */
@Component data class Velocity(val dx: Float, val dy: Float)

/**
 * Hit points: a plain class with mutable public fields (`@JvmField var`) and no constructor
 * parameters, which the storage builds with the no-argument constructor and fills field by field.
 */
@Component
class Health {
  @JvmField var hp: Int = 0
  @JvmField var max: Int = 0
}

/** A display name; the nullable reference field is stored as an object column. */
@Component data class Name(val text: String?)

/** Tags: classes without fields, which the processor stores as membership only. */
@Component class Player

@Component class Monster

@Component class Asleep
