package dev.phalanx.examples.arena

import dev.phalanx.ecs.Registry
import dev.phalanx.ecs.schedule.Schedule
import kotlin.math.abs

/** What an entity is, told by its tags. */
enum class Kind {
  PLAYER,
  MONSTER,
  PROP,
}

/** The tag `when` looks for: the first one an entity has decides its kind. */
fun Registry.kindOf(entity: Long): Kind =
    when {
      has(entity, Player_Traits.TYPE) -> Kind.PLAYER
      has(entity, Monster_Traits.TYPE) -> Kind.MONSTER
      else -> Kind.PROP
    }

/** The typed position storage of this registry. */
val Registry.positions: Position_Storage
  get() = storage(Position_Traits.TYPE)

/** The typed velocity storage of this registry. */
val Registry.velocities: Velocity_Storage
  get() = storage(Velocity_Traits.TYPE)

/** The typed health storage of this registry. */
val Registry.healths: Health_Storage
  get() = storage(Health_Traits.TYPE)

/**
 * Creates an entity of `kind` at (`x`, `y`) moving by (`dx`, `dy`) per second, with `hp` hit points
 * unless it is a prop, and returns it.
 */
fun Registry.spawn(kind: Kind, x: Float, y: Float, dx: Float, dy: Float, hp: Int = 10): Long {
  val entity = create()
  positions.emplace(entity, x, y) // no Position object is allocated
  velocities.emplace(entity, dx, dy)
  when (kind) {
    Kind.PLAYER -> storage(Player_Traits.TYPE).emplace(entity)
    Kind.MONSTER -> storage(Monster_Traits.TYPE).emplace(entity)
    Kind.PROP -> return entity
  }
  healths.emplace(entity, hp, hp)
  return entity
}

/** Where the hazard zone ends: an entity with `|x|` below it loses a hit point each frame. */
const val HAZARD = 8f

/**
 * Builds one frame of the arena: "move" advances every awake mover by its velocity times `dt` over
 * the group's arrays, then "burn" takes a hit point from every entity with health in the hazard
 * zone, through cursors.
 */
fun arenaFrame(registry: Registry, dt: Float): Schedule {
  val moving = MovingQuery.of(registry) // declare groups before build()
  val targets = TargetsQuery.of(registry)
  val plan = Schedule.builder(registry)
  plan
      .system("move") {
        moving.eachChunk { from, to, x, y, dx, dy ->
          for (i in from until to) {
            x[i] += dx[i] * dt
            y[i] += dy[i] * dt
          }
        }
      }
      .uses(moving)
  plan
      .system("burn") {
        targets.each { _, position, health ->
          if (abs(position.x()) < HAZARD && health.hp() > 0) {
            health.setHp(health.hp() - 1)
          }
        }
      }
      .uses(targets)
      .after("move")
  return plan.build()
}
