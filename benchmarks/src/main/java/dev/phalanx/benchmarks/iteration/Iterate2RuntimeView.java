package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.view.RuntimeView;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/** iterate2 through a runtime view (sets chosen at run time), on the same world as iterate2. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@OperationsPerInvocation(Work.ENTITIES)
public class Iterate2RuntimeView {

  @State(Scope.Benchmark)
  public static class View {
    RuntimeView view;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With2 w) {
      view = new RuntimeView().iterate(w.positions).iterate(w.velocities);
    }
  }

  @Benchmark
  public void phalanx(final PhalanxWorld.With2 w, final View v) {
    v.view.each(w.move);
  }
}
