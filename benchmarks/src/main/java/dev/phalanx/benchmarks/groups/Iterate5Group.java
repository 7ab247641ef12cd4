package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning5Query;
import dev.phalanx.benchmarks.queries.NonOwning5Query;
import dev.phalanx.benchmarks.queries.Owns3Of5_GroupQuery;
import dev.phalanx.benchmarks.queries.Owns4Of5_GroupQuery;
import dev.phalanx.benchmarks.queries.OwnsPosition_Of5Query;
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
 * iterate5 per entity ({@code each}, one visitor call per entity with typed cursors) over a group
 * of Position, Velocity, Scale, Heat, Age; the {@code query} parameter picks the group (see {@link
 * Folded} for why the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code NonOwning}: {@code NonOwning5Query}, the group's own sparse set of members; each
 *       cursor moved by one sparse lookup per component.
 *   <li>{@code PartialOwning}: {@code OwnsPosition_Of5Query}, owns Position (moved by position),
 *       gets the other four by one lookup each.
 *   <li>{@code PartialOwning3Of5}, {@code PartialOwning4Of5}: {@code Owns3Of5_GroupQuery}, {@code
 *       Owns4Of5_GroupQuery}, groups that own Position, Velocity, Scale (and Heat), and get the
 *       rest.
 *   <li>{@code FullOwning}: {@code FullOwning5Query}, every cursor moved by position, no lookup.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate5Group {

  @State(Scope.Benchmark)
  public static class Query {
    @Param({"NonOwning", "PartialOwning", "PartialOwning3Of5", "PartialOwning4Of5", "FullOwning"})
    public String query;

    Runnable loop;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      Folded.checkForked(params);
      loop =
          switch (query) {
            case "NonOwning" -> nonOwning(GroupWorlds.built(new PhalanxWorld.With5(), params));
            case "PartialOwning" ->
                partialOwning(GroupWorlds.built(new PartialWorlds.OwnsPosition5(), params));
            case "PartialOwning3Of5" -> owns3Of5(params);
            case "PartialOwning4Of5" -> owns4Of5(params);
            case "FullOwning" -> fullOwning(GroupWorlds.built(new PhalanxWorld.With5(), params));
            default -> throw new IllegalArgumentException("unknown query " + query);
          };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable nonOwning(final PhalanxWorld w) {
    final NonOwning5Query query = NonOwning5Query.of(w.registry);
    final NonOwning5Query.Visitor body =
        (e, p, v, s, h, a) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
          h.setValue(h.value() + 1f);
          a.setValue(a.value() + 1f);
        };
    return () -> query.each(body);
  }

  private static Runnable partialOwning(final PartialWorlds.OwnsPosition w) {
    final OwnsPosition_Of5Query query = OwnsPosition_Of5Query.of(w.registry);
    final OwnsPosition_Of5Query.Visitor body =
        (e, p, v, s, h, a) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
          h.setValue(h.value() + 1f);
          a.setValue(a.value() + 1f);
        };
    return () -> query.each(body);
  }

  private static Runnable owns3Of5(final BenchmarkParams params) {
    final PartialWorlds.Owns3Of5 w = new PartialWorlds.Owns3Of5();
    w.setup(params);
    final Owns3Of5_GroupQuery query = w.query;
    final Owns3Of5_GroupQuery.Visitor body =
        (e, p, v, s, h, a) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
          h.setValue(h.value() + 1f);
          a.setValue(a.value() + 1f);
        };
    return () -> query.each(body);
  }

  private static Runnable owns4Of5(final BenchmarkParams params) {
    final PartialWorlds.Owns4Of5 w = new PartialWorlds.Owns4Of5();
    w.setup(params);
    final Owns4Of5_GroupQuery query = w.query;
    final Owns4Of5_GroupQuery.Visitor body =
        (e, p, v, s, h, a) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
          h.setValue(h.value() + 1f);
          a.setValue(a.value() + 1f);
        };
    return () -> query.each(body);
  }

  private static Runnable fullOwning(final PhalanxWorld w) {
    final FullOwning5Query query = FullOwning5Query.of(w.registry);
    final FullOwning5Query.Visitor body =
        (e, p, v, s, h, a) -> {
          final float f = s.s() * Work.DT;
          p.setX(p.x() + v.x() * f);
          p.setY(p.y() + v.y() * f);
          h.setValue(h.value() + 1f);
          a.setValue(a.value() + 1f);
        };
    return () -> query.each(body);
  }
}
