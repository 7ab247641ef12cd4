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
 * EnTT's recycle: n entities were created and destroyed; the shot creates n again, every identifier
 * recycled with a bumped version. Compare with create (fresh identifiers).
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Recycle extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    int n;
    Registry registry;
    long[] out;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == registry) {
        n = Sizes.entities(params);
        registry = new Registry();
        out = new long[n];
        registry.create(out);
      }
      registry.destroy(out, 0, n);
    }
  }

  @Benchmark
  public long[] phalanx(final PhalanxState s) {
    final Registry registry = s.registry;
    final long[] out = s.out;
    for (int i = 0; i < s.n; i++) {
      out[i] = registry.create();
    }
    return out;
  }
}
