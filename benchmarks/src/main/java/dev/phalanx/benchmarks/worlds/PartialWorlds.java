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
  public static final class OwnsPosition {
    public int n;
    public Registry registry;
    public OwnsPosition_Position_Storage positions;
    public OwnsPosition_Velocity_Storage velocities;
    public OwnsPosition_Scale_Storage scales;
    public OwnsPosition_Heat_Storage heats;
    public OwnsPosition_Age_Storage ages;
    private final int components;

    public OwnsPosition(final int components, final BenchmarkParams params) {
      this.components = components;
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

  /** Five components; the group owns Position, Velocity, Scale. */
  public static final class Owns3Of5 {
    public Owns3Of5_GroupQuery query;

    public Owns3Of5(final BenchmarkParams params) {
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
  public static final class Owns4Of5 {
    public Owns4Of5_GroupQuery query;

    public Owns4Of5(final BenchmarkParams params) {
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
