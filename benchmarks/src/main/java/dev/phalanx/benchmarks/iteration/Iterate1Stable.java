package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.StablePosition_Storage;
import dev.phalanx.benchmarks.components.StablePosition_Traits;
import dev.phalanx.benchmarks.queries.StableView1Query;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
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

/**
 * iterate1 over an in-place (stable) storage ({@code @Component(inPlaceDelete = true)}), through
 * the generated {@code StableView1Query.each}, which checks every packed slot for a tombstone. The
 * storage has no holes here, as in EnTT's stable benchmark; compare with iterate1.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate1Stable {

  @State(Scope.Benchmark)
  public static class World {
    StableView1Query query;
    StableView1Query.Visitor move;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      final StablePosition_Storage positions = registry.storage(StablePosition_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        positions.emplace(registry.create(), Work.x(i), Work.x(i));
      }
      query = StableView1Query.of(registry);
      move = (e, p) -> p.setX(p.x() + 1f);
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.query.each(w.move);
  }
}
