package dev.phalanx.benchmarks.worlds;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.Partial_Age_Cursor;
import dev.phalanx.benchmarks.queries.Partial_Age_Storage;
import dev.phalanx.benchmarks.queries.Partial_Age_Traits;
import dev.phalanx.benchmarks.queries.Partial_Heat_Cursor;
import dev.phalanx.benchmarks.queries.Partial_Heat_Storage;
import dev.phalanx.benchmarks.queries.Partial_Heat_Traits;
import dev.phalanx.benchmarks.queries.Partial_Position_Cursor;
import dev.phalanx.benchmarks.queries.Partial_Position_Storage;
import dev.phalanx.benchmarks.queries.Partial_Position_Traits;
import dev.phalanx.benchmarks.queries.Partial_Scale_Cursor;
import dev.phalanx.benchmarks.queries.Partial_Scale_Storage;
import dev.phalanx.benchmarks.queries.Partial_Scale_Traits;
import dev.phalanx.benchmarks.queries.Partial_Velocity_Cursor;
import dev.phalanx.benchmarks.queries.Partial_Velocity_Storage;
import dev.phalanx.benchmarks.queries.Partial_Velocity_Traits;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The world of the partial-owning groups, over the component copies of {@code Partial} (same fields
 * and generated storages as the main components; other keys, since these groups are not nested with
 * the full-owning family): entities with the first {@code components} (2, 3 or 5) of its Position,
 * Velocity, Scale, Heat, Age. Same entities and values as {@link PhalanxWorld}.
 *
 * <p>{@code moveN} are {@link Work}'s bodies over these copies' cursors, passed as method
 * references ({@code PartialWorld::move5}): each expression is a class of its own, as the lambda it
 * replaces was.
 */
public final class PartialWorld {
  public final Registry registry = new Registry();
  public final Partial_Position_Storage positions = registry.storage(Partial_Position_Traits.TYPE);
  public final Partial_Velocity_Storage velocities = registry.storage(Partial_Velocity_Traits.TYPE);
  public final Partial_Scale_Storage scales = registry.storage(Partial_Scale_Traits.TYPE);
  public final Partial_Heat_Storage heats = registry.storage(Partial_Heat_Traits.TYPE);
  public final Partial_Age_Storage ages = registry.storage(Partial_Age_Traits.TYPE);

  public PartialWorld(final int components, final BenchmarkParams params) {
    final int n = Sizes.entities(params);
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
      if (components >= 3) {
        scales.emplace(e, 1f);
      }
      if (components >= 5) {
        heats.emplace(e, 0f);
        ages.emplace(e, 0f);
      }
    }
  }

  /** iterate2 through cursors. */
  public static void move2(
      final long e, final Partial_Position_Cursor p, final Partial_Velocity_Cursor v) {
    p.setX(p.x() + v.x() * Work.DT);
    p.setY(p.y() + v.y() * Work.DT);
  }

  /** iterate3 through cursors. */
  public static void move3(
      final long e,
      final Partial_Position_Cursor p,
      final Partial_Velocity_Cursor v,
      final Partial_Scale_Cursor s) {
    final float f = s.s() * Work.DT;
    p.setX(p.x() + v.x() * f);
    p.setY(p.y() + v.y() * f);
  }

  /** iterate5 through cursors. */
  public static void move5(
      final long e,
      final Partial_Position_Cursor p,
      final Partial_Velocity_Cursor v,
      final Partial_Scale_Cursor s,
      final Partial_Heat_Cursor h,
      final Partial_Age_Cursor a) {
    final float f = s.s() * Work.DT;
    p.setX(p.x() + v.x() * f);
    p.setY(p.y() + v.y() * f);
    h.setValue(h.value() + 1f);
    a.setValue(a.value() + 1f);
  }
}
