package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * {@code world.history}: the samples {@code serve()} takes for the page's charts, oldest first, at
 * most one per interval, the ring keeping the last ones; entity counts follow the world, and with a
 * schedule each system has a series.
 */
class HistoryTest {

  @Test
  void samplesFollowTheWorldOldestFirstAndTheRingKeepsTheLast() throws Exception {
    final Registry registry = new Registry();
    final ScheduleBuilder plan = Schedule.builder(registry);
    plan.system("spawn", context -> registry.create()).exclusive();
    plan.system("idle", context -> {}).after("spawn");
    final Schedule schedule = plan.build();
    final int samples = 7;
    try (TestWorld world =
        new TestWorld(
            registry,
            builder -> builder.schedule(schedule).history(Duration.ofMillis(5), samples),
            1_000_000)) {
      world.frame(schedule::run);
      // Read twice, some frames apart: the ring's oldest sample is then at two different slots.
      checkOrder(frames(world, 100), samples);
      final JsonNode history = checkOrder(frames(world, 37), samples);
      assertEquals(2, history.get("systems").size());
      assertEquals("spawn", history.get("systems").get(0).get("system").asText());
      assertEquals(samples, history.get("systems").get(1).get("millis").size());
      assertEquals(samples, history.get("frameMillis").size());
      assertTrue(history.get("frameMillis").get(samples - 1).asDouble() > 0);
    }
  }

  /** Waits for {@code n} more frames of the game loop; returns the world. */
  private static TestWorld frames(final TestWorld world, final int n) {
    final long before = world.frames.get();
    while (world.frames.get() < before + n) {
      LockSupport.parkNanos(1_000_000);
    }
    return world;
  }

  /** Reads the history and checks its samples are the last ones, oldest first. */
  private static JsonNode checkOrder(final TestWorld world, final int samples) {
    final JsonNode history = world.result("world.history", "{}");
    assertEquals(5, history.get("everyMillis").asLong());
    assertEquals(samples, history.get("capacity").asInt());
    assertTrue(history.get("attached").asBoolean());
    final JsonNode millis = history.get("millis");
    assertEquals(samples, millis.size(), "the ring is full and keeps the last samples");
    final JsonNode alive = history.get("alive");
    for (int i = 1; i < samples; i++) {
      assertTrue(
          millis.get(i).asLong() - millis.get(i - 1).asLong() >= 5,
          "at most one sample per interval, oldest first: " + millis);
      assertTrue(
          alive.get(i).asLong() > alive.get(i - 1).asLong(),
          "the spawning system adds an entity every frame: " + alive);
    }
    assertTrue(alive.get(0).asLong() > samples, "the first samples were overwritten: " + alive);
    final long now = world.onGame(world.registry::alive);
    assertTrue(alive.get(samples - 1).asLong() <= now);
    return history;
  }

  @Test
  void withoutAScheduleOnlyCountsAreKeptAndNoneWhenTurnedOff() throws Exception {
    final Registry registry = new Registry();
    registry.create();
    try (TestWorld world =
        new TestWorld(registry, builder -> builder.history(Duration.ofMillis(1), 0), 200_000)) {
      final JsonNode history = world.result("world.history", "{}");
      assertEquals(0, history.get("millis").size());
      assertFalse(history.get("attached").asBoolean());
      world.error("world.history", "{\"since\": 3}", -32602);
    }
    try (TestWorld world = new TestWorld(registry)) {
      while (world.result("world.history", "{}").get("millis").size() < 1) {
        LockSupport.parkNanos(10_000_000);
      }
      final JsonNode history = world.result("world.history", "{}");
      assertEquals(1, history.get("alive").get(0).asLong());
      assertEquals(0, history.get("systems").size());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> Inspector.builder(registry).history(Duration.ofMillis(1), -1));
    assertThrows(
        IllegalArgumentException.class,
        () -> Inspector.builder(registry).history(Duration.ZERO, 10));
  }
}
