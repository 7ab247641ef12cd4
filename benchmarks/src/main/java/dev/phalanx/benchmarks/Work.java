package dev.phalanx.benchmarks;

import dev.phalanx.benchmarks.components.Age_Cursor;
import dev.phalanx.benchmarks.components.Heat_Cursor;
import dev.phalanx.benchmarks.components.Position_Cursor;
import dev.phalanx.benchmarks.components.Scale_Cursor;
import dev.phalanx.benchmarks.components.Velocity_Cursor;

/**
 * The work every implementation does per entity, so that rows compare like with like.
 *
 * <ul>
 *   <li>iterate1: {@code position.x += 1}
 *   <li>iterate2: {@code position += velocity * DT} (x and y, floats)
 *   <li>iterate3: {@code position += velocity * DT * scale}
 *   <li>iterate5: iterate3, plus {@code heat += 1} and {@code age += 1} (two more float components)
 * </ul>
 *
 * <p>Every write goes to memory reachable from a JMH state, so the JIT cannot drop it; reads that
 * produce no write (get workloads) are summed and returned.
 *
 * <p>The {@code moveN} and {@code chunkN} methods are those bodies over the generated cursors and
 * over {@code float[]} pages, for the queries' visitors and chunk visitors. A row passes them as
 * method references ({@code Work::move2}): each reference expression is a class of its own, as the
 * lambda it replaces was, and calls the same static method a lambda's body compiles to.
 */
public final class Work {

  /** The time step of the movement workloads. */
  public static final float DT = 1f / 60f;

  /** Default number of entities: the EnTT suite's 1M. */
  public static final int ENTITIES = 1_000_000;

  /** Number of entities of the sort workload (EnTT's 150k). */
  public static final int SORT_ENTITIES = 150_000;

  /** Number of entities the pathological workload starts with (EnTT's 500k). */
  public static final int PATHOLOGICAL_ENTITIES = 500_000;

  private Work() {}

  /** Initial x of entity {@code i}: small, varied, never growing past float precision in a run. */
  public static float x(final int i) {
    return (i & 1023) * 0.5f;
  }

  /** Initial velocity of entity {@code i}. */
  public static float v(final int i) {
    return 1f + (i & 7);
  }

  /** iterate2 through cursors. */
  public static void move2(final long e, final Position_Cursor p, final Velocity_Cursor v) {
    p.setX(p.x() + v.x() * DT);
    p.setY(p.y() + v.y() * DT);
  }

  /** iterate2, scaled as iterate3 when the entity has a Scale (an optional term), else not. */
  public static void move2Scaled(
      final long e, final Position_Cursor p, final Velocity_Cursor v, final Scale_Cursor s) {
    final float f = null == s ? DT : s.s() * DT;
    p.setX(p.x() + v.x() * f);
    p.setY(p.y() + v.y() * f);
  }

  /** iterate3 through cursors. */
  public static void move3(
      final long e, final Position_Cursor p, final Velocity_Cursor v, final Scale_Cursor s) {
    final float f = s.s() * DT;
    p.setX(p.x() + v.x() * f);
    p.setY(p.y() + v.y() * f);
  }

  /** iterate5 through cursors. */
  public static void move5(
      final long e,
      final Position_Cursor p,
      final Velocity_Cursor v,
      final Scale_Cursor s,
      final Heat_Cursor h,
      final Age_Cursor a) {
    final float f = s.s() * DT;
    p.setX(p.x() + v.x() * f);
    p.setY(p.y() + v.y() * f);
    h.setValue(h.value() + 1f);
    a.setValue(a.value() + 1f);
  }

  /** iterate2 over {@code [from, to)} of a chunk's pages. */
  public static void chunk2(
      final int from,
      final int to,
      final float[] px,
      final float[] py,
      final float[] vx,
      final float[] vy) {
    for (int i = from; i < to; i++) {
      px[i] += vx[i] * DT;
      py[i] += vy[i] * DT;
    }
  }

  /** iterate3 over {@code [from, to)} of a chunk's pages. */
  public static void chunk3(
      final int from,
      final int to,
      final float[] px,
      final float[] py,
      final float[] vx,
      final float[] vy,
      final float[] s) {
    for (int i = from; i < to; i++) {
      final float f = s[i] * DT;
      px[i] += vx[i] * f;
      py[i] += vy[i] * f;
    }
  }

  /** iterate5 over {@code [from, to)} of a chunk's pages. */
  public static void chunk5(
      final int from,
      final int to,
      final float[] px,
      final float[] py,
      final float[] vx,
      final float[] vy,
      final float[] s,
      final float[] h,
      final float[] a) {
    for (int i = from; i < to; i++) {
      final float f = s[i] * DT;
      px[i] += vx[i] * f;
      py[i] += vy[i] * f;
      h[i] += 1f;
      a[i] += 1f;
    }
  }
}
