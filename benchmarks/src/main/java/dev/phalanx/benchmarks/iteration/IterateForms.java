package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Cursor;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Scale_Cursor;
import dev.phalanx.benchmarks.components.Scale_Storage;
import dev.phalanx.benchmarks.components.Scale_Traits;
import dev.phalanx.benchmarks.components.StablePosition_Storage;
import dev.phalanx.benchmarks.components.StablePosition_Traits;
import dev.phalanx.benchmarks.components.Velocity_Cursor;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.model.Age;
import dev.phalanx.benchmarks.model.Heat;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.queries.StableView1Query;
import dev.phalanx.benchmarks.queries.View2OptionalQuery;
import dev.phalanx.benchmarks.queries.View2Query;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RuntimeView;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.View2;
import dev.phalanx.ecs.View3;
import java.util.function.IntPredicate;
import java.util.function.LongConsumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Other Phalanx forms of {@link Iterate}'s work, Phalanx only; the {@code form} parameter names the
 * form and its arity (see {@link Folded} for why the choice costs nothing measured):
 *
 * <ul>
 *   <li>{@code typedView2}, {@code typedView3}: the runtime's typed view ({@code
 *       registry.typedView(...)}, no declared query), the same cursors as {@code Iterate}'s {@code
 *       phalanx}, moved by the runtime's loop.
 *   <li>{@code pages1}: iterate1 without a view, walking the Position storage's {@code x} pages
 *       directly ({@code xPages()}, {@code pageSize()}, {@code size()}).
 *   <li>{@code pages2}: iterate2 as a view written by hand over the page arrays: walk Position's
 *       packed entities, find each one's Velocity position ({@code indexOf}), and read and write
 *       the {@code float[]} pages at both positions; what {@code View2Query.each} does, without the
 *       cursors and the per-entity visitor call.
 *   <li>{@code stable1}: iterate1 over an in-place (stable) storage
 *       ({@code @Component(inPlaceDelete = true)}) through {@code StableView1Query.each}, which
 *       checks every packed slot for a tombstone; the storage has no holes, as in EnTT's stable
 *       benchmark.
 *   <li>{@code objectStorage2}: iterate2 with the runtime view over object storages (one {@code
 *       Position} / {@code Velocity} object per entity, as the peers store them), the callback
 *       reading the components with {@code storage.get(e)}.
 *   <li>{@code runtimeView2}, {@code runtimeView3}: a runtime view (storages chosen at run time, no
 *       generated query) over the struct-of-arrays storages; the callback gets an entity, finds its
 *       position in each storage ({@code index}) and reads and writes the fields by position.
 *   <li>{@code runtimeViewPositions2}, {@code runtimeViewPositions3}: the same body taking each
 *       entity's positions from the view ({@code each(RuntimeView.PositionVisitor)}).
 *   <li>{@code half2}, {@code one2}: {@code View2Query.each} where every entity has a Position and
 *       only odd ones (half) or one a Velocity; time is per entity of the world, not per match.
 *   <li>{@code optional2}, {@code plain2}: iterate2 over a world where every entity also has a
 *       Scale, through {@code View2OptionalQuery.each} (Scale an optional term, filled in the
 *       lead's order: its cursor walks each run with the included ones', the visitor scaling by it
 *       when present) and, beside it, through {@code View2Query.each}, the same query without the
 *       optional term; their difference is the cost of the optional term.
 * </ul>
 */
public class IterateForms extends IterationBenchmark {

  public static class Loop extends Folded.Loop {
    @Param({
      "typedView2",
      "typedView3",
      "pages1",
      "pages2",
      "stable1",
      "objectStorage2",
      "runtimeView2",
      "runtimeView3",
      "runtimeViewPositions2",
      "runtimeViewPositions3",
      "half2",
      "one2",
      "optional2",
      "plain2"
    })
    public String form;

    @Override
    protected Runnable build(final BenchmarkParams params) {
      return switch (form) {
        case "typedView2" -> typedView2(new PhalanxWorld(2, params));
        case "typedView3" -> typedView3(new PhalanxWorld(3, params));
        case "pages1" -> pages1(new PhalanxWorld(1, params));
        case "pages2" -> pages2(new PhalanxWorld(2, params));
        case "stable1" -> stable1(Sizes.entities(params));
        case "objectStorage2" -> objectStorage2(Sizes.entities(params));
        case "runtimeView2" -> runtimeView2(new PhalanxWorld(2, params), false);
        case "runtimeViewPositions2" -> runtimeView2(new PhalanxWorld(2, params), true);
        case "runtimeView3" -> runtimeView3(new PhalanxWorld(3, params), false);
        case "runtimeViewPositions3" -> runtimeView3(new PhalanxWorld(3, params), true);
        case "half2" -> sparse2(Sizes.entities(params), i -> 1 == (i & 1));
        case "one2" -> {
          final int n = Sizes.entities(params);
          yield sparse2(n, i -> n / 2 == i);
        }
        case "optional2" -> optional2(new PhalanxWorld(3, params));
        case "plain2" -> plain2(new PhalanxWorld(3, params));
        default -> throw new IllegalArgumentException("unknown form " + form);
      };
    }
  }

  @Benchmark
  public void phalanx(final Loop l) {
    l.loop.run();
  }

  private static Runnable typedView2(final PhalanxWorld w) {
    final View2<Position_Cursor, Velocity_Cursor> view =
        w.registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final View2.Visitor<Position_Cursor, Velocity_Cursor> move = Work::move2;
    return () -> view.each(move);
  }

  private static Runnable typedView3(final PhalanxWorld w) {
    final View3<Position_Cursor, Velocity_Cursor, Scale_Cursor> view =
        w.registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE, Scale_Traits.TYPE);
    final View3.Visitor<Position_Cursor, Velocity_Cursor, Scale_Cursor> move = Work::move3;
    return () -> view.each(move);
  }

  private static Runnable pages1(final PhalanxWorld w) {
    return () -> {
      final Position_Storage positions = w.positions;
      final float[][] pages = positions.xPages();
      final int size = positions.size();
      final int pageSize = positions.pageSize();
      for (int page = 0, from = 0; from < size; page++, from += pageSize) {
        final float[] x = pages[page];
        final int end = Math.min(pageSize, size - from);
        for (int i = 0; i < end; i++) {
          x[i] += 1f;
        }
      }
    };
  }

  private static Runnable pages2(final PhalanxWorld w) {
    return () -> {
      final Position_Storage positions = w.positions;
      final Velocity_Storage velocities = w.velocities;
      final long[] packed = positions.packed();
      final float[][] px = positions.xPages();
      final float[][] py = positions.yPages();
      final float[][] vx = velocities.xPages();
      final float[][] vy = velocities.yPages();
      final int shift = positions.pageShift();
      final int mask = positions.pageSize() - 1;
      for (int p = positions.size() - 1; p >= 0; p--) {
        final int q = velocities.indexOf(packed[p]);
        if (q < 0) {
          continue;
        }
        final float[] vxPage = vx[q >>> shift];
        final float[] vyPage = vy[q >>> shift];
        final float[] pxPage = px[p >>> shift];
        final float[] pyPage = py[p >>> shift];
        pxPage[p & mask] += vxPage[q & mask] * Work.DT;
        pyPage[p & mask] += vyPage[q & mask] * Work.DT;
      }
    };
  }

  private static Runnable stable1(final int n) {
    final Registry registry = new Registry();
    final StablePosition_Storage positions = registry.storage(StablePosition_Traits.TYPE);
    for (int i = 0; i < n; i++) {
      positions.emplace(registry.create(), Work.x(i), Work.x(i));
    }
    final StableView1Query query = StableView1Query.of(registry);
    final StableView1Query.Visitor move = (e, p) -> p.setX(p.x() + 1f);
    return () -> query.each(move);
  }

  /** Object-storage keys (one reference per element) of the plain model classes. */
  private static final ComponentType<Position, ObjectStorage<Position>> POSITION =
      ComponentType.object(Position.class);

  private static final ComponentType<Velocity, ObjectStorage<Velocity>> VELOCITY =
      ComponentType.object(Velocity.class);

  private static final ComponentType<Scale, ObjectStorage<Scale>> SCALE =
      ComponentType.object(Scale.class);

  private static final ComponentType<Heat, ObjectStorage<Heat>> HEAT =
      ComponentType.object(Heat.class);

  private static final ComponentType<Age, ObjectStorage<Age>> AGE = ComponentType.object(Age.class);

  /**
   * A registry of object storages of the five model classes whose n entities have a Position and a
   * Velocity object, created one entity at a time as an application would, and iterate2 with the
   * runtime view over them, reading the components with {@code storage.get(e)}.
   */
  private static Runnable objectStorage2(final int n) {
    final Registry registry = new Registry();
    final ObjectStorage<Position> positions = registry.storage(POSITION);
    final ObjectStorage<Velocity> velocities = registry.storage(VELOCITY);
    registry.storage(SCALE);
    registry.storage(HEAT);
    registry.storage(AGE);
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      final Position p = new Position();
      p.x = Work.x(i);
      p.y = Work.x(i);
      registry.emplace(e, POSITION, p);
      final Velocity v = new Velocity();
      v.x = Work.v(i);
      v.y = Work.v(i);
      registry.emplace(e, VELOCITY, v);
    }
    final View view = registry.view(POSITION, VELOCITY);
    final LongConsumer move =
        e -> {
          final Position p = positions.get(e);
          final Velocity v = velocities.get(e);
          p.x += v.x * Work.DT;
          p.y += v.y * Work.DT;
        };
    return () -> view.each(move);
  }

  private static Runnable runtimeView2(final PhalanxWorld w, final boolean positionsForm) {
    final Position_Storage positions = w.positions;
    final Velocity_Storage velocities = w.velocities;
    final RuntimeView view = new RuntimeView().iterate(positions).iterate(velocities);
    if (positionsForm) {
      final RuntimeView.PositionVisitor moveAt =
          (e, at) -> {
            final int p = at[0];
            final int v = at[1];
            positions.setXAt(p, positions.xAt(p) + velocities.xAt(v) * Work.DT);
            positions.setYAt(p, positions.yAt(p) + velocities.yAt(v) * Work.DT);
          };
      return () -> view.each(moveAt);
    }
    final LongConsumer move =
        e -> {
          final int p = positions.index(e);
          final int v = velocities.index(e);
          positions.setXAt(p, positions.xAt(p) + velocities.xAt(v) * Work.DT);
          positions.setYAt(p, positions.yAt(p) + velocities.yAt(v) * Work.DT);
        };
    return () -> view.each(move);
  }

  private static Runnable runtimeView3(final PhalanxWorld w, final boolean positionsForm) {
    final Position_Storage positions = w.positions;
    final Velocity_Storage velocities = w.velocities;
    final Scale_Storage scales = w.scales;
    final RuntimeView view =
        new RuntimeView().iterate(positions).iterate(velocities).iterate(scales);
    if (positionsForm) {
      final RuntimeView.PositionVisitor moveAt =
          (e, at) -> {
            final int p = at[0];
            final int v = at[1];
            final float f = scales.sAt(at[2]) * Work.DT;
            positions.setXAt(p, positions.xAt(p) + velocities.xAt(v) * f);
            positions.setYAt(p, positions.yAt(p) + velocities.yAt(v) * f);
          };
      return () -> view.each(moveAt);
    }
    final LongConsumer move =
        e -> {
          final int p = positions.index(e);
          final int v = velocities.index(e);
          final float f = scales.sAt(scales.index(e)) * Work.DT;
          positions.setXAt(p, positions.xAt(p) + velocities.xAt(v) * f);
          positions.setYAt(p, positions.yAt(p) + velocities.yAt(v) * f);
        };
    return () -> view.each(move);
  }

  /**
   * iterate2 over n entities with a Position, those {@code withVelocity} selects with a Velocity.
   */
  /** iterate2 with Scale, which every entity has, as an optional term. */
  private static Runnable optional2(final PhalanxWorld w) {
    final View2OptionalQuery query = View2OptionalQuery.of(w.registry);
    final View2OptionalQuery.Visitor move = Work::move2Scaled;
    return () -> query.each(move);
  }

  /** {@link #optional2}'s world and query without the optional term. */
  private static Runnable plain2(final PhalanxWorld w) {
    final View2Query query = View2Query.of(w.registry);
    final View2Query.Visitor move = Work::move2;
    return () -> query.each(move);
  }

  private static Runnable sparse2(final int n, final IntPredicate withVelocity) {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      if (withVelocity.test(i)) {
        velocities.emplace(e, Work.v(i), Work.v(i));
      }
    }
    final View2Query query = View2Query.of(registry);
    final View2Query.Visitor move = Work::move2;
    return () -> query.each(move);
  }
}
