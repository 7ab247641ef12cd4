package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.queries.NonOwning2Query;
import dev.phalanx.benchmarks.queries.OwnsPosition_Of2Query;
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
 * iterate2 per entity ({@code each}, one visitor call per entity with typed cursors) over a group
 * of Position, Velocity; the {@code query} parameter picks the group (see {@link Folded} for why
 * the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code NonOwning}: {@code NonOwning2Query}, the group's own sparse set of members; each
 *       cursor moved by one sparse lookup per component.
 *   <li>{@code PartialOwning}: {@code OwnsPosition_Of2Query}, owns Position (moved by position),
 *       gets Velocity by one lookup.
 *   <li>{@code FullOwning}: {@code FullOwning2Query}, every cursor moved by position, no lookup.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2Group {

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
            case "NonOwning" -> nonOwning(GroupWorlds.built(new PhalanxWorld.With2(), params));
            case "PartialOwning" ->
                partialOwning(GroupWorlds.built(new PartialWorlds.OwnsPosition2(), params));
            case "FullOwning" -> fullOwning(GroupWorlds.built(new PhalanxWorld.With2(), params));
            default -> throw new IllegalArgumentException("unknown query " + query);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable nonOwning(final PhalanxWorld w) {
    final NonOwning2Query query = NonOwning2Query.of(w.registry);
    final NonOwning2Query.Visitor body =
        (e, p, v) -> {
          p.setX(p.x() + v.x() * Work.DT);
          p.setY(p.y() + v.y() * Work.DT);
        };
    return () -> query.each(body);
  }

  private static Runnable partialOwning(final PartialWorlds.OwnsPosition w) {
    final OwnsPosition_Of2Query query = OwnsPosition_Of2Query.of(w.registry);
    final OwnsPosition_Of2Query.Visitor body =
        (e, p, v) -> {
          p.setX(p.x() + v.x() * Work.DT);
          p.setY(p.y() + v.y() * Work.DT);
        };
    return () -> query.each(body);
  }

  private static Runnable fullOwning(final PhalanxWorld w) {
    final FullOwning2Query query = FullOwning2Query.of(w.registry);
    final FullOwning2Query.Visitor body =
        (e, p, v) -> {
          p.setX(p.x() + v.x() * Work.DT);
          p.setY(p.y() + v.y() * Work.DT);
        };
    return () -> query.each(body);
  }
}
