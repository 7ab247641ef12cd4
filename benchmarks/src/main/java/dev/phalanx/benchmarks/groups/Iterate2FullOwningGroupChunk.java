package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * iterate2 over a full-owning group of Position, Velocity in chunks ({@code
 * FullOwning2Query.eachChunk}): one body call per page run (4,096 elements, the default page size)
 * with the {@code float[]} pages of every field.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2FullOwningGroupChunk {

  @State(Scope.Benchmark)
  public static class Query {
    FullOwning2Query query;
    FullOwning2Query.Chunk body;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With2 w) {
      query = FullOwning2Query.of(w.registry);
      body =
          (from, to, px, py, vx, vy) -> {
            for (int i = from; i < to; i++) {
              px[i] += vx[i] * Work.DT;
              py[i] += vy[i] * Work.DT;
            }
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.query.eachChunk(q.body);
  }
}
