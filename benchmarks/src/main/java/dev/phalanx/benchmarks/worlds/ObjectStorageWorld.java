package dev.phalanx.benchmarks.worlds;

import static dev.phalanx.benchmarks.worlds.PhalanxTypes.AGE;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.HEAT;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.POSITION;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.SCALE;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.VELOCITY;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View;
import java.util.function.LongConsumer;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The "Phalanx, object storage" world: a registry whose entities have the first {@code components}
 * of Position, Velocity, Scale, Heat, Age (object storages), created one entity at a time as an
 * application would.
 */
public final class ObjectStorageWorld {
  public int n;
  public Registry registry;
  public long[] entities;
  public ObjectStorage<Position> positions;
  public ObjectStorage<Velocity> velocities;
  public ObjectStorage<Scale> scales;
  public ObjectStorage<Heat> heats;
  public ObjectStorage<Age> ages;

  /** The view of the world's components, and the system doing the work of {@link Work} on it. */
  public View view;

  public LongConsumer move;
  private final int components;

  public ObjectStorageWorld(final int components, final BenchmarkParams params) {
    this.components = components;
    n = Sizes.entities(params);
    registry = new Registry();
    positions = registry.storage(POSITION);
    velocities = registry.storage(VELOCITY);
    scales = registry.storage(SCALE);
    heats = registry.storage(HEAT);
    ages = registry.storage(AGE);
    entities = new long[n];
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      entities[i] = e;
      populate(registry, e, i, components);
    }
    switch (components) {
      case 1:
        view = registry.view(POSITION);
        move = PhalanxSystems.move1(positions);
        break;
      case 2:
        view = registry.view(POSITION, VELOCITY);
        move = PhalanxSystems.move2(positions, velocities);
        break;
      case 3:
        view = registry.view(POSITION, VELOCITY, SCALE);
        move = PhalanxSystems.move3(positions, velocities, scales);
        break;
      default:
        view =
            registry.view(
                new ComponentType<?, ?>[] {POSITION, VELOCITY, SCALE, HEAT, AGE},
                new ComponentType<?, ?>[0]);
        move = PhalanxSystems.move5(positions, velocities, scales, heats, ages);
        break;
    }
  }

  /** Gives entity {@code e} (the {@code i}-th) the first {@code count} components. */
  public static void populate(final Registry registry, final long e, final int i, final int count) {
    final Position p = new Position();
    p.x = Work.x(i);
    p.y = Work.x(i);
    registry.emplace(e, POSITION, p);
    if (count >= 2) {
      final Velocity v = new Velocity();
      v.x = Work.v(i);
      v.y = Work.v(i);
      registry.emplace(e, VELOCITY, v);
    }
    if (count >= 3) {
      registry.emplace(e, SCALE, new Scale());
    }
    if (count >= 4) {
      registry.emplace(e, HEAT, new Heat());
    }
    if (count >= 5) {
      registry.emplace(e, AGE, new Age());
    }
  }
}
