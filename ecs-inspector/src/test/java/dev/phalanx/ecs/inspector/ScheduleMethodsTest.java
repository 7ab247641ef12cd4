package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The schedule methods through the real protocol, against a game loop that runs the schedule and
 * then serves every frame: the plan, pausing, stepping a frame and a system, disabling a system,
 * and their refusals, which leave the schedule as it was.
 */
class ScheduleMethodsTest {

  // How often each system's body ran; read on the game thread between frames.
  private final Map<String, AtomicLong> runs = new LinkedHashMap<>();
  // An inspector that the system "score" serves from inside the frame, when set.
  private final AtomicReference<Inspector> inside = new AtomicReference<>();
  private Schedule schedule;
  private TestWorld world;

  @BeforeEach
  void start() throws Exception {
    final Registry registry = new Registry();
    final ScheduleBuilder plan = Schedule.builder(registry);
    plan.set("physics").chain();
    plan.system("input", counting("input")).in(Schedule.PRE_UPDATE).alwaysRun();
    plan.system("move", counting("move")).inSet("physics");
    plan.system("collide", counting("collide")).inSet("physics");
    plan.system(
        "score",
        context -> {
          runs.get("score").incrementAndGet();
          final Inspector serving = inside.get();
          if (null != serving) {
            serving.serve();
          }
        });
    runs.put("score", new AtomicLong());
    schedule = plan.build();
    world = new TestWorld(registry, builder -> builder.schedule(schedule), 200_000);
    world.frame(schedule::run);
    frames(3);
  }

  @AfterEach
  void stop() {
    world.close();
  }

  private dev.phalanx.ecs.schedule.SystemBody counting(final String name) {
    final AtomicLong count = new AtomicLong();
    runs.put(name, count);
    return context -> count.incrementAndGet();
  }

  /** Waits for {@code n} more iterations of the game loop (a schedule run, then a serve). */
  private void frames(final int n) {
    final long from = world.frames.get();
    while (world.frames.get() < from + n) {
      LockSupport.parkNanos(100_000);
    }
  }

  /** How often each system ran, read between frames. */
  private Map<String, Long> counts() {
    return world.onGame(
        () -> {
          final Map<String, Long> now = new LinkedHashMap<>();
          runs.forEach((name, count) -> now.put(name, count.get()));
          return now;
        });
  }

  private long frame() {
    return world.onGame(schedule::frame);
  }

  /** The stepping state that a refused call must leave as it was. */
  private String stepping() {
    return world.onGame(
        () ->
            "paused="
                + schedule.isPaused()
                + " disabled="
                + schedule.disabled()
                + " next="
                + schedule.nextSystem()
                + " always="
                + schedule.isAlwaysRun("input")
                + schedule.isAlwaysRun("move"));
  }

  private static List<List<String>> waves(final JsonNode stage) {
    final List<List<String>> waves = new ArrayList<>();
    for (final JsonNode wave : stage.get("waves")) {
      final List<String> names = new ArrayList<>();
      wave.forEach(system -> names.add(system.get("name").asText()));
      waves.add(names);
    }
    return waves;
  }

  private static JsonNode system(final JsonNode plan, final String name) {
    for (final JsonNode stage : plan.get("stages")) {
      for (final JsonNode wave : stage.get("waves")) {
        for (final JsonNode system : wave) {
          if (name.equals(system.get("name").asText())) {
            return system;
          }
        }
      }
    }
    throw new AssertionError("no system " + name + " in " + plan);
  }

  @Test
  void thePlanListsStagesWavesAndSystemsWithTheirSetsStateAndTiming() {
    final JsonNode plan = world.result("schedule.plan", null);
    assertFalse(plan.get("paused").asBoolean());
    assertTrue(plan.get("frame").asLong() >= 3, plan::toString);
    assertEquals("input", plan.get("next").asText());
    assertEquals(0, plan.get("disabled").size());
    final JsonNode stages = plan.get("stages");
    assertEquals(3, stages.size());
    assertEquals(Schedule.PRE_UPDATE, stages.get(0).get("name").asText());
    assertEquals(List.of(List.of("input")), waves(stages.get(0)));
    assertEquals(Schedule.UPDATE, stages.get(1).get("name").asText());
    assertEquals(world.onGame(() -> schedule.waves(Schedule.UPDATE)), waves(stages.get(1)));
    assertEquals(List.of(List.of("move", "score"), List.of("collide")), waves(stages.get(1)));
    assertEquals(List.of(), waves(stages.get(2)));

    final JsonNode move = system(plan, "move");
    assertEquals("[\"physics\"]", move.get("sets").toString());
    assertTrue(move.get("enabled").asBoolean());
    assertFalse(move.get("alwaysRun").asBoolean());
    assertFalse(move.get("next").asBoolean());
    assertTrue(move.get("runs").asLong() >= 3, move::toString);
    assertTrue(move.has("meanNanos") && move.has("p95Nanos"), move::toString);
    final JsonNode input = system(plan, "input");
    assertEquals("[]", input.get("sets").toString());
    assertTrue(input.get("alwaysRun").asBoolean());
    assertTrue(input.get("next").asBoolean());
    assertEquals("[]", system(plan, "score").get("sets").toString());
  }

  @Test
  void aPausedScheduleRunsOnlyAlwaysRunSystemsUntilResumed() {
    final JsonNode paused = world.result("schedule.pause", "{}");
    assertTrue(paused.get("paused").asBoolean());
    frames(2);
    final long frame = frame();
    final Map<String, Long> before = counts();
    frames(5);
    final Map<String, Long> after = counts();
    assertEquals(frame, frame(), "a paused schedule does not advance");
    for (final String system : List.of("move", "collide", "score")) {
      assertEquals(before.get(system), after.get(system), system);
    }
    assertTrue(after.get("input") >= before.get("input") + 4, "the always-run system runs");
    final JsonNode plan = world.result("schedule.plan", null);
    assertTrue(plan.get("paused").asBoolean());
    assertEquals(frame, plan.get("frame").asLong());
    assertTrue(world.onGame(schedule::isPaused));

    final JsonNode resumed = world.result("schedule.resume", null);
    assertFalse(resumed.get("paused").asBoolean());
    frames(3);
    assertTrue(frame() > frame);
    assertTrue(counts().get("move") > after.get("move"));
  }

  @Test
  void stepFrameRunsOneFrameThenStaysPaused() {
    world.result("schedule.pause", null);
    frames(2);
    final long frame = frame();
    final Map<String, Long> before = counts();
    final JsonNode stepped = world.result("schedule.step_frame", null);
    assertTrue(stepped.get("paused").asBoolean());
    assertEquals(frame, stepped.get("frame").asLong(), "the step runs in the next frame");
    frames(4);
    assertEquals(frame + 1, frame());
    final Map<String, Long> after = counts();
    for (final String system : List.of("move", "collide", "score")) {
      assertEquals(before.get(system) + 1, after.get(system), system);
    }
    assertEquals(frame + 1, world.result("schedule.plan", null).get("frame").asLong());
  }

  @Test
  void stepSystemRunsExactlyTheNextSystemInPlanOrder() {
    world.result("schedule.pause", null);
    frames(2);
    final long frame = frame();
    Map<String, Long> before = counts();
    final List<String> order = List.of("input", "move", "score", "collide");
    for (int i = 0; i < order.size(); i++) {
      final String expected = order.get(i);
      final JsonNode answer = world.result("schedule.step_system", null);
      assertEquals(expected, answer.get("next").asText(), "the step asked runs the next system");
      assertTrue(system(answer, expected).get("next").asBoolean());
      frames(3);
      final Map<String, Long> after = counts();
      for (final String system : List.of("move", "collide", "score")) {
        assertEquals(
            before.get(system) + (system.equals(expected) ? 1 : 0),
            after.get(system),
            () -> "step " + expected + ": " + system);
      }
      before = after;
      final JsonNode plan = world.result("schedule.plan", null);
      final boolean last = i == order.size() - 1;
      assertEquals(last ? "input" : order.get(i + 1), plan.get("next").asText());
      assertEquals(last ? frame + 1 : frame, plan.get("frame").asLong(), "frame after " + expected);
    }
  }

  @Test
  void setEnabledDisablesASystemAndEnablesItAgain() {
    final JsonNode disabled =
        world.result("schedule.set_enabled", "{\"system\": \"move\", \"enabled\": false}");
    assertEquals("[\"move\"]", disabled.get("disabled").toString());
    assertFalse(system(disabled, "move").get("enabled").asBoolean());
    frames(2);
    final Map<String, Long> before = counts();
    frames(5);
    final Map<String, Long> after = counts();
    assertEquals(before.get("move"), after.get("move"), "a disabled system's body does not run");
    assertTrue(after.get("score") >= before.get("score") + 4);
    assertTrue(after.get("collide") >= before.get("collide") + 4);
    assertEquals(List.of("move"), world.onGame(schedule::disabled));
    // Disabling it again changes nothing.
    world.result("schedule.set_enabled", "{\"system\": \"move\", \"enabled\": false}");
    assertEquals(List.of("move"), world.onGame(schedule::disabled));

    final JsonNode enabled =
        world.result("schedule.set_enabled", "{\"system\": \"move\", \"enabled\": true}");
    assertEquals("[]", enabled.get("disabled").toString());
    assertTrue(system(enabled, "move").get("enabled").asBoolean());
    frames(3);
    assertTrue(counts().get("move") > after.get("move"));
    assertEquals(List.of(), world.onGame(schedule::disabled));
  }

  @Test
  void badParametersAreRefusedAndChangeNothing() {
    world.result("schedule.set_enabled", "{\"system\": \"collide\", \"enabled\": false}");
    final String state = stepping();
    final String[][] refused = {
      {"schedule.set_enabled", "{\"system\": \"mvoe\", \"enabled\": false}", "\"mvoe\""},
      {"schedule.set_enabled", "{\"system\": \"physics\", \"enabled\": false}", "\"physics\""},
      {"schedule.set_enabled", "{\"system\": \"move\"}", "enabled must be true or false"},
      {"schedule.set_enabled", "{\"system\": \"move\", \"enabled\": \"no\"}", "got a string"},
      {"schedule.set_enabled", "{\"system\": 3, \"enabled\": false}", "system must be"},
      {"schedule.set_enabled", "{\"enabled\": false}", "got nothing"},
      {"schedule.set_enabled", "{\"system\": \"move\", \"enabled\": false, \"x\": 1}", "\"x\""},
      {"schedule.pause", "{\"now\": true}", "takes none"},
      {"schedule.step_frame", "{\"count\": 2}", "takes none"},
      {"schedule.step_system", "{\"system\": \"move\"}", "takes none"},
      {"schedule.resume", "{\"all\": 1}", "takes none"},
      {"schedule.plan", "{\"stage\": \"update\"}", "takes none"},
    };
    for (final String[] call : refused) {
      final String message = world.error(call[0], call[1], RpcError.INVALID_PARAMS);
      assertTrue(message.contains(call[2]), () -> call[0] + " " + call[1] + ": " + message);
    }
    assertEquals(state, stepping());
    final Map<String, Long> before = counts();
    frames(3);
    assertTrue(counts().get("move") > before.get("move"), "still running, move enabled");
    assertEquals(before.get("collide"), counts().get("collide"), "collide still disabled");
  }

  @Test
  void controlsCalledFromInsideAFrameAreRefusedAndChangeNothing() {
    final String state = stepping();
    // Only the system "score" serves now: calls run inside schedule.run().
    world.serving(false);
    inside.set(world.inspector);
    final String message = world.error("schedule.pause", null, RpcError.REFUSED);
    assertTrue(message.contains("the schedule refused"), message);
    assertTrue(message.contains("outside run()"), message);
    world.error(
        "schedule.set_enabled", "{\"system\": \"move\", \"enabled\": false}", RpcError.REFUSED);
    world.error("schedule.step_system", null, RpcError.REFUSED);
    // Reading the plan is fine anywhere.
    assertFalse(world.result("schedule.plan", null).get("paused").asBoolean());
    inside.set(null);
    world.serving(true);
    assertEquals(state, stepping());
    assertTrue(world.result("schedule.pause", null).get("paused").asBoolean());
  }
}
