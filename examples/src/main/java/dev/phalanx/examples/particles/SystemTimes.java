package dev.phalanx.examples.particles;

import java.util.Arrays;
import java.util.Locale;

/**
 * Wall-clock time of each system in each frame, and the table printed at the end of a run: mean,
 * median, 95th percentile and maximum milliseconds per frame.
 */
public final class SystemTimes {

  private final String[] names;
  private final long[][] nanos;
  private int frames;

  /** Creates a recorder for {@code capacity} frames of the systems called {@code names}. */
  public SystemTimes(final int capacity, final String... names) {
    this.names = names.clone();
    this.nanos = new long[names.length][Math.max(1, capacity)];
  }

  /** Records that system {@code system} took {@code elapsed} nanoseconds in the current frame. */
  public void record(final int system, final long elapsed) {
    if (frames < nanos[system].length) {
      nanos[system][frames] = elapsed;
    }
  }

  /** Closes the current frame. */
  public void endFrame() {
    frames = Math.min(frames + 1, nanos[0].length);
  }

  /** Returns the number of frames recorded. */
  public int frames() {
    return frames;
  }

  /** Returns the mean time of a whole frame (every system), in milliseconds. */
  public double meanFrameMillis() {
    double total = 0;
    for (int s = 0; s < names.length; s++) {
      total += mean(nanos[s]);
    }
    return total / 1e6;
  }

  /** Returns the per-system table, one row per system and a total row, as Markdown. */
  public String table() {
    final StringBuilder text = new StringBuilder();
    text.append("| system        |  mean ms |   p50 ms |   p95 ms |   max ms |\n");
    text.append("|---------------|---------:|---------:|---------:|---------:|\n");
    final long[] total = new long[frames];
    for (int s = 0; s < names.length; s++) {
      for (int f = 0; f < frames; f++) {
        total[f] += nanos[s][f];
      }
      row(text, names[s], nanos[s]);
    }
    row(text, "frame (total)", total);
    return text.toString();
  }

  private void row(final StringBuilder text, final String name, final long[] samples) {
    final long[] sorted = Arrays.copyOf(samples, frames);
    Arrays.sort(sorted);
    text.append(
        String.format(
            Locale.ROOT,
            "| %-13s | %8.3f | %8.3f | %8.3f | %8.3f |%n",
            name,
            mean(samples) / 1e6,
            percentile(sorted, 0.50) / 1e6,
            percentile(sorted, 0.95) / 1e6,
            (0 == frames ? 0 : sorted[frames - 1]) / 1e6));
  }

  private double mean(final long[] samples) {
    long sum = 0;
    for (int f = 0; f < frames; f++) {
      sum += samples[f];
    }
    return 0 == frames ? 0 : (double) sum / frames;
  }

  private static double percentile(final long[] sorted, final double p) {
    if (0 == sorted.length) {
      return 0;
    }
    // Nearest rank: the smallest sample with at least p of the samples at or below it.
    final int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
