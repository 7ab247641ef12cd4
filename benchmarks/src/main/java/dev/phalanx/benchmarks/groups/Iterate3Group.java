package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning3Query;
import dev.phalanx.benchmarks.queries.NonOwning3Query;
import dev.phalanx.benchmarks.queries.OwnsPosition_Of3Query;
import dev.phalanx.benchmarks.worlds.PartialWorlds;
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
 * iterate3 per entity ({@code each}, one visitor call per entity with typed cursors) over a group
 * of Position, Velocity, Scale; the {@code query} parameter picks the group (see {@link Folded} for
 * why the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code NonOwning}: {@code NonOwning3Query}, the group's own sparse set of members; each
 *       cursor moved by one sparse lookup per component.
 *   <li>{@code PartialOwning}: {@code OwnsPosition_Of3Query}, owns Position (moved by position),
 *       gets Velocity and Scale by one lookup each.
 *   <li>{@code FullOwning}: {@code FullOwning3Query}, every cursor moved by position, no lookup.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate3Group {

  @State(Scope.Benchmark)
  public static class Query {
    @Param({"NonOwning", "PartialOwning", "FullOwning"})
    public String query;

    Runnable loop;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      Folded.checkForked(params);
      loop =
          switch (query) {
            case "NonOwning" -> nonOwning(GroupWorlds.built(new PhalanxWorld.With3(), params));
            case "PartialOwning" ->
                partialOwning(GroupWorlds.built(new PartialWorlds.OwnsPosition3(), params));
            case "FullOwning" -> fullOwning(GroupWorlds.built(new PhalanxWorld.With3(), params));
            default -> throw new IllegalArgumentException("unknown query " + query);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable nonOwning(final PhalanxWorld w) {
    final NonOwning3Query query = NonOwning3Query.of(w.registry);
    final NonOwning3Query.Visitor body =
        (e, p, v, s) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
        };
    return () -> query.each(body);
  }

  private static Runnable partialOwning(final PartialWorlds.OwnsPosition w) {
    final OwnsPosition_Of3Query query = OwnsPosition_Of3Query.of(w.registry);
    final OwnsPosition_Of3Query.Visitor body =
        (e, p, v, s) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
        };
    return () -> query.each(body);
  }

  private static Runnable fullOwning(final PhalanxWorld w) {
    final FullOwning3Query query = FullOwning3Query.of(w.registry);
    final FullOwning3Query.Visitor body =
        (e, p, v, s) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
        };
    return () -> query.each(body);
  }
}
