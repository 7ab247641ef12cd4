package dev.phalanx.benchmarks.iteration;

import static dev.phalanx.benchmarks.worlds.PhalanxTypes.STABLE_POSITION;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.StablePosition;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.storage.ObjectStorage;
import dev.phalanx.ecs.view.View;
import java.util.function.LongConsumer;
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
 * iterate1 over an in-place (stable) storage: the view checks every packed slot for a tombstone.
 * The storage has no holes here, as in EnTT's stable benchmark; compare with iterate1.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@OperationsPerInvocation(Work.ENTITIES)
public class Iterate1Stable {

  @State(Scope.Benchmark)
  public static class World {
    View view;
    LongConsumer move;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      final ObjectStorage<StablePosition> positions = registry.storage(STABLE_POSITION);
      for (int i = 0; i < n; i++) {
        final StablePosition p = new StablePosition();
        p.x = Work.x(i);
        registry.emplace(registry.create(), STABLE_POSITION, p);
      }
      view = registry.view(STABLE_POSITION);
      move = e -> positions.get(e).x += 1f;
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.view.each(w.move);
  }
}
