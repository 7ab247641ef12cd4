package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Create entities in bulk ({@code registry.create(long[])}) into a fresh registry. None of the
 * peers has a bulk form; compare with create.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class CreateBulk extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Registry registry;
    long[] out;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      registry = new Registry();
      out = new long[Sizes.entities(params)];
    }
  }

  @Benchmark
  public long[] phalanx(final PhalanxState s) {
    s.registry.create(s.out);
    return s.out;
  }
}
