package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.components.Age;
import dev.phalanx.benchmarks.components.Age_Storage;
import dev.phalanx.benchmarks.components.Age_Traits;
import dev.phalanx.benchmarks.components.Heat_Storage;
import dev.phalanx.benchmarks.components.Heat_Traits;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.clone.Prefab;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Instantiate 100,000 copies of a 4-component prefab (Position, Velocity, Heat, Age) into a
 * registry cleared before each shot ({@code prefab.instantiate(registry, out)}), against what a
 * user writes without prefabs: {@code registry.create(out)} then the 4 typed emplaces per entity.
 * The target is the prefab within 1.5x of the hand-written form. Phalanx only: the peers
 * have no prefab.
 */
@OperationsPerInvocation(PrefabInstantiation.INSTANCES)
public class PrefabInstantiation extends StructuralBenchmark {

  /** Instances per shot. */
  static final int INSTANCES = 100_000;

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Registry registry;
    long[] out;
    Prefab prefab;

    @Setup(Level.Trial)
    public void template() {
      final Registry templates = new Registry();
      final long wolf = templates.create();
      templates.storage(Position_Traits.TYPE).emplace(wolf, 1f, 2f);
      templates.storage(Velocity_Traits.TYPE).emplace(wolf, 3f, 4f);
      templates.storage(Heat_Traits.TYPE).emplace(wolf, 5f);
      templates.storage(Age_Traits.TYPE).emplace(wolf, new Age(6f));
      prefab = Prefab.of(templates, wolf);
      out = new long[INSTANCES];
    }

    /**
     * The same registry every shot, cleared: its pages and identifiers are reused (a spawn wave).
     */
    @Setup(Level.Iteration)
    public void world() {
      if (null == registry) {
        registry = new Registry();
      } else {
        registry.clear();
      }
    }
  }

  @Benchmark
  public Registry prefab(final PhalanxState s) {
    s.prefab.instantiate(s.registry, s.out);
    return s.registry;
  }

  @Benchmark
  public Registry createAndEmplace(final PhalanxState s) {
    final Registry registry = s.registry;
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final Heat_Storage heats = registry.storage(Heat_Traits.TYPE);
    final Age_Storage ages = registry.storage(Age_Traits.TYPE);
    final long[] out = s.out;
    registry.create(out);
    for (final long e : out) {
      positions.emplace(e, 1f, 2f);
      velocities.emplace(e, 3f, 4f);
      heats.emplace(e, 5f);
      ages.emplace(e, 6f);
    }
    return registry;
  }

  /** The same with the bulk forms: one {@code insert(out, 0, n, fields...)} per type. */
  @Benchmark
  public Registry createAndInsert(final PhalanxState s) {
    final Registry registry = s.registry;
    final long[] out = s.out;
    registry.create(out);
    registry.storage(Position_Traits.TYPE).insert(out, 0, out.length, 1f, 2f);
    registry.storage(Velocity_Traits.TYPE).insert(out, 0, out.length, 3f, 4f);
    registry.storage(Heat_Traits.TYPE).insert(out, 0, out.length, 5f);
    registry.storage(Age_Traits.TYPE).insert(out, 0, out.length, 6f);
    return registry;
  }

  /** The same, storage by storage (the order the prefab copies in). */
  @Benchmark
  public Registry createAndEmplaceByStorage(final PhalanxState s) {
    final Registry registry = s.registry;
    final long[] out = s.out;
    registry.create(out);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    for (final long e : out) {
      positions.emplace(e, 1f, 2f);
    }
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (final long e : out) {
      velocities.emplace(e, 3f, 4f);
    }
    final Heat_Storage heats = registry.storage(Heat_Traits.TYPE);
    for (final long e : out) {
      heats.emplace(e, 5f);
    }
    final Age_Storage ages = registry.storage(Age_Traits.TYPE);
    for (final long e : out) {
      ages.emplace(e, 6f);
    }
    return registry;
  }
}
