package dev.phalanx.benchmarks.iteration;

import static dev.phalanx.benchmarks.worlds.PhalanxTypes.POSITION;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.VELOCITY;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.worlds.PhalanxSystems;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
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
 * iterate2 where every entity has a Position and only one a Velocity ("one"). Time is per
 * entity of the world (n), not per matching entity; the view leads with the one-element Velocity set: the cost is the view set-up.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@OperationsPerInvocation(Work.ENTITIES)
public class Iterate2One {

  @State(Scope.Benchmark)
  public static class World {
    View view;
    LongConsumer move;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        final Position p = new Position();
        p.x = Work.x(i);
        registry.emplace(e, POSITION, p);
        if (n / 2 == i) {
          final Velocity v = new Velocity();
          v.x = Work.v(i);
          registry.emplace(e, VELOCITY, v);
        }
      }
      view = registry.view(POSITION, VELOCITY);
      move = PhalanxSystems.move2(registry.storage(POSITION), registry.storage(VELOCITY));
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.view.each(w.move);
  }
}
