package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning3Query;
import dev.phalanx.benchmarks.queries.LargePages_Group3Query;
import dev.phalanx.benchmarks.queries.LargePages_Position_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Position_Traits;
import dev.phalanx.benchmarks.queries.LargePages_Scale_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Scale_Traits;
import dev.phalanx.benchmarks.queries.LargePages_Velocity_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Velocity_Traits;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * iterate3 over a full-owning group of Position, Velocity, Scale in chunks: one body call per page
 * run with the {@code float[]} pages of every field. The {@code form} parameter picks how (see
 * {@link Folded} for why the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code eachChunk}: {@code FullOwning3Query.eachChunk}, 4,096-element pages (the default).
 *   <li>{@code eachChunkLargePages}: {@code LargePages_Group3Query.eachChunk}, over components
 *       declared with 8,192-element pages ({@code @Component(pageSize = 8192)}); same entities,
 *       values and loop body.
 *   <li>{@code parallelEachChunk}: {@code FullOwning3Query.parallelEachChunk}, the runs spread over
 *       the common fork-join pool: on the 2-core machine of the published runs the pool has 1
 *       worker, so the calling thread and that worker run the chunks (2 threads).
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate3GroupChunk {

  @State(Scope.Benchmark)
  public static class Query {
    @Param({"eachChunk", "eachChunkLargePages", "parallelEachChunk"})
    public String form;

    Runnable loop;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      Folded.checkForked(params);
      loop =
          switch (form) {
            case "eachChunk" -> eachChunk(GroupWorlds.built(new PhalanxWorld.With3(), params));
            case "eachChunkLargePages" -> largePages(params);
            case "parallelEachChunk" ->
                parallelEachChunk(GroupWorlds.built(new PhalanxWorld.With3(), params));
            default -> throw new IllegalArgumentException("unknown form " + form);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable eachChunk(final PhalanxWorld w) {
    final FullOwning3Query query = FullOwning3Query.of(w.registry);
    final FullOwning3Query.Chunk body =
        (from, to, px, py, vx, vy, s) -> {
          for (int i = from; i < to; i++) {
            final float f = s[i] * Work.DT;
            px[i] += vx[i] * f;
            py[i] += vy[i] * f;
          }
        };
    return () -> query.eachChunk(body);
  }

  private static Runnable parallelEachChunk(final PhalanxWorld w) {
    final FullOwning3Query query = FullOwning3Query.of(w.registry);
    final FullOwning3Query.Chunk body =
        (from, to, px, py, vx, vy, s) -> {
          for (int i = from; i < to; i++) {
            final float f = s[i] * Work.DT;
            px[i] += vx[i] * f;
            py[i] += vy[i] * f;
          }
        };
    return () -> query.parallelEachChunk(body);
  }

  private static Runnable largePages(final BenchmarkParams params) {
    final int n = Sizes.entities(params);
    final Registry registry = new Registry();
    final LargePages_Position_Storage positions = registry.storage(LargePages_Position_Traits.TYPE);
    final LargePages_Velocity_Storage velocities =
        registry.storage(LargePages_Velocity_Traits.TYPE);
    final LargePages_Scale_Storage scales = registry.storage(LargePages_Scale_Traits.TYPE);
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
      scales.emplace(e, 1f);
    }
    final LargePages_Group3Query query = LargePages_Group3Query.of(registry);
    final LargePages_Group3Query.Chunk body =
        (from, to, px, py, vx, vy, s) -> {
          for (int i = from; i < to; i++) {
            final float f = s[i] * Work.DT;
            px[i] += vx[i] * f;
            py[i] += vy[i] * f;
          }
        };
    return () -> query.eachChunk(body);
  }
}
