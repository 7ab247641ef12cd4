package dev.phalanx.ecs.inspector;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.SystemTiming;
import java.util.List;

/**
 * The last minutes of the world, for the page's charts ({@code world.history}): a ring of samples
 * taken on the game thread at most once per interval, each the time it was taken, the live entity
 * count and, with a schedule attached, the mean time of whole frames and of each system over the
 * schedule's timing window at that moment.
 *
 * <p>Costs: {@link #sample} reads the clock and returns, except once per interval, when it reads
 * the schedule's timings (a summary of its window, a few hundred bytes of garbage). Memory: a
 * {@code long}, a {@code long} and a {@code double} per sample, plus a {@code double} per sample
 * and system. Not thread-safe: the game thread samples and answers.
 */
final class History {

  private final Registry registry;
  private final Schedule schedule;
  private final long everyNanos;
  private final long start;
  private final long[] millis;
  private final long[] alive;
  private final double[] frameMillis;
  // Per system of the schedule's plan, in its order, a ring like the others; null without one.
  private final String[] systems;
  private final double[][] systemMillis;
  private int size;
  private int next;
  private long lastSample;

  /**
   * A history of {@code capacity} samples, one per {@code everyNanos} at most.
   *
   * @param registry the world
   * @param schedule its schedule, or {@code null}
   * @param everyNanos the least time between samples
   * @param capacity how many samples are kept (0: none are taken)
   * @param now the current {@link System#nanoTime()}
   */
  History(
      final Registry registry,
      final Schedule schedule,
      final long everyNanos,
      final int capacity,
      final long now) {
    this.registry = registry;
    this.schedule = schedule;
    this.everyNanos = everyNanos;
    this.start = now;
    this.lastSample = now - everyNanos;
    this.millis = new long[capacity];
    this.alive = new long[capacity];
    this.frameMillis = new double[capacity];
    final List<String> names = null == schedule ? List.of() : schedule.systems();
    this.systems = names.toArray(new String[0]);
    this.systemMillis = new double[systems.length][capacity];
  }

  /** Takes a sample if an interval passed since the last one; {@code now} is the clock. */
  void sample(final long now) {
    if (now - lastSample < everyNanos || 0 == millis.length) {
      return;
    }
    lastSample = now;
    millis[next] = (now - start) / 1_000_000L;
    alive[next] = registry.alive();
    if (null != schedule) {
      frameMillis[next] = schedule.frameTiming().meanNanos() / 1e6;
      final List<SystemTiming> timings = schedule.timings();
      for (int s = 0; s < systems.length && s < timings.size(); s++) {
        systemMillis[s][next] = timings.get(s).meanNanos() / 1e6;
      }
    }
    next = (next + 1) % millis.length;
    size = Math.min(size + 1, millis.length);
  }

  /** {@return the samples, oldest first, as the answer of {@code world.history}} */
  ObjectNode toJson(final JsonNodeFactory nodes) {
    final ObjectNode result = nodes.objectNode();
    result.put("everyMillis", everyNanos / 1_000_000L);
    result.put("capacity", millis.length);
    result.put("attached", null != schedule);
    final ArrayNode at = result.putArray("millis");
    final ArrayNode entities = result.putArray("alive");
    final ArrayNode frames = result.putArray("frameMillis");
    final int first = (next - size + millis.length) % Math.max(1, millis.length);
    for (int i = 0; i < size; i++) {
      final int k = (first + i) % millis.length;
      at.add(millis[k]);
      entities.add(alive[k]);
      frames.add(frameMillis[k]);
    }
    final ArrayNode perSystem = result.putArray("systems");
    for (int s = 0; s < systems.length; s++) {
      final ObjectNode system = perSystem.addObject().put("system", systems[s]);
      final ArrayNode values = system.putArray("millis");
      for (int i = 0; i < size; i++) {
        values.add(systemMillis[s][(first + i) % millis.length]);
      }
    }
    return result;
  }
}
