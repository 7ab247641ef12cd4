package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning5Query;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
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
 * iterate5 over a full-owning group of Position, Velocity, Scale, Heat, Age in chunks: one body
 * call per page run with the {@code float[]} pages of every field. The {@code form} parameter picks
 * how (see {@link Folded} for why the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code eachChunk}: {@code FullOwning5Query.eachChunk}, 4,096-element pages (the default).
 *       declared with 8,192-element pages ({@code @Component(pageSize = 8192)}); same entities,
 *       values and loop body.
 *   <li>{@code parallelEachChunk}: {@code FullOwning5Query.parallelEachChunk}, the runs spread over
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
public class Iterate5GroupChunk {

  @State(Scope.Benchmark)
  public static class Query {
    @Param({"eachChunk", "parallelEachChunk"})
    public String form;

    Runnable loop;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      Folded.checkForked(params);
      loop =
          switch (form) {
            case "eachChunk" -> eachChunk(GroupWorlds.built(new PhalanxWorld.With5(), params));
            case "parallelEachChunk" ->
                parallelEachChunk(GroupWorlds.built(new PhalanxWorld.With5(), params));
            default -> throw new IllegalArgumentException("unknown form " + form);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable eachChunk(final PhalanxWorld w) {
    final FullOwning5Query query = FullOwning5Query.of(w.registry);
    final FullOwning5Query.Chunk body =
        (from, to, px, py, vx, vy, s, h, a) -> {
          for (int i = from; i < to; i++) {
            final float f = s[i] * Work.DT;
            px[i] += vx[i] * f;
            py[i] += vy[i] * f;
            h[i] += 1f;
            a[i] += 1f;
          }
        };
    return () -> query.eachChunk(body);
  }

  private static Runnable parallelEachChunk(final PhalanxWorld w) {
    final FullOwning5Query query = FullOwning5Query.of(w.registry);
    final FullOwning5Query.Chunk body =
        (from, to, px, py, vx, vy, s, h, a) -> {
          for (int i = from; i < to; i++) {
            final float f = s[i] * Work.DT;
            px[i] += vx[i] * f;
            py[i] += vy[i] * f;
            h[i] += 1f;
            a[i] += 1f;
          }
        };
    return () -> query.parallelEachChunk(body);
  }
}
