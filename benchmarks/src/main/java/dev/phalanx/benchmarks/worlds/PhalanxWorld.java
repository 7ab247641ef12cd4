package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Age_Storage;
import dev.phalanx.benchmarks.components.Age_Traits;
import dev.phalanx.benchmarks.components.Heat_Storage;
import dev.phalanx.benchmarks.components.Heat_Traits;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Scale_Storage;
import dev.phalanx.benchmarks.components.Scale_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A Phalanx registry whose entities have the first {@code components} of Position, Velocity, Scale,
 * Heat, Age, in the generated struct-of-arrays storages (one paged {@code float[]} per field),
 * created one entity at a time with the storages' typed {@code emplace(e, x, y)}, as an application
 * would. The benchmarks build their views and groups on it ({@code View2Query.of(registry)}...).
 */
public final class PhalanxWorld {
  public int n;
  public Registry registry;
  public long[] entities;
  public Position_Storage positions;
  public Velocity_Storage velocities;
  public Scale_Storage scales;
  public Heat_Storage heats;
  public Age_Storage ages;
  private final int components;

  public PhalanxWorld(final int components, final BenchmarkParams params) {
    this.components = components;
    n = Sizes.entities(params);
    registry = new Registry();
    positions = registry.storage(Position_Traits.TYPE);
    velocities = registry.storage(Velocity_Traits.TYPE);
    scales = registry.storage(Scale_Traits.TYPE);
    heats = registry.storage(Heat_Traits.TYPE);
    ages = registry.storage(Age_Traits.TYPE);
    entities = new long[n];
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      entities[i] = e;
      populate(e, i, components);
    }
  }

  /** {@return how many of Position, Velocity, Scale, Heat, Age every entity has} */
  public int components() {
    return components;
  }

  /** Gives entity {@code e} (the {@code i}-th) the first {@code count} components. */
  public void populate(final long e, final int i, final int count) {
    positions.emplace(e, Work.x(i), Work.x(i));
    if (count >= 2) {
      velocities.emplace(e, Work.v(i), Work.v(i));
    }
    if (count >= 3) {
      scales.emplace(e, 1f);
    }
    if (count >= 4) {
      heats.emplace(e, 0f);
    }
    if (count >= 5) {
      ages.emplace(e, 0f);
    }
  }
}
