package dev.phalanx.benchmarks.groups;

import static dev.phalanx.benchmarks.worlds.PhalanxTypes.POSITION;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.SCALE;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.VELOCITY;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.group.Group;
import dev.phalanx.ecs.group.OwningGroup;
import dev.phalanx.ecs.group.RangeConsumer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * As iterate2 full-owning group chunks, with the runs spread over the common fork-join pool
 * ({@code parallelEachChunk}); on this 2-core machine at most 2 threads.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2FullOwningGroupParallel {

  @State(Scope.Benchmark)
  public static class GroupState {
    Group group;
    RangeConsumer chunk;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With2 w) {
      group = w.registry.owningGroup(POSITION, VELOCITY);
      final Object[][] positions = w.positions.pages();
      final Object[][] velocities = w.velocities.pages();
      final int shift = w.positions.pageShift();
      final int mask = w.positions.pageSize() - 1;
      chunk = (from, to) -> {
        final Object[] pp = positions[from >>> shift];
        final Object[] vp = velocities[from >>> shift];
        final int start = from & mask;
        final int end = start + (to - from);
        for (int i = start; i < end; i++) {
          final Position p = (Position) pp[i];
          final Velocity v = (Velocity) vp[i];
          p.x += v.x * Work.DT;
          p.y += v.y * Work.DT;
        }
      };
    }
  }

  @Benchmark
  public void phalanx(final PhalanxWorld.With2 w, final GroupState g) {
    ((OwningGroup) g.group).parallelEachChunk(g.chunk);
  }
}
