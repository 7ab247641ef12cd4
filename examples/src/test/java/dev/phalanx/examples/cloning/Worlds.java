package dev.phalanx.examples.cloning;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.SnapshotDump;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/** Test helpers: a world's fingerprint, allocation probes. */
final class Worlds {

  private Worlds() {}

  /**
   * Returns every live entity of {@code registry} with every component and field (hierarchy links
   * included), in handle order: two registries print the same exactly when they hold the same
   * entities with the same values, whatever the order of their storages' elements.
   */
  static String print(final Registry registry) {
    final long[] live = Arrays.copyOf(registry.entities().packed(), registry.alive());
    Arrays.sort(live);
    final StringBuilder text = new StringBuilder();
    try {
      SnapshotDump.write(registry, live, text);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
    final int components = text.indexOf("\"components\"");
    return Arrays.toString(live) + text.substring(components);
  }

  /**
   * Returns the least number of bytes the current thread allocated running {@code action} 20 times,
   * over 5 attempts (a one-off JVM event shows in one attempt only).
   */
  static long allocatedBy(final Runnable action) {
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long start = threads.getThreadAllocatedBytes(id);
      final long overhead = threads.getThreadAllocatedBytes(id) - start;
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 20; i++) {
        action.run();
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before - overhead);
    }
    return least;
  }
}
