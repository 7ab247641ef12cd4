package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.NonOwning1Query;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * iterate1 per entity ({@code each}, typed cursor) over a non-owning group of Position alone, to
 * compare with the view of the same storage ({@code Iterate1.phalanx}): the group's member set
 * leads instead of the storage.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate1Group {

  /** The group over a world of entities with Position. */
  @State(Scope.Benchmark)
  public static class Query {
    NonOwning1Query query;
    NonOwning1Query.Visitor body;

    @Setup
    public void setup(final PhalanxWorld.With1 w) {
      query = NonOwning1Query.of(w.registry);
      body = (e, p) -> p.setX(p.x() + 1f);
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.query.each(q.body);
  }
}
