package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Scale_Storage;
import dev.phalanx.benchmarks.components.Scale_Traits;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Deferred commands against the same changes made directly, per entity: destroy every entity of a
 * world of Position and Velocity, and emplace a Scale on every entity. The buffered rows record
 * every command, then apply the buffer, both inside the measured shot; the buffer is kept across
 * shots (its arrays grown), as a game keeps one per system. The reserve row records, from a
 * parallel chunk pass over the entities (2 threads, one buffer per run), one reserved entity with a
 * Position per entity, then applies: the spawning cost of a parallel system. Phalanx only: the
 * peers have no deferred commands to compare with (artemis defers deletion, which the Destroy row
 * includes).
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Commands extends StructuralBenchmark {

  /** A world with Position and Velocity, readied before each shot, and a reused buffer. */
  @State(Scope.Benchmark)
  public static class CommandState {
    Worlds2.Phalanx w;
    CommandBuffer buffer;
    CommandBuffers perRun;
    Scale_Storage scales;
    OwningGroup group;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
        buffer = new CommandBuffer(w.registry);
        perRun = new CommandBuffers(w.registry);
        scales = w.registry.storage(Scale_Traits.TYPE);
      } else {
        w.ready();
      }
      scales.clear();
      // Reserved spawns of the last shot: destroy them so every shot starts from n entities.
      final long[] packed = w.positions.packed();
      for (int position = w.positions.size() - 1; position >= 0; position--) {
        if (w.positions.size() > w.n && position >= w.n) {
          w.registry.destroy(packed[position]);
        }
      }
    }
  }

  @Benchmark
  public void destroyDirect(final CommandState s) {
    final Registry registry = s.w.registry;
    for (final long e : s.w.entities) {
      registry.destroy(e);
    }
  }

  @Benchmark
  public void destroyBuffered(final CommandState s) {
    final CommandBuffer buffer = s.buffer;
    for (final long e : s.w.entities) {
      buffer.destroy(e);
    }
    buffer.apply();
  }

  @Benchmark
  public void emplaceDirect(final CommandState s) {
    final Scale_Storage scales = s.scales;
    final long[] entities = s.w.entities;
    for (int i = 0; i < entities.length; i++) {
      scales.emplace(entities[i], Work.v(i));
    }
  }

  @Benchmark
  public void emplaceBuffered(final CommandState s) {
    final Scale_Storage scales = s.scales;
    final CommandBuffer buffer = s.buffer;
    final long[] entities = s.w.entities;
    for (int i = 0; i < entities.length; i++) {
      scales.emplace(buffer, entities[i], Work.v(i));
    }
    buffer.apply();
  }

  /** Recording alone (the buffer is cleared, not applied): what recording costs. */
  @Benchmark
  public void emplaceRecordOnly(final CommandState s) {
    final Scale_Storage scales = s.scales;
    final CommandBuffer buffer = s.buffer;
    final long[] entities = s.w.entities;
    for (int i = 0; i < entities.length; i++) {
      scales.emplace(buffer, entities[i], Work.v(i));
    }
    buffer.clear();
  }

  /**
   * One reserved entity with a Position per existing one, recorded from 2 threads, then applied.
   */
  @Benchmark
  public void reserveParallel(final CommandState s) {
    if (null == s.group) {
      s.group =
          s.w.registry.owningGroup(
              dev.phalanx.benchmarks.components.Position_Traits.TYPE,
              dev.phalanx.benchmarks.components.Velocity_Traits.TYPE);
    }
    final CommandBuffers perRun = s.perRun;
    final Position_Storage positions = s.w.positions;
    perRun.parallelEachChunk(
        s.group,
        java.util.concurrent.ForkJoinPool.commonPool(),
        (buffer, entities, from, to) -> {
          for (int position = from; position < to; position++) {
            positions.emplace(buffer, buffer.create(), positions.xAt(position), 0f);
          }
        });
    perRun.apply();
  }
}
