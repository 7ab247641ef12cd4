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
 * Profile pollution: iterate2 through the same generated {@code FullOwning2Query.each} with five
 * different loop bodies (five lambda classes doing the same work), one body per invocation in turn,
 * from the first warm-up iteration on, so the query's call of the body sees five receiver classes.
 * Compare with the single-body row (Iterate2FullOwningGroup).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2FullOwningGroupEachPolluted {

  @State(Scope.Benchmark)
  public static class Query {
    FullOwning2Query query;
    FullOwning2Query.Visitor[] bodies;
    int next;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With2 w) {
      query = FullOwning2Query.of(w.registry);
      // Five lambda expressions: five classes with the same work, all seen by the query's call
      // site.
      bodies =
          new FullOwning2Query.Visitor[] {
            (e, p, v) -> {
              p.setX(p.x() + v.x() * Work.DT);
              p.setY(p.y() + v.y() * Work.DT);
            },
            (e, p, v) -> {
              p.setX(p.x() + v.x() * Work.DT);
              p.setY(p.y() + v.y() * Work.DT);
            },
            (e, p, v) -> {
              p.setX(p.x() + v.x() * Work.DT);
              p.setY(p.y() + v.y() * Work.DT);
            },
            (e, p, v) -> {
              p.setX(p.x() + v.x() * Work.DT);
              p.setY(p.y() + v.y() * Work.DT);
            },
            (e, p, v) -> {
              p.setX(p.x() + v.x() * Work.DT);
              p.setY(p.y() + v.y() * Work.DT);
            }
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    final int k = q.next;
    q.next = 4 == k ? 0 : k + 1;
    q.query.each(q.bodies[k]);
  }
}
