package dev.phalanx.examples.arena

import dev.phalanx.ecs.Registry
import dev.phalanx.ecs.snapshot.SnapshotDump
import dev.phalanx.ecs.snapshot.SnapshotLoader
import dev.phalanx.ecs.snapshot.SnapshotWriter
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream
import java.util.SplittableRandom
import kotlin.math.abs
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test

/** The arena written in Kotlin, against a plain model of the same rules. */
class ArenaTest {

  /** One entity of the plain model: what the registry should hold for it. */
  private class Plain(
      val entity: Long,
      val kind: Kind,
      val asleep: Boolean,
      var x: Float,
      var y: Float,
      val dx: Float,
      val dy: Float,
      var hp: Int,
  )

  private fun randomArena(seed: Long, count: Int): Pair<Registry, List<Plain>> {
    val random = SplittableRandom(seed)
    val registry = Registry()
    val model =
        List(count) {
          val kind = Kind.entries[random.nextInt(Kind.entries.size)]
          val x = random.nextInt(-40, 40).toFloat()
          val y = random.nextInt(-40, 40).toFloat()
          val dx = random.nextInt(-20, 20) * 0.25f
          val dy = random.nextInt(-20, 20) * 0.25f
          val hp = random.nextInt(1, 30)
          val entity = registry.spawn(kind, x, y, dx, dy, hp)
          val asleep = random.nextInt(4) == 0
          if (asleep) registry.storage(Asleep_Traits.TYPE).emplace(entity)
          Plain(entity, kind, asleep, x, y, dx, dy, if (kind == Kind.PROP) -1 else hp)
        }
    // Destroy some, so that the group and the view run over storages with holes and moved members.
    val (destroyed, survivors) = model.partition { random.nextInt(5) == 0 }
    destroyed.forEach { registry.destroy(it.entity) }
    return registry to survivors
  }

  /** The frame of `arenaFrame` on the plain model, in the same float arithmetic. */
  private fun Plain.step(dt: Float) {
    if (!asleep) {
      x += dx * dt
      y += dy * dt
    }
    if (hp >= 0 && abs(x) < HAZARD && hp > 0) hp--
  }

  @Test
  fun framesOfTheScheduleMatchThePlainModel() {
    for (seed in 1L..5L) {
      val (registry, model) = randomArena(seed, 500)
      val frame = arenaFrame(registry, dt = 1f / 8f)
      repeat(60) {
        frame.run()
        model.forEach { it.step(1f / 8f) }
      }
      assertEquals(model.size, registry.entities().alive(), "seed $seed")
      for (plain in model) {
        val position = registry.get(plain.entity, Position_Traits.TYPE)
        assertEquals(Position(plain.x, plain.y), position, "seed $seed, entity ${plain.entity}")
        assertEquals(plain.kind, registry.kindOf(plain.entity))
        if (plain.kind != Kind.PROP) {
          assertEquals(plain.hp, registry.healths.hp(plain.entity), "seed $seed")
        }
      }
      assertEquals(listOf<String>(), registry.verify())
    }
  }

  @Test
  fun aSnapshotRoundTripGivesEqualComponents() {
    val (original, model) = randomArena(7, 300)
    val names = original.storage(Name_Traits.TYPE)
    model.forEachIndexed { i, plain ->
      if (i % 3 == 0) names.emplace(plain.entity, Name(if (i % 2 == 0) "unit $i" else null))
    }
    arenaFrame(original, 0.5f).run()

    val bytes = ByteArrayOutputStream().also { SnapshotWriter(original).write(it) }.toByteArray()
    val loaded = Registry()
    SnapshotLoader(loaded)
        .types(
            Position_Traits.TYPE,
            Velocity_Traits.TYPE,
            Health_Traits.TYPE,
            Name_Traits.TYPE,
            Player_Traits.TYPE,
            Monster_Traits.TYPE,
            Asleep_Traits.TYPE,
        )
        .load(ByteArrayInputStream(bytes))

    assertEquals(listOf<String>(), loaded.verify())
    for (plain in model) {
      val e = plain.entity
      // Data classes compare by value: the loaded instances equal the saved ones.
      assertEquals(original.get(e, Position_Traits.TYPE), loaded.get(e, Position_Traits.TYPE))
      assertEquals(original.get(e, Velocity_Traits.TYPE), loaded.get(e, Velocity_Traits.TYPE))
      assertEquals(original.tryGet(e, Name_Traits.TYPE), loaded.tryGet(e, Name_Traits.TYPE))
      assertEquals(original.kindOf(e), loaded.kindOf(e))
      assertEquals(original.has(e, Asleep_Traits.TYPE), loaded.has(e, Asleep_Traits.TYPE))
    }
    assertEquals(dump(original), dump(loaded))
    val again = ByteArrayOutputStream().also { SnapshotWriter(loaded).write(it) }.toByteArray()
    assertArrayEquals(bytes, again, "saving the loaded world gives the same bytes")
    // Both worlds go on alike.
    arenaFrame(original, 0.5f).run()
    arenaFrame(loaded, 0.5f).run()
    assertEquals(dump(original), dump(loaded))
  }

  private fun dump(registry: Registry): String = buildString { SnapshotDump.write(registry, this) }

  @Test
  fun dataClassesPlainClassesAndNullsComeBackAsWritten() {
    val registry = Registry()
    val e = registry.create()
    registry.positions.emplace(e, Position(1f, 2f))
    // copy() makes a new instance; the storage keeps fields, not the instance.
    registry.positions.replace(e, registry.get(e, Position_Traits.TYPE).copy(y = 5f))
    assertEquals(Position(1f, 5f), registry.get(e, Position_Traits.TYPE))
    assertEquals(5f, registry.positions.y(e))

    registry.healths.emplace(e, Health().apply { hp = 3; max = 9 })
    val health = registry.get(e, Health_Traits.TYPE)
    assertEquals(3, health.hp)
    assertEquals(9, health.max)

    registry.storage(Name_Traits.TYPE).emplace(e, Name(null))
    assertNull(registry.get(e, Name_Traits.TYPE).text)
    assertEquals(Kind.PROP, registry.kindOf(e))
    assertEquals(listOf<String>(), registry.verify())
  }
}
