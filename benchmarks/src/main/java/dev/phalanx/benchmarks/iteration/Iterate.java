package dev.phalanx.benchmarks.iteration;

import dev.dominion.ecs.api.Results;
import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyWorld;
import dev.phalanx.benchmarks.peers.dominion.DominionWorld;
import dev.phalanx.benchmarks.queries.View1Query;
import dev.phalanx.benchmarks.queries.View2Query;
import dev.phalanx.benchmarks.queries.View3Query;
import dev.phalanx.benchmarks.queries.View5Query;
import dev.phalanx.benchmarks.worlds.FloatArrays;
import dev.phalanx.benchmarks.worlds.ObjectArrays;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * iterate1, 2, 3 and 5 ({@code arity}, see {@link Work}) with every implementation ({@code lib}):
 *
 * <ul>
 *   <li>{@code floatArrays}: one {@code float[]} per field, indexed by entity (the limit).
 *   <li>{@code objects}: one array of small component objects per type.
 *   <li>{@code phalanx}: the generated {@code ViewNQuery.each}, typed cursors over the
 *       struct-of-arrays storages.
 *   <li>{@code artemis}: the {@code MoveN} system, run by {@code world.process()}.
 *   <li>{@code dominion}: {@code findCompositionsWith}, iterated.
 *   <li>{@code ashley}: the {@code MoveN} system, run by {@code engine.update(DT)}.
 * </ul>
 *
 * <p>The set-up builds only the chosen library's world and loop; the measured method is one {@code
 * loop.run()}, monomorphic per fork (see {@link Folded}). Run with {@code -p arity=2} or {@code -p
 * lib=phalanx} to restrict.
 */
public class Iterate extends IterationBenchmark {

  public static class Loop extends Folded.Loop {
    @Param({"1", "2", "3", "5"})
    public int arity;

    @Param({"floatArrays", "objects", "phalanx", "artemis", "dominion", "ashley"})
    public String lib;

    @Override
    protected Runnable build(final BenchmarkParams params) {
      return switch (lib) {
        case "floatArrays" -> floatArrays(new FloatArrays(params), arity);
        case "objects" -> objects(new ObjectArrays(params), arity);
        case "phalanx" -> phalanx(new PhalanxWorld(arity, params));
        case "artemis" -> {
          final ArtemisWorld w = new ArtemisWorld(arity, params);
          close = w::dispose;
          yield () -> w.world.process();
        }
        case "dominion" -> {
          final DominionWorld w = new DominionWorld(arity, params);
          close = w::close;
          yield dominion(w, arity);
        }
        case "ashley" -> {
          final AshleyWorld w = new AshleyWorld(arity, params);
          yield () -> w.engine.update(Work.DT);
        }
        default -> throw new IllegalArgumentException("unknown lib " + lib);
      };
    }
  }

  @Benchmark
  public void run(final Loop l) {
    l.loop.run();
  }

  /**
   * The limit: iterate2, 3 and 5 are {@link Work}'s chunk bodies over the whole arrays, the loop
   * the chunk forms of the groups run over each page.
   */
  private static Runnable floatArrays(final FloatArrays w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            final float[] px = w.px;
            for (int i = 0; i < w.n; i++) {
              px[i] += 1f;
            }
          };
      case 2 -> () -> Work.chunk2(0, w.n, w.px, w.py, w.vx, w.vy);
      case 3 -> () -> Work.chunk3(0, w.n, w.px, w.py, w.vx, w.vy, w.scale);
      case 5 -> () -> Work.chunk5(0, w.n, w.px, w.py, w.vx, w.vy, w.scale, w.heat, w.age);
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  private static Runnable objects(final ObjectArrays w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            for (final Position p : w.positions) {
              p.x += 1f;
            }
          };
      case 2 ->
          () -> {
            final Position[] positions = w.positions;
            final Velocity[] velocities = w.velocities;
            for (int i = 0; i < w.n; i++) {
              final Position p = positions[i];
              final Velocity v = velocities[i];
              p.x += v.x * Work.DT;
              p.y += v.y * Work.DT;
            }
          };
      case 3 ->
          () -> {
            final Position[] positions = w.positions;
            final Velocity[] velocities = w.velocities;
            final Scale[] scales = w.scales;
            for (int i = 0; i < w.n; i++) {
              final Position p = positions[i];
              final Velocity v = velocities[i];
              final float s = scales[i].s * Work.DT;
              p.x += v.x * s;
              p.y += v.y * s;
            }
          };
      case 5 ->
          () -> {
            final Position[] positions = w.positions;
            final Velocity[] velocities = w.velocities;
            final Scale[] scales = w.scales;
            final Heat[] heats = w.heats;
            final Age[] ages = w.ages;
            for (int i = 0; i < w.n; i++) {
              final Position p = positions[i];
              final Velocity v = velocities[i];
              final float s = scales[i].s * Work.DT;
              p.x += v.x * s;
              p.y += v.y * s;
              heats[i].value += 1f;
              ages[i].value += 1f;
            }
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  /** The generated {@code ViewNQuery.each}: typed cursors over the struct-of-arrays storages. */
  private static Runnable phalanx(final PhalanxWorld w) {
    switch (w.components()) {
      case 1:
        {
          final View1Query query = View1Query.of(w.registry);
          final View1Query.Visitor move = (e, p) -> p.setX(p.x() + 1f);
          return () -> query.each(move);
        }
      case 2:
        {
          final View2Query query = View2Query.of(w.registry);
          final View2Query.Visitor move = Work::move2;
          return () -> query.each(move);
        }
      case 3:
        {
          final View3Query query = View3Query.of(w.registry);
          final View3Query.Visitor move = Work::move3;
          return () -> query.each(move);
        }
      case 5:
        {
          final View5Query query = View5Query.of(w.registry);
          final View5Query.Visitor move = Work::move5;
          return () -> query.each(move);
        }
      default:
        throw new IllegalArgumentException("unknown arity " + w.components());
    }
  }

  private static Runnable dominion(final DominionWorld w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            for (final Position p : w.dominion.findCompositionsWith(Position.class)) {
              p.x += 1f;
            }
          };
      case 2 ->
          () -> {
            for (final Results.With2<Position, Velocity> r :
                w.dominion.findCompositionsWith(Position.class, Velocity.class)) {
              final Position p = r.comp1();
              final Velocity v = r.comp2();
              p.x += v.x * Work.DT;
              p.y += v.y * Work.DT;
            }
          };
      case 3 ->
          () -> {
            for (final Results.With3<Position, Velocity, Scale> r :
                w.dominion.findCompositionsWith(Position.class, Velocity.class, Scale.class)) {
              final Position p = r.comp1();
              final Velocity v = r.comp2();
              final float s = r.comp3().s * Work.DT;
              p.x += v.x * s;
              p.y += v.y * s;
            }
          };
      case 5 ->
          () -> {
            for (final Results.With5<Position, Velocity, Scale, Heat, Age> r :
                w.dominion.findCompositionsWith(
                    Position.class, Velocity.class, Scale.class, Heat.class, Age.class)) {
              final Position p = r.comp1();
              final Velocity v = r.comp2();
              final float s = r.comp3().s * Work.DT;
              p.x += v.x * s;
              p.y += v.y * s;
              r.comp4().value += 1f;
              r.comp5().value += 1f;
            }
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }
}
