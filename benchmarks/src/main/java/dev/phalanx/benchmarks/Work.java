package dev.phalanx.benchmarks;

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
}
