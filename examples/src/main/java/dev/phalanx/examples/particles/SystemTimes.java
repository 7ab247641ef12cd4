package dev.phalanx.examples.particles;

import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.SystemTiming;
import java.util.Locale;

/**
 * The table printed at the end of a run: mean, median, 95th percentile and maximum milliseconds per
 * frame of each system, and of whole frames, as the {@link Schedule} measured them over its timing
 * window (the last {@code frames} frames), and how many tasks of each system's parallel chunk
 * passes ran on each thread over the run (the thread outside the pool first, then each pool
 * worker).
 */
public final class SystemTimes {

  private final Schedule schedule;

  /** Creates the table over the timings of {@code schedule}. */
  public SystemTimes(final Schedule schedule) {
    this.schedule = schedule;
  }

  /** Returns the number of frames the timings cover. */
  public int frames() {
    return schedule.frameTiming().samples();
  }

  /** Returns the mean time of a whole frame (every system), in milliseconds. */
  public double meanFrameMillis() {
    return schedule.frameTiming().meanNanos() / 1e6;
  }

  /** Returns the per-system table, one row per system and a whole-frame row, as Markdown. */
  public String table() {
    final StringBuilder text = new StringBuilder();
    text.append(
        "| system        |  mean ms |   p50 ms |   p95 ms |   max ms | chunks by thread |\n");
    text.append(
        "|---------------|---------:|---------:|---------:|---------:|------------------|\n");
    for (final SystemTiming timing : schedule.timings()) {
      row(text, timing.system(), timing);
    }
    row(text, "frame (total)", schedule.frameTiming());
    return text.toString();
  }

  private static void row(final StringBuilder text, final String name, final SystemTiming timing) {
    text.append(
        String.format(
            Locale.ROOT,
            "| %-13s | %8.3f | %8.3f | %8.3f | %8.3f | %-16s |%n",
            name,
            timing.meanNanos() / 1e6,
            timing.p50Nanos() / 1e6,
            timing.p95Nanos() / 1e6,
            timing.maxNanos() / 1e6,
            chunks(timing)));
  }

  // "12 / 40 / 38": tasks on the thread outside the pool, then on each worker; "-" for none.
  private static String chunks(final SystemTiming timing) {
    if (timing.chunksByThread().isEmpty()) {
      return "-";
    }
    final StringBuilder text = new StringBuilder();
    for (final long count : timing.chunksByThread()) {
      text.append(text.length() == 0 ? "" : " / ").append(count);
    }
    return text.toString();
  }
}
