package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.queries.LargePages_Group2Query;
import dev.phalanx.benchmarks.queries.LargePages_Position_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Position_Traits;
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
 * iterate2 over a full-owning group of Position, Velocity in chunks: one body call per page run
 * with the {@code float[]} pages of every field. The {@code form} parameter picks how (see {@link
 * Folded} for why the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code eachChunk}: {@code FullOwning2Query.eachChunk}, 4,096-element pages (the default).
 *   <li>{@code eachChunkLargePages}: {@code LargePages_Group2Query.eachChunk}, over components
 *       declared with 8,192-element pages ({@code @Component(pageSize = 8192)}); same entities,
 *       values and loop body.
 *   <li>{@code parallelEachChunk}: {@code FullOwning2Query.parallelEachChunk}, the runs spread over
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
public class Iterate2GroupChunk {

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
            case "eachChunk" -> eachChunk(GroupWorlds.built(new PhalanxWorld.With2(), params));
            case "eachChunkLargePages" -> largePages(params);
            case "parallelEachChunk" ->
                parallelEachChunk(GroupWorlds.built(new PhalanxWorld.With2(), params));
            default -> throw new IllegalArgumentException("unknown form " + form);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable eachChunk(final PhalanxWorld w) {
    final FullOwning2Query query = FullOwning2Query.of(w.registry);
    final FullOwning2Query.Chunk body =
        (from, to, px, py, vx, vy) -> {
          for (int i = from; i < to; i++) {
            px[i] += vx[i] * Work.DT;
            py[i] += vy[i] * Work.DT;
          }
        };
    return () -> query.eachChunk(body);
  }

  private static Runnable parallelEachChunk(final PhalanxWorld w) {
    final FullOwning2Query query = FullOwning2Query.of(w.registry);
    final FullOwning2Query.Chunk body =
        (from, to, px, py, vx, vy) -> {
          for (int i = from; i < to; i++) {
            px[i] += vx[i] * Work.DT;
            py[i] += vy[i] * Work.DT;
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
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
    }
    final LargePages_Group2Query query = LargePages_Group2Query.of(registry);
    final LargePages_Group2Query.Chunk body =
        (from, to, px, py, vx, vy) -> {
          for (int i = from; i < to; i++) {
            px[i] += vx[i] * Work.DT;
            py[i] += vy[i] * Work.DT;
          }
        };
    return () -> query.eachChunk(body);
  }
}
