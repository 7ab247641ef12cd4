package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Clear a pool: remove Velocity from every entity at once ({@code velocities.clear()}) in the
 * remove1 world; compare with remove1 (one entity at a time). The components are given back before
 * each shot. None of the peers has this operation.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class ClearPool extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Worlds2.Phalanx w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
      } else {
        w.restore();
      }
    }
  }

  @Benchmark
  public void phalanx(final PhalanxState s) {
    s.w.velocities.clear();
  }
}
