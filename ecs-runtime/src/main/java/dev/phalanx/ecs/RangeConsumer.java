package dev.phalanx.ecs;

/**
 * Receives a run of contiguous positions {@code [from, to)} of a group. For an owning group the run
 * lies within one payload page of every owned storage, so the body can index the page arrays of
 * each field directly: a plain counted loop the JIT can unroll and vectorize.
 */
@FunctionalInterface
public interface RangeConsumer {
  /**
   * Called once per run.
   *
   * @param from the first position, inclusive
   * @param to the last position, exclusive; {@code from < to}
   */
  void accept(int from, int to);
}
