package dev.phalanx.ecs.schedule;

import java.util.List;

/**
 * How long a system (or a whole frame) took over the latest runs the schedule keeps (its timing
 * window), in nanoseconds of wall-clock time on the thread that ran it. A snapshot: it does not
 * change when the schedule runs on.
 *
 * @param system the system's name, or {@code "frame"} for whole frames
 * @param stage the system's stage, or {@code ""} for whole frames
 * @param runs how many times the system ran since the schedule was built (skipped runs, where the
 *     run condition failed or the system was {@linkplain Schedule#disable disabled}, paused or not
 *     stepped, not counted)
 * @param samples how many of those runs the window holds (0 for every system when the schedule does
 *     not {@linkplain ScheduleBuilder#timeSystems time systems})
 * @param meanNanos the mean over the window
 * @param p50Nanos the median over the window (nearest rank)
 * @param p95Nanos the 95th percentile over the window (nearest rank)
 * @param maxNanos the longest run in the window
 * @param chunksByThread how many tasks of the parallel chunk passes the system started (an {@code
 *     OwningGroup}'s or a generated query's {@code parallelEachChunk}) ran on each thread since the
 *     schedule was built: element 0 on threads outside any pool (the schedule's thread, which takes
 *     tasks of every pass it starts when the system runs there), element {@code i + 1} on the
 *     worker of pool index {@code i} (the last element also counts higher indices); up to the last
 *     thread that ran one, empty if none did (and for whole frames, and when the schedule does not
 *     time systems)
 */
public record SystemTiming(
    String system,
    String stage,
    long runs,
    int samples,
    double meanNanos,
    long p50Nanos,
    long p95Nanos,
    long maxNanos,
    List<Long> chunksByThread) {

  /**
   * A timing; copies the chunk counts, as a timing is a snapshot.
   *
   * @param system the system's name, or {@code "frame"}
   * @param stage the system's stage, or {@code ""}
   * @param runs how many times the system ran
   * @param samples how many runs the window holds
   * @param meanNanos the mean over the window
   * @param p50Nanos the median over the window
   * @param p95Nanos the 95th percentile over the window
   * @param maxNanos the longest run in the window
   * @param chunksByThread the parallel chunk tasks the system's passes ran on each thread
   */
  public SystemTiming {
    chunksByThread = List.copyOf(chunksByThread);
  }

  /**
   * A timing with no chunk counts.
   *
   * @param system the system's name, or {@code "frame"}
   * @param stage the system's stage, or {@code ""}
   * @param runs how many times the system ran
   * @param samples how many runs the window holds
   * @param meanNanos the mean over the window
   * @param p50Nanos the median over the window
   * @param p95Nanos the 95th percentile over the window
   * @param maxNanos the longest run in the window
   */
  public SystemTiming(
      final String system,
      final String stage,
      final long runs,
      final int samples,
      final double meanNanos,
      final long p50Nanos,
      final long p95Nanos,
      final long maxNanos) {
    this(system, stage, runs, samples, meanNanos, p50Nanos, p95Nanos, maxNanos, List.of());
  }
}
