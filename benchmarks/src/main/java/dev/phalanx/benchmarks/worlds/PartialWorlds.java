package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.Owns3Of5_Age_Storage;
import dev.phalanx.benchmarks.queries.Owns3Of5_Age_Traits;
import dev.phalanx.benchmarks.queries.Owns3Of5_GroupQuery;
import dev.phalanx.benchmarks.queries.Owns3Of5_Heat_Storage;
import dev.phalanx.benchmarks.queries.Owns3Of5_Heat_Traits;
import dev.phalanx.benchmarks.queries.Owns3Of5_Position_Storage;
import dev.phalanx.benchmarks.queries.Owns3Of5_Position_Traits;
import dev.phalanx.benchmarks.queries.Owns3Of5_Scale_Storage;
import dev.phalanx.benchmarks.queries.Owns3Of5_Scale_Traits;
import dev.phalanx.benchmarks.queries.Owns3Of5_Velocity_Storage;
import dev.phalanx.benchmarks.queries.Owns3Of5_Velocity_Traits;
import dev.phalanx.benchmarks.queries.Owns4Of5_Age_Storage;
import dev.phalanx.benchmarks.queries.Owns4Of5_Age_Traits;
import dev.phalanx.benchmarks.queries.Owns4Of5_GroupQuery;
import dev.phalanx.benchmarks.queries.Owns4Of5_Heat_Storage;
import dev.phalanx.benchmarks.queries.Owns4Of5_Heat_Traits;
import dev.phalanx.benchmarks.queries.Owns4Of5_Position_Storage;
import dev.phalanx.benchmarks.queries.Owns4Of5_Position_Traits;
import dev.phalanx.benchmarks.queries.Owns4Of5_Scale_Storage;
import dev.phalanx.benchmarks.queries.Owns4Of5_Scale_Traits;
import dev.phalanx.benchmarks.queries.Owns4Of5_Velocity_Storage;
import dev.phalanx.benchmarks.queries.Owns4Of5_Velocity_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Age_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Age_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Heat_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Heat_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Position_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Position_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Scale_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Scale_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Velocity_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Velocity_Traits;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Worlds for the partial-owning groups, over the component copies of {@code OwnsPosition}, {@code
 * Owns3Of5} and {@code Owns4Of5} (same fields and generated storages as the main components; other
 * keys, since these groups are not nested with the full-owning family). Same entities and values as
 * {@link PhalanxWorld}.
 */
public final class PartialWorlds {

  private PartialWorlds() {}

  /** Entities with the first {@code components} of OwnsPosition's five components. */
  @State(Scope.Benchmark)
  public abstract static class OwnsPosition {
    public int n;
    public Registry registry;
    public OwnsPosition_Position_Storage positions;
    public OwnsPosition_Velocity_Storage velocities;
    public OwnsPosition_Scale_Storage scales;
    public OwnsPosition_Heat_Storage heats;
    public OwnsPosition_Age_Storage ages;
    private final int components;

    protected OwnsPosition(final int components) {
      this.components = components;
    }

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      registry = new Registry();
      positions = registry.storage(OwnsPosition_Position_Traits.TYPE);
      velocities = registry.storage(OwnsPosition_Velocity_Traits.TYPE);
      scales = registry.storage(OwnsPosition_Scale_Traits.TYPE);
      heats = registry.storage(OwnsPosition_Heat_Traits.TYPE);
      ages = registry.storage(OwnsPosition_Age_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        populate(registry.create(), i, components);
      }
    }

    /** Gives entity {@code e} (the {@code i}-th) the first {@code count} components. */
    public void populate(final long e, final int i, final int count) {
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
      if (count >= 3) {
        scales.emplace(e, 1f);
      }
      if (count >= 5) {
        heats.emplace(e, 0f);
        ages.emplace(e, 0f);
      }
    }
  }

  /** Position and Velocity. */
  @State(Scope.Benchmark)
  public static class OwnsPosition2 extends OwnsPosition {
    public OwnsPosition2() {
      super(2);
    }
  }

  /** Position, Velocity and Scale. */
  @State(Scope.Benchmark)
  public static class OwnsPosition3 extends OwnsPosition {
    public OwnsPosition3() {
      super(3);
    }
  }

  /** All five. */
  @State(Scope.Benchmark)
  public static class OwnsPosition5 extends OwnsPosition {
    public OwnsPosition5() {
      super(5);
    }
  }

  /** Five components; the group owns Position, Velocity, Scale. */
  @State(Scope.Benchmark)
  public static class Owns3Of5 {
    public Owns3Of5_GroupQuery query;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      final Owns3Of5_Position_Storage positions = registry.storage(Owns3Of5_Position_Traits.TYPE);
      final Owns3Of5_Velocity_Storage velocities = registry.storage(Owns3Of5_Velocity_Traits.TYPE);
      final Owns3Of5_Scale_Storage scales = registry.storage(Owns3Of5_Scale_Traits.TYPE);
      final Owns3Of5_Heat_Storage heats = registry.storage(Owns3Of5_Heat_Traits.TYPE);
      final Owns3Of5_Age_Storage ages = registry.storage(Owns3Of5_Age_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        positions.emplace(e, Work.x(i), Work.x(i));
        velocities.emplace(e, Work.v(i), Work.v(i));
        scales.emplace(e, 1f);
        heats.emplace(e, 0f);
        ages.emplace(e, 0f);
      }
      query = Owns3Of5_GroupQuery.of(registry);
    }
  }

  /** Five components; the group owns Position, Velocity, Scale, Heat. */
  @State(Scope.Benchmark)
  public static class Owns4Of5 {
    public Owns4Of5_GroupQuery query;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      final Owns4Of5_Position_Storage positions = registry.storage(Owns4Of5_Position_Traits.TYPE);
      final Owns4Of5_Velocity_Storage velocities = registry.storage(Owns4Of5_Velocity_Traits.TYPE);
      final Owns4Of5_Scale_Storage scales = registry.storage(Owns4Of5_Scale_Traits.TYPE);
      final Owns4Of5_Heat_Storage heats = registry.storage(Owns4Of5_Heat_Traits.TYPE);
      final Owns4Of5_Age_Storage ages = registry.storage(Owns4Of5_Age_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        positions.emplace(e, Work.x(i), Work.x(i));
        velocities.emplace(e, Work.v(i), Work.v(i));
        scales.emplace(e, 1f);
        heats.emplace(e, 0f);
        ages.emplace(e, 0f);
      }
      query = Owns4Of5_GroupQuery.of(registry);
    }
  }
}
