package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.NonOwning3Query;
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
 * iterate3 over a non-owning group of Position, Velocity, Scale (its own sparse set of members),
 * through the generated {@code NonOwning3Query.each}: typed cursors, each moved by one sparse
 * lookup per component.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate3NonOwningGroup {

  @State(Scope.Benchmark)
  public static class Query {
    NonOwning3Query query;
    NonOwning3Query.Visitor body;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With3 w) {
      query = NonOwning3Query.of(w.registry);
      body =
          (e, p, v, s) -> {
            final float f = s.s() * Work.DT;
            p.setX(p.x() + v.x() * f);
            p.setY(p.y() + v.y() * f);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.query.each(q.body);
  }
}
