package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many clients at once while the game thread runs frames. Each frame adds 1 to the points of every
 * counter (200 entities, in two passes, so that a call run mid-frame would see two values); calls
 * run between frames, so every query sees one value. Every call is answered, every spawn is in the
 * registry afterwards, and no serve() does more than its budget plus one call.
 */
class ConcurrencyTest {

  private static final int CLIENTS = 8;
  private static final int CALLS = 40;

  @Test
  void manyClientsWhileFramesRun() throws Exception {
    final Registry registry = new Registry();
    final List<Long> counters = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      final long e = registry.create();
      registry.storage(Health_Traits.TYPE).emplace(e, 0);
      counters.add(e);
    }
    registry.storage(Position_Traits.TYPE);
    final Health_Storage health = registry.storage(Health_Traits.TYPE);
    try (TestWorld world = new TestWorld(registry, b -> b.budget(Duration.ofMillis(1)), 200_000)) {
      world.frame(
          () -> {
            for (int half = 0; half < 2; half++) {
              for (int i = half; i < counters.size(); i += 2) {
                health.replace(counters.get(i), health.points(counters.get(i)) + 1);
              }
            }
          });
      // Warm up (class loading and the JIT make the first calls of a JVM slow), then measure.
      for (int i = 0; i < 30; i++) {
        world.result("world.query", "{\"with\": [\"Health\"], \"values\": true}");
        world.result("world.stats", null);
        world.result("world.spawn_entity", "{\"components\": {\"Position\": {}}}");
      }
      final long coldCpu = world.maxServeCpuNanos.getAndSet(0);
      world.maxServeNanos.set(0);
      world.maxCallsPerServe.set(0);
      final ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      final AtomicInteger spawned = new AtomicInteger();
      final Set<String> spawnedIds = java.util.Collections.synchronizedSet(new HashSet<>());
      final List<Future<Integer>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        final int client = c;
        done.add(
            clients.submit(
                () -> {
                  int answered = 0;
                  for (int call = 0; call < CALLS; call++) {
                    switch ((client + call) % 3) {
                      case 0 -> {
                        final JsonNode page =
                            world.result(
                                "world.query",
                                "{\"with\": [\"Health\"], \"values\": true, \"limit\": 1000}");
                        final Set<Integer> values = new HashSet<>();
                        for (final JsonNode entity : page.get("entities")) {
                          values.add(entity.get("components").get("Health").get("points").asInt());
                        }
                        assertEquals(1, values.size(), () -> "a half-applied frame: " + values);
                      }
                      case 1 -> {
                        final JsonNode result =
                            world.result(
                                "world.spawn_entity",
                                "{\"components\": {\"Position\": {\"x\": " + client + "}}}");
                        assertTrue(spawnedIds.add(result.get("entity").asText()));
                        spawned.incrementAndGet();
                      }
                      default -> assertTrue(world.result("world.stats", null).has("alive"));
                    }
                    answered++;
                  }
                  return answered;
                }));
      }
      int answered = 0;
      for (final Future<Integer> future : done) {
        answered += future.get();
      }
      clients.shutdown();
      assertEquals(CLIENTS * CALLS, answered);
      assertEquals(
          30 + spawned.get(), world.onGame(() -> registry.storage(Position_Traits.TYPE).size()));
      world.assertConsistent();
      assertFalse(spawnedIds.isEmpty());
      final double cpuMillis = world.maxServeCpuNanos.get() / 1e6;
      System.out.printf(
          "%d calls from %d clients over %d frames; the longest serve(): %.2f ms of CPU (%.2f ms of"
              + " wall time), at most %d calls in one serve(); %.2f ms of CPU while warming up%n",
          answered,
          CLIENTS,
          world.frames.get(),
          cpuMillis,
          world.maxServeNanos.get() / 1e6,
          world.maxCallsPerServe.get(),
          coldCpu / 1e6);
      // The bound: the budget (1 ms) plus one call (a query of 200 entities with values, under
      // 5 ms); CPU time, so that another process taking the core does not count.
      assertTrue(cpuMillis < 1 + 5 + 10, () -> "a serve() took " + cpuMillis + " ms of CPU");
    }
  }
}
