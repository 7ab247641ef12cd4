package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.ecs.ObjectStorage;
import java.util.function.LongConsumer;

/**
 * The per-entity work of {@link Work} as Phalanx view callbacks: the view hands over an entity and
 * the callback reads its components from the storages (today's object storages: {@code get}). They
 * are built once per world, as a game would build its systems.
 */
public final class PhalanxSystems {

  private PhalanxSystems() {}

  /** iterate1. */
  public static LongConsumer move1(final ObjectStorage<Position> positions) {
    return e -> positions.get(e).x += 1f;
  }

  /** iterate2. */
  public static LongConsumer move2(
      final ObjectStorage<Position> positions, final ObjectStorage<Velocity> velocities) {
    return e -> {
      final Position p = positions.get(e);
      final Velocity v = velocities.get(e);
      p.x += v.x * Work.DT;
      p.y += v.y * Work.DT;
    };
  }

  /** iterate3. */
  public static LongConsumer move3(
      final ObjectStorage<Position> positions,
      final ObjectStorage<Velocity> velocities,
      final ObjectStorage<Scale> scales) {
    return e -> {
      final Position p = positions.get(e);
      final Velocity v = velocities.get(e);
      final float s = scales.get(e).s * Work.DT;
      p.x += v.x * s;
      p.y += v.y * s;
    };
  }

  /** iterate5. */
  public static LongConsumer move5(
      final ObjectStorage<Position> positions,
      final ObjectStorage<Velocity> velocities,
      final ObjectStorage<Scale> scales,
      final ObjectStorage<Heat> heats,
      final ObjectStorage<Age> ages) {
    return e -> {
      final Position p = positions.get(e);
      final Velocity v = velocities.get(e);
      final float s = scales.get(e).s * Work.DT;
      p.x += v.x * s;
      p.y += v.y * s;
      heats.get(e).value += 1f;
      ages.get(e).value += 1f;
    };
  }
}
