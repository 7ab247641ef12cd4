package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.phalanx.ecs.Registry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A query of 1,000 entities with two components, their field values included, answers within 5 ms:
 * the median of a round of 30 calls through HTTP on loopback (the game thread serving every 0.1
 * ms), the best of up to five rounds so that a burst of other work on a shared machine does not
 * decide it; and the work on the game thread alone, serialization included, in CPU time.
 */
class LatencyTest {

  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private static final String QUERY =
      "{\"with\": [\"Position\", \"Velocity\"], \"limit\": 1000, \"values\": true}";

  @Test
  void aThousandEntitiesWithTwoComponentsAnswerWithinFiveMilliseconds() throws Exception {
    final Registry registry = new Registry();
    for (int i = 0; i < 1000; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i, i);
      registry.storage(Velocity_Traits.TYPE).emplace(e, 1, 1);
    }
    try (TestWorld world = new TestWorld(registry, b -> {}, 100_000)) {
      for (int i = 0; i < 60; i++) {
        assertEquals(1000, world.result("world.query", QUERY).get("entities").size());
      }
      double best = Double.MAX_VALUE;
      for (int round = 0; round < 5 && best >= 5; round++) {
        final long[] nanos = new long[30];
        for (int i = 0; i < nanos.length; i++) {
          final long start = System.nanoTime();
          world.call("world.query", QUERY);
          nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        best = Math.min(best, nanos[nanos.length / 2] / 1e6);
      }
      final Methods methods = new Methods(registry, null, TestWorld.JSON);
      final ObjectNode params = (ObjectNode) TestWorld.parse(QUERY);
      // Rounds of 20 until the median is under the bound or 20 s have passed: on a loaded machine
      // the JIT's threads wait for a core too, and the first rounds may still run interpreted.
      double gameBest = Double.MAX_VALUE;
      final long until = System.nanoTime() + 20_000_000_000L;
      while (gameBest >= 5 && System.nanoTime() < until) {
        final long[] inside = new long[20];
        for (int i = 0; i < inside.length; i++) {
          final int at = i;
          inside[at] =
              world.onGame(
                  () -> {
                    final long start = CPU.getCurrentThreadCpuTime();
                    TestWorld.JSON.writeValueAsBytes(methods.run("world.query", params, false));
                    return CPU.getCurrentThreadCpuTime() - start;
                  });
        }
        Arrays.sort(inside);
        gameBest = Math.min(gameBest, inside[inside.length / 2] / 1e6);
      }
      final double median = best;
      final double game = gameBest;
      System.out.printf(
          "query of 1,000 entities x 2 components with values: median %.2f ms through HTTP,"
              + " %.2f ms of CPU on the game thread%n",
          median, game);
      assertTrue(game < 5, () -> "median " + game + " ms of CPU on the game thread");
      // Wall time through HTTP means something only on a machine that is not oversubscribed:
      // with more runnable threads than cores, each of the call's three threads (client, server,
      // game) waits for a core in turn. The check above, in CPU time, holds either way.
      final double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      final int cores = Runtime.getRuntime().availableProcessors();
      if (load < cores) {
        assertTrue(median < 5, () -> "median " + median + " ms through HTTP");
      } else {
        System.out.printf(
            "not checking the HTTP median: the load average is %.1f on %d cores%n", load, cores);
      }
    }
  }

  @Test
  void aPageOfAMillionEntitiesCostsNoFullListing() throws Exception {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    for (int i = 0; i < 1_000_000; i++) {
      positions.emplace(registry.create(), i, i);
    }
    try (TestWorld world = new TestWorld(registry, b -> {}, 100_000)) {
      final Methods methods = new Methods(registry, null, TestWorld.JSON);
      final String[][] calls = {
        {"world.stats", "{}"},
        {"world.list_storages", "{}"},
        {"world.query", "{\"limit\": 50}"},
        {"world.query", "{\"limit\": 50, \"cursor\": 999950, \"with\": [\"Position\"]}"},
        {"world.get_components", "{\"entity\": \"999999\"}"},
      };
      for (final String[] call : calls) {
        final ObjectNode params = (ObjectNode) TestWorld.parse(call[1]);
        final long[] cpu = new long[20];
        for (int i = -20; i < cpu.length; i++) {
          final int at = i;
          final long took =
              world.onGame(
                  () -> {
                    final long start = CPU.getCurrentThreadCpuTime();
                    TestWorld.JSON.writeValueAsBytes(methods.run(call[0], params, false));
                    return CPU.getCurrentThreadCpuTime() - start;
                  });
          if (at >= 0) {
            cpu[at] = took;
          }
        }
        Arrays.sort(cpu);
        final double median = cpu[cpu.length / 2] / 1e6;
        System.out.printf("1M entities: %s %s: %.3f ms of CPU%n", call[0], call[1], median);
        assertTrue(median < 5, () -> call[0] + " took " + median + " ms on a million entities");
      }
      assertEquals(50, world.result("world.query", "{\"limit\": 50}").get("entities").size());
    }
  }
}
