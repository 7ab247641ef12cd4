package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One parallel chunk pass of an owning group: positions {@code [0, end)} cut into tasks of {@code
 * task} positions (the last one shorter), which the thread that starts the pass and helpers on a
 * pool take in order from a shared counter until none is left. A task visits its runs, each up to
 * the end of a page.
 *
 * <p>The starting thread takes part: a pass costs at most the wake-up of the pool threads it asks
 * for, and no hand-off back, and a helper that wakes late takes fewer tasks or none (it then
 * returns at once, touching nothing). The pass ends when every task has completed: the starting
 * thread, out of tasks, waits only for those other threads took, which are running, so it never
 * waits on a pool that is busy elsewhere, or on itself when it is one of the pool's threads.
 *
 * <p>While a pass of several tasks is under way it is listed in its registry's open passes: a
 * thread that would otherwise wait ({@link Registry#helpParallelPasses}, a schedule's thread whose
 * own system of a wave ended first) takes tasks too.
 *
 * <p>Tasks never throw: a run's exception is recorded ({@link #failure}) and the runs not started
 * yet are skipped. Nothing here allocates per task; a pass allocates itself and one submission per
 * helper.
 */
final class ChunkPass implements Runnable {

  /** How long the starting thread spins for the tasks of others before it parks, in nanoseconds. */
  private static final long SPIN_NANOS = 50_000;

  // Exactly one of the two bodies is set.
  private final RangeConsumer ranges;
  private final EntityRangeConsumer entities;
  private final long[] packed;
  private final int end;
  private final int chunk;
  private final int task;
  private final int tasks;
  // Where each task counts itself, or null (see Registry.countChunks).
  private final ChunkCounts counts;
  private final Thread starter = Thread.currentThread();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger completed = new AtomicInteger();
  private volatile boolean failed;
  private Throwable failure;

  /**
   * A pass over {@code [0, end)} in tasks of {@code task} positions, a multiple of the alignment,
   * started by the calling thread.
   */
  ChunkPass(
      final RangeConsumer ranges,
      final EntityRangeConsumer entities,
      final long[] packed,
      final int end,
      final int chunk,
      final int task,
      final ChunkCounts counts) {
    this.ranges = ranges;
    this.entities = entities;
    this.packed = packed;
    this.end = end;
    this.chunk = chunk;
    this.task = task;
    this.tasks = (int) (((long) end + task - 1) / task);
    this.counts = counts;
  }

  /**
   * Runs the pass on the calling thread and up to {@code helpers} threads of {@code pool}; returns
   * when every task has completed. A pool that refuses work leaves it all to the calling thread.
   *
   * @return the first exception a run threw, others attached, or {@code null}
   */
  Throwable run(
      final ForkJoinPool pool, final int helpers, final ConcurrentLinkedQueue<ChunkPass> open) {
    if (0 == helpers) {
      takeTasks();
      return failure;
    }
    // Listed while under way: a thread waiting for others (Registry.helpParallelPasses) helps too.
    open.add(this);
    try {
      for (int h = Math.min(helpers, tasks - 1); h > 0; h--) {
        pool.execute(this);
      }
    } catch (final RejectedExecutionException shutDown) {
      // The calling thread takes every task left.
    } finally {
      takeTasks();
      awaitTasks();
      open.remove(this);
    }
    return failure;
  }

  /** A helper, on a pool thread: takes tasks until none is left. */
  @Override
  public void run() {
    takeTasks();
  }

  /** Takes tasks until none is left; returns how many it ran. */
  int takeTasks() {
    int ran = 0;
    for (int t = next.getAndIncrement(); t < tasks; t = next.getAndIncrement()) {
      ran++;
      final int from = t * task;
      visit(from, (int) Math.min(end, (long) from + task));
      if (null != counts) {
        counts.ran();
      }
      if (completed.incrementAndGet() == tasks && Thread.currentThread() != starter) {
        LockSupport.unpark(starter);
      }
    }
    return ran;
  }

  /** Visits the runs of {@code [from, to)}, each up to the end of a page. */
  private void visit(final int from, final int to) {
    int start = from;
    while (start < to && !failed) {
      // Up to the end of the page: (start & -chunk) is the page's first position.
      final int stop = (int) Math.min(to, (long) (start & -chunk) + chunk);
      try {
        if (null != ranges) {
          ranges.accept(start, stop);
        } else {
          entities.accept(packed, start, stop);
        }
      } catch (final Throwable thrown) {
        fail(thrown);
      }
      start = stop;
    }
  }

  private synchronized void fail(final Throwable thrown) {
    failure = Failures.add(failure, thrown);
    failed = true;
  }

  /**
   * Waits, on the starting thread, until the tasks other threads took have completed: they are
   * running, so it spins a little first, then parks until the last one unparks it.
   */
  private void awaitTasks() {
    final long start = System.nanoTime();
    // The counter's last increment comes after each task's writes and failures: once it reads
    // every task completed, all of them are visible here.
    while (completed.get() < tasks) {
      if (System.nanoTime() - start < SPIN_NANOS) {
        Thread.onSpinWait();
      } else {
        LockSupport.park(this);
      }
    }
  }
}
