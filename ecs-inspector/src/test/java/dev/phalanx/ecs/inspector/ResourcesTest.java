package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Context values shown with {@code Inspector.Builder.resource}: listed with their fields and
 * values, replaced only when the game allows it and the codec can build them; every refusal, a
 * refusing constructor or a throwing setter at any of its calls included, leaves the context's
 * value as it was (the same instance).
 */
class ResourcesTest {

  /** A mode. */
  public enum Mode {
    CALM,
    STORM
  }

  /** A record resource whose constructor refuses a negative strength. */
  public record Weather(float strength, Mode mode, String name) {
    /** Checks the strength. */
    public Weather {
      if (strength < 0) {
        throw new IllegalArgumentException("strength must not be negative, got " + strength);
      }
    }
  }

  /** A read-only resource. */
  public record Seed(long value) {}

  /** A bean resource whose setters throw when {@link #FAIL} counts down to zero. */
  public static final class Score {
    static final AtomicInteger FAIL = new AtomicInteger(-1);
    private int points;
    private int lives;

    /** A zero score. */
    public Score() {}

    /** {@return the points} */
    public int getPoints() {
      return points;
    }

    /** Sets the points. */
    public void setPoints(final int points) {
      fail();
      this.points = points;
    }

    /** {@return the lives} */
    public int getLives() {
      return lives;
    }

    /** Sets the lives. */
    public void setLives(final int lives) {
      fail();
      this.lives = lives;
    }

    private static void fail() {
      if (0 == FAIL.decrementAndGet()) {
        throw new IllegalStateException("injected");
      }
    }
  }

  /** A writable resource the context does not hold. */
  public record Absent(int value) {}

  /** A class without properties: nothing the inspector could write. */
  public static final class Opaque {
    /** An opaque value. */
    public Opaque() {}
  }

  private Registry registry;

  @BeforeEach
  void build() {
    registry = new Registry();
    registry.context().emplace(Weather.class, new Weather(1.5f, Mode.CALM, "fair"));
    registry.context().emplace(Seed.class, new Seed(42));
    final Score score = new Score();
    score.points = 10;
    score.lives = 3;
    registry.context().emplace(Score.class, score);
    registry.context().emplace(Opaque.class, new Opaque());
    Hierarchy.of(registry);
    Score.FAIL.set(-1);
  }

  private TestWorld world() throws Exception {
    return new TestWorld(
        registry,
        b ->
            b.resource(Weather.class, true)
                .resource(Seed.class)
                .resource(Score.class, true)
                .resource(Opaque.class, true)
                .resource(Hierarchy.class, true)
                .resource(String.class)
                .resource(Absent.class, true),
        200_000);
  }

  @Test
  void resourcesAreListedWithTheirFieldsAndValues() throws Exception {
    try (TestWorld world = world()) {
      final JsonNode list = world.result("world.list_resources", null);
      assertEquals(7, list.size());
      final JsonNode weather = list.get(0);
      assertEquals("Weather", weather.get("name").asText());
      assertTrue(weather.get("present").asBoolean());
      assertTrue(weather.get("writable").asBoolean());
      assertEquals(
          "{\"strength\":1.5,\"mode\":\"CALM\",\"name\":\"fair\"}",
          weather.get("values").toString());
      assertEquals("float", weather.get("fields").get("strength").asText());
      assertEquals("[\"CALM\",\"STORM\"]", weather.get("enums").get("mode").toString());
      assertEquals("[\"strength\",\"mode\",\"name\"]", weather.get("editable").toString());
      final JsonNode seed = list.get(1);
      assertFalse(seed.get("writable").asBoolean());
      assertEquals(42, seed.get("values").get("value").asLong());
      assertEquals(0, seed.get("editable").size());
      assertEquals("{\"lives\":3,\"points\":10}", list.get(2).get("values").toString());
      assertFalse(list.get(3).get("writable").asBoolean(), "no field to write");
      assertFalse(list.get(4).get("writable").asBoolean(), "the runtime's own");
      assertFalse(list.get(5).get("present").asBoolean());
      assertEquals(0, list.get(5).get("values").size());
    }
  }

  @Test
  void aWritableResourceIsReplacedWithTheFieldsGiven() throws Exception {
    try (TestWorld world = world()) {
      final JsonNode weather =
          world.result(
              "world.set_resource",
              "{\"resource\": \"Weather\", \"fields\": {\"mode\": \"STORM\", \"strength\": 4}}");
      assertEquals(
          "{\"strength\":4.0,\"mode\":\"STORM\",\"name\":\"fair\"}",
          weather.get("values").toString());
      assertEquals(
          new Weather(4, Mode.STORM, "fair"),
          world.onGame(() -> registry.context().get(Weather.class)));
      final JsonNode score =
          world.result(
              "world.set_resource",
              "{\"resource\": \"" + Score.class.getName() + "\", \"fields\": {\"points\": 99}}");
      assertEquals("{\"lives\":3,\"points\":99}", score.get("values").toString());
      assertEquals(99, world.onGame(() -> registry.context().get(Score.class).points));
      world.assertConsistent();
    }
  }

  @Test
  void refusalsLeaveTheValueAsItWas() throws Exception {
    try (TestWorld world = world()) {
      final Weather weather = world.onGame(() -> registry.context().get(Weather.class));
      final Score score = world.onGame(() -> registry.context().get(Score.class));
      final String[][] bad = {
        {"{\"resource\": \"Seed\", \"fields\": {\"value\": 1}}", "Seed is read-only"},
        {"{\"resource\": \"Opaque\", \"fields\": {\"x\": 1}}", "Opaque is read-only"},
        {"{\"resource\": \"Hierarchy\", \"fields\": {\"x\": 1}}", "Hierarchy is read-only"},
        {"{\"resource\": \"Rain\", \"fields\": {\"x\": 1}}", "no resource \"Rain\""},
        {"{\"resource\": 3, \"fields\": {\"x\": 1}}", "resource must be a resource's name"},
        {"{\"fields\": {\"x\": 1}}", "resource must be a resource's name"},
        {"{\"resource\": \"Weather\"}", "fields must be an object"},
        {"{\"resource\": \"Weather\", \"fields\": {}}", "fields must be an object"},
        {"{\"resource\": \"Weather\", \"fields\": [1]}", "fields must be an object"},
        {"{\"resource\": \"Weather\", \"fields\": {\"wind\": 1}}", "has no field \"wind\""},
        {"{\"resource\": \"Weather\", \"fields\": {\"mode\": \"HAIL\"}}", "one of [CALM, STORM]"},
        {"{\"resource\": \"Weather\", \"fields\": {\"strength\": \"x\"}}", "must be a float"},
        {"{\"resource\": \"Weather\", \"fields\": {\"strength\": -1}}", "must not be negative"},
        {"{\"resource\": \"Score\", \"fields\": {\"points\": 1.5}}", "must be an int"},
        {"{\"resource\": \"Weather\", \"fields\": {}, \"x\": 1}", "has no parameter \"x\""},
      };
      for (final String[] call : bad) {
        final String message = world.error("world.set_resource", call[0], RpcError.INVALID_PARAMS);
        assertTrue(message.contains(call[1]), () -> call[0] + ": " + message);
        assertSame(weather, world.onGame(() -> registry.context().get(Weather.class)));
        assertSame(score, world.onGame(() -> registry.context().get(Score.class)));
      }
      // The context holds no Absent: nothing to replace, and nothing is added.
      final String absent =
          world.error(
              "world.set_resource",
              "{\"resource\": \"Absent\", \"fields\": {\"value\": 1}}",
              RpcError.INVALID_PARAMS);
      assertTrue(absent.contains("the context holds no Absent"), absent);
      assertFalse(world.onGame(() -> registry.context().contains(Absent.class)));
      final String body =
          "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.set_resource\", \"params\":"
              + " {\"resource\": \"Weather\", \"fields\": {\"strength\": 9}}}";
      assertEquals(401, world.post(body, null).statusCode());
      assertSame(weather, world.onGame(() -> registry.context().get(Weather.class)));
      assertEquals(
          401, world.post(body.replace("set_resource", "list_resources"), null).statusCode());
      world.assertConsistent();
    }
  }

  @Test
  void aSetterThatThrowsAtAnyCallChangesNothing() throws Exception {
    try (TestWorld world = world()) {
      final Score score = world.onGame(() -> registry.context().get(Score.class));
      final String params = "{\"resource\": \"Score\", \"fields\": {\"points\": 5, \"lives\": 1}}";
      for (int k = 1; k <= 2; k++) {
        Score.FAIL.set(k);
        final String message = world.error("world.set_resource", params, RpcError.INVALID_PARAMS);
        assertTrue(message.contains("injected"), message);
        assertSame(score, world.onGame(() -> registry.context().get(Score.class)));
        assertEquals(10, score.points);
        assertEquals(3, score.lives);
        world.assertConsistent();
      }
      Score.FAIL.set(3); // past the last setter: the call succeeds
      world.result("world.set_resource", params);
      assertEquals(5, world.onGame(() -> registry.context().get(Score.class).points));
    }
  }

  @Test
  void aTypeIsShownOnce() {
    final Inspector.Builder builder = Inspector.builder(registry).resource(Seed.class);
    assertThrows(IllegalArgumentException.class, () -> builder.resource(Seed.class, true));
  }
}
