package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Marker_Storage;
import dev.phalanx.benchmarks.components.Marker_Traits;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What keeping an owning group up to date costs structural changes: each workload with no group
 * ({@code group = false}) and with a full-owning group over exactly the types it touches ({@code
 * group = true}), side by side. Create: a fresh registry, entities created with Position and
 * Velocity (group {@code <Position, Velocity>}). Add + remove: a Marker added to and removed from
 * every entity of a world of Position and Velocity (group {@code <Position, Velocity, Marker>}:
 * each entity enters, then leaves). Destroy: every entity of a world of Position and Velocity
 * (group {@code <Position, Velocity>}). Phalanx only; the peers have no groups.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class WithGroups extends StructuralBenchmark {

  /** A fresh registry per shot, with or without the group declared before the entities. */
  @State(Scope.Benchmark)
  public static class FreshState {
    @Param({"false", "true"})
    boolean group;

    int n;
    Registry registry;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      registry = new Registry();
      if (group) {
        registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
      }
    }
  }

  /** A world of Position and Velocity, readied before each shot, with or without a group. */
  @State(Scope.Benchmark)
  public static class WorldState {
    @Param({"false", "true"})
    boolean group;

    Worlds2.Phalanx w;
    Marker_Storage markers;
    CommandBuffer buffer;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
        markers = w.registry.storage(Marker_Traits.TYPE);
        buffer = new CommandBuffer(w.registry);
      } else {
        w.ready();
      }
    }
  }

  @Benchmark
  public Registry create2(final FreshState s) {
    final Registry registry = s.registry;
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < s.n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
    }
    return registry;
  }

  @Benchmark
  public void addRemove(final WorldState s) {
    if (s.group && 0 == s.w.registry.groups().size()) {
      s.w.registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE, Marker_Traits.TYPE);
    }
    final Marker_Storage markers = s.markers;
    final long[] entities = s.w.entities;
    for (int i = 0; i < entities.length; i++) {
      markers.emplace(entities[i], 1);
    }
    for (int i = 0; i < entities.length; i++) {
      markers.remove(entities[i]);
    }
  }

  @Benchmark
  public void destroy(final WorldState s) {
    if (s.group && 0 == s.w.registry.groups().size()) {
      s.w.registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
    }
    final Registry registry = s.w.registry;
    for (final long e : s.w.entities) {
      registry.destroy(e);
    }
  }

  /**
   * As {@link #destroy}, recorded in a {@code CommandBuffer} and then applied: a run of destroys,
   * which the buffer applies as one batch when every group spans its owned storages alone.
   */
  @Benchmark
  public void destroyBuffered(final WorldState s) {
    if (s.group && 0 == s.w.registry.groups().size()) {
      s.w.registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
    }
    final CommandBuffer buffer = s.buffer;
    for (final long e : s.w.entities) {
      buffer.destroy(e);
    }
    buffer.apply();
  }
}
