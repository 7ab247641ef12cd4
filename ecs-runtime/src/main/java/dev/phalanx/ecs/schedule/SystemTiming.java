package dev.phalanx.ecs.schedule;

/**
 * How long a system (or a whole frame) took over the latest runs the schedule keeps (its timing
 * window), in nanoseconds of wall-clock time on the thread that ran it. A snapshot: it does not
 * change when the schedule runs on.
 *
 * @param system the system's name, or {@code "frame"} for whole frames
 * @param stage the system's stage, or {@code ""} for whole frames
 * @param runs how many times the system ran since the schedule was built (skipped runs, where the
 *     run condition failed, not counted)
 * @param samples how many of those runs the window holds (0 for every system when the schedule does
 *     not {@linkplain ScheduleBuilder#timeSystems time systems})
 * @param meanNanos the mean over the window
 * @param p50Nanos the median over the window (nearest rank)
 * @param p95Nanos the 95th percentile over the window (nearest rank)
 * @param maxNanos the longest run in the window
 */
public record SystemTiming(
    String system,
    String stage,
    long runs,
    int samples,
    double meanNanos,
    long p50Nanos,
    long p95Nanos,
    long maxNanos) {}
