package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.OwnsPosition_Of2Query;
import dev.phalanx.benchmarks.worlds.PartialWorlds;
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
 * iterate2 over a partial-owning group that owns Position and gets the other components ({@code
 * OwnsPosition_Of2Query.each}): Position by position, the others by one lookup each.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2PartialOwningGroup {

  @State(Scope.Benchmark)
  public static class Query {
    OwnsPosition_Of2Query query;
    OwnsPosition_Of2Query.Visitor body;

    @Setup(Level.Trial)
    public void setup(final PartialWorlds.OwnsPosition2 w) {
      query = OwnsPosition_Of2Query.of(w.registry);
      body =
          (e, p, v) -> {
            p.setX(p.x() + v.x() * Work.DT);
            p.setY(p.y() + v.y() * Work.DT);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.query.each(q.body);
  }
}
