package app

import dev.phalanx.ecs.annotations.Component

/** A field type no storage can hold: Java cannot create arrays of a parameterized type. */
@Component
class Lists {
  @JvmField
  var lists: Array<List<String>> = emptyArray()
}

/** A value class is a float in the bytecode, reached through a mangled getter only. */
@JvmInline value class Meters(val value: Float)

@Component
data class Range(val reach: Meters)
