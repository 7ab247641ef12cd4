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
 * iterate2 over a non-owning group of Position and Velocity (its own sparse set of members),
 * the callback reading components from the storages.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2NonOwningGroup {

  @State(Scope.Benchmark)
  public static class GroupState {
    Group group;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With2 w) {
      group = w.registry.nonOwningGroup(new ComponentType<?, ?>[] {POSITION, VELOCITY}, new ComponentType<?, ?>[0]);
    }
  }

  @Benchmark
  public void phalanx(final PhalanxWorld.With2 w, final GroupState g) {
    g.group.each(w.move);
  }
}
