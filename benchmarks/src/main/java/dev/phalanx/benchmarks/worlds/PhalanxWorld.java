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
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A Phalanx registry whose entities have the first {@code components} of Position, Velocity, Scale,
 * Heat, Age, in the generated struct-of-arrays storages (one paged {@code float[]} per field),
 * created one entity at a time with the storages' typed {@code emplace(e, x, y)}, as an application
 * would. The benchmarks build their views and groups on it ({@code View2Query.of(registry)}...).
 */
@State(Scope.Benchmark)
public abstract class PhalanxWorld {
  public int n;
  public Registry registry;
  public long[] entities;
  public Position_Storage positions;
  public Velocity_Storage velocities;
  public Scale_Storage scales;
  public Heat_Storage heats;
  public Age_Storage ages;
  private final int components;

  protected PhalanxWorld(final int components) {
    this.components = components;
  }

  @Setup(Level.Trial)
  public void setup(final BenchmarkParams params) {
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

  /** Returns a world of the first {@code components} components, set up for the benchmark. */
  public static PhalanxWorld of(final int components, final BenchmarkParams params) {
    final PhalanxWorld w =
        switch (components) {
          case 1 -> new With1();
          case 2 -> new With2();
          case 3 -> new With3();
          case 5 -> new With5();
          default -> throw new IllegalArgumentException("unknown arity " + components);
        };
    w.setup(params);
    return w;
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

  /** Entities with Position. */
  @State(Scope.Benchmark)
  public static class With1 extends PhalanxWorld {
    public With1() {
      super(1);
    }
  }

  /** Entities with Position and Velocity. */
  @State(Scope.Benchmark)
  public static class With2 extends PhalanxWorld {
    public With2() {
      super(2);
    }
  }

  /** Entities with Position, Velocity and Scale. */
  @State(Scope.Benchmark)
  public static class With3 extends PhalanxWorld {
    public With3() {
      super(3);
    }
  }

  /** Entities with all five components. */
  @State(Scope.Benchmark)
  public static class With5 extends PhalanxWorld {
    public With5() {
      super(5);
    }
  }
}
