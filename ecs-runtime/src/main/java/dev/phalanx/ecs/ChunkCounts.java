package dev.phalanx.ecs;

import java.util.concurrent.ForkJoinWorkerThread;

/**
 * How many tasks of parallel chunk passes ran on each thread: slot 0 for a thread outside any pool
 * (the one that started the pass, when the pass fits one task), slot {@code i + 1} for the pool
 * worker of index {@code i}, and the last slot for every worker of index {@value #SLOTS} - 2 and
 * above: how a parallel pass spread over a pool. Hand a {@link Source} to {@link
 * Registry#countChunks} and every pass then counts its tasks into what the source returns for the
 * thread that starts the pass (a schedule keeps counts per system); each slot is written by its own
 * thread, and read once every task has joined.
 */
public final class ChunkCounts {

  /** The number of slots. */
  public static final int SLOTS = 64;

  /**
   * Where a parallel pass finds the counts of the code that starts it, on the thread that starts
   * it: {@code null} for no counting.
   */
  @FunctionalInterface
  public interface Source {
    /** {@return the counts for a pass started on the calling thread, or {@code null}} */
    ChunkCounts forThisThread();
  }

  private final long[] counts = new long[SLOTS];

  /** Creates counts of zero. */
  public ChunkCounts() {}

  /** Counts one task run on the calling thread. */
  public void ran() {
    final Thread thread = Thread.currentThread();
    final int slot =
        thread instanceof ForkJoinWorkerThread worker
            ? Math.min(SLOTS - 1, worker.getPoolIndex() + 1)
            : 0;
    counts[slot]++;
  }

  /**
   * {@return the count of slot {@code slot}}
   *
   * @param slot a slot, {@code [0, SLOTS)}
   */
  public long at(final int slot) {
    return counts[slot];
  }
}
