package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.queries.View2Query;
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
 * iterate2 where every entity has a Position and one has a Velocity ("one"), through {@code
 * View2Query.each}. Time is per entity of the world (n): the view leads with the Velocity storage
 * of one element, so this is the cost of a view over a small set.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2One {

  @State(Scope.Benchmark)
  public static class World {
    View2Query query;
    View2Query.Visitor move;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      final Position_Storage positions = registry.storage(Position_Traits.TYPE);
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        positions.emplace(e, Work.x(i), Work.x(i));
        if (n / 2 == i) {
          velocities.emplace(e, Work.v(i), Work.v(i));
        }
      }
      query = View2Query.of(registry);
      move =
          (e, p, v) -> {
            p.setX(p.x() + v.x() * Work.DT);
            p.setY(p.y() + v.y() * Work.DT);
          };
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.query.each(w.move);
  }
}
