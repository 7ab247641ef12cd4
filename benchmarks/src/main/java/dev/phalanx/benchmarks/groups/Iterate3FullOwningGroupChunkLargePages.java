package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.LargePages_Group3Query;
import dev.phalanx.benchmarks.queries.LargePages_Position_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Position_Traits;
import dev.phalanx.benchmarks.queries.LargePages_Scale_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Scale_Traits;
import dev.phalanx.benchmarks.queries.LargePages_Velocity_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Velocity_Traits;
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
 * As iterate3 full-owning group chunks, over components declared with 8,192-element pages ({@code
 * LargePages}: {@code @Component(pageSize = 8192)}) instead of the default 4,096. Same entities,
 * values and loop body.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate3FullOwningGroupChunkLargePages {

  @State(Scope.Benchmark)
  public static class Query {
    LargePages_Group3Query query;
    LargePages_Group3Query.Chunk body;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      final int n = Sizes.entities(params);
      final Registry registry = new Registry();
      final LargePages_Position_Storage positions =
          registry.storage(LargePages_Position_Traits.TYPE);
      final LargePages_Velocity_Storage velocities =
          registry.storage(LargePages_Velocity_Traits.TYPE);
      final LargePages_Scale_Storage scales = registry.storage(LargePages_Scale_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        positions.emplace(e, Work.x(i), Work.x(i));
        velocities.emplace(e, Work.v(i), Work.v(i));
        scales.emplace(e, 1f);
      }
      query = LargePages_Group3Query.of(registry);
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
  public void phalanx(final Query q) {
    q.query.eachChunk(q.body);
  }
}
