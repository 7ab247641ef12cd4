package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Scale_Storage;
import dev.phalanx.benchmarks.components.Scale_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.queries.FullOwning3Query;
import dev.phalanx.benchmarks.worlds.Churn;
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

/**
 * EnTT's pathological case, full-owning group in chunks: 500k entities with Position, Velocity and
 * Scale; ten rounds of removing one component from every 7th, 11th and 13th entity and destroying
 * every 17th, then adding 50k full entities, with the group created first and kept up to date
 * through the churn; then iterate3 once over what is left ({@code FullOwning3Query.eachChunk}).
 * Time is per initial entity (500k), so the row compares with iterate3. The fixed size ignores
 * {@code -opi}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.PATHOLOGICAL_ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class PathologicalFullOwningGroupChunk {

  @State(Scope.Benchmark)
  public static class World {
    FullOwning3Query query;
    FullOwning3Query.Chunk body;

    @Setup(Level.Trial)
    public void setup() {
      final Registry registry = new Registry();
      final Position_Storage positions = registry.storage(Position_Traits.TYPE);
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      final Scale_Storage scales = registry.storage(Scale_Traits.TYPE);
      query = FullOwning3Query.of(registry);
      Churn.run(
          registry,
          (e, i) -> {
            positions.emplace(e, Work.x(i), Work.x(i));
            velocities.emplace(e, Work.v(i), Work.v(i));
            scales.emplace(e, 1f);
          },
          Position_Traits.TYPE,
          Velocity_Traits.TYPE,
          Scale_Traits.TYPE);
      body =
          (from, to, px, py, vx, vy, s) -> {
            for (int i = from; i < to; i++) {
              final float f = s[i] * Work.DT;
              px[i] += vx[i] * f;
              py[i] += vy[i] * f;
            }
          };
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.query.eachChunk(w.body);
  }
}
