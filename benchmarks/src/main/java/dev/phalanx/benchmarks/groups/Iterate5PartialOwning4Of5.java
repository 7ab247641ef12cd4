package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.Owns4Of5_GroupQuery;
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
 * iterate5 over a partial-owning group of five components that owns 4 (Position, Velocity, Scale,
 * Heat) and gets the rest ({@code Owns4Of5_GroupQuery.each}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate5PartialOwning4Of5 {

  @State(Scope.Benchmark)
  public static class Query {
    Owns4Of5_GroupQuery.Visitor body;

    @Setup(Level.Trial)
    public void setup() {
      body =
          (e, p, v, s, h, a) -> {
            final float f = s.s() * Work.DT;
            p.setX(p.x() + v.x() * f);
            p.setY(p.y() + v.y() * f);
            h.setValue(h.value() + 1f);
            a.setValue(a.value() + 1f);
          };
    }
  }

  @Benchmark
  public void phalanx(final PartialWorlds.Owns4Of5 w, final Query q) {
    w.query.each(q.body);
  }
}
