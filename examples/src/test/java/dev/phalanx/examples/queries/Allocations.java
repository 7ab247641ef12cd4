package dev.phalanx.examples.queries;

import java.lang.management.ManagementFactory;

/**
 * Measures the bytes the current thread allocates, for the zero-allocation tests.
 *
 * <p>A loop that allocates on every call shows it in every attempt; a one-off event of the JVM (a
 * deoptimization, a class loaded, a safepoint's bookkeeping) shows in one attempt only. So {@link
 * #allocatedBy} returns the least of several attempts: it is zero only when some attempt of 20
 * calls allocated nothing at all, which a per-call allocation cannot do.
 */
final class Allocations {

  /** How many attempts {@link #allocatedBy} makes. */
  private static final int ATTEMPTS = 5;

  /** How many times each attempt runs the action. */
  private static final int CALLS = 20;

  private Allocations() {}

  /**
   * Returns the least number of bytes the current thread allocated running {@code action} 20 times.
   */
  static long allocatedBy(final Runnable action) {
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      final long start = threads.getThreadAllocatedBytes(id);
      final long overhead = threads.getThreadAllocatedBytes(id) - start;
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < CALLS; i++) {
        action.run();
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before - overhead);
    }
    return least;
  }
}
