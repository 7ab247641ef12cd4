package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Clear a pool: remove Velocity from every entity at once ({@code velocities.clear()}) in the
 * remove1 world; compare with remove1 (one entity at a time). The components are given back before
 * each shot. None of the peers has this operation.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class ClearPool extends StructuralBenchmark {

  @Benchmark
  public void phalanx(final WorldStates.PhalanxState s) {
    s.w.velocities.clear();
  }
}
