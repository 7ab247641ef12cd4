package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Bad request bodies, at random from a fixed seed: random bytes, truncated and deeply nested JSON,
 * huge numbers, wrong types, unknown entities and components, missing or wrong tokens. Every one is
 * answered with a JSON-RPC error, the server keeps serving, and the world is unchanged.
 */
class FuzzTest {

  private static final int ROUNDS = 700;

  private static final String[] WRITES = {
    "world.insert_components",
    "world.replace_components",
    "world.remove_components",
    "world.spawn_entity",
    "world.despawn_entity"
  };

  private static final String[] WRONG = {
    "1", "-1", "1.5", "\"text\"", "[]", "{}", "true", "[1, 2]", "{\"x\": {}}", "\"1:\"", "\":0\""
  };

  private static final String[] HUGE = {
    "1e999999999",
    "-1e999999999",
    "9".repeat(40),
    "-" + "9".repeat(40),
    "1" + "0".repeat(63),
    "1" + "0".repeat(200),
    "0." + "0".repeat(60) + "1"
  };

  @Test
  void badBodiesGetErrorsAndChangeNothing() throws Exception {
    final Registry registry = new Registry();
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i, i);
      registry.storage(Health_Traits.TYPE).emplace(e, i);
      entities.add(e);
    }
    registry.storage(Velocity_Traits.TYPE);
    final long dead = registry.create();
    registry.destroy(dead);
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final Random random = new Random(32);
      final int[] kinds = new int[8];
      for (int round = 0; round < ROUNDS; round++) {
        final int kind = random.nextInt(8);
        kinds[kind]++;
        final long alive = entities.get(random.nextInt(entities.size()));
        final String body;
        String token = world.inspector.token();
        switch (kind) {
          case 0 -> {
            final byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            body = new String(bytes, StandardCharsets.ISO_8859_1);
          }
          case 1 -> {
            final String whole = write(random, alive, "{\"Position\": {\"x\": 1}}");
            body = whole.substring(0, random.nextInt(whole.length()));
          }
          case 2 -> {
            final int depth = 33 + random.nextInt(3000);
            final String open = random.nextBoolean() ? "[" : "{\"a\":";
            final String close = open.startsWith("[") ? "]" : "}";
            body =
                "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.spawn_entity\", \"params\": "
                    + open.repeat(depth)
                    + "1"
                    + close.repeat(depth)
                    + "}";
          }
          case 3 -> {
            final String huge = HUGE[random.nextInt(HUGE.length)];
            body =
                switch (random.nextInt(4)) {
                  case 0 -> write(random, alive, "{\"Position\": {\"x\": " + huge + "}}");
                  case 1 -> write(random, alive, "{\"Health\": {\"points\": " + huge + "}}");
                  case 2 -> call("world.despawn_entity", "{\"entity\": " + huge + "}");
                  default -> call("world.query", "{\"limit\": " + huge + "}");
                };
          }
          case 4 -> {
            final String wrong = WRONG[random.nextInt(WRONG.length)];
            body =
                switch (random.nextInt(5)) {
                  case 0 ->
                      write(random, alive, "{\"Position\": {\"y\": " + wrongFloat(wrong) + "}}");
                  case 1 -> write(random, alive, "{\"Health\": " + wrongObject(wrong) + "}");
                  case 2 -> call(WRITES[random.nextInt(WRITES.length)], wrongObject(wrong));
                  case 3 -> "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": " + wrong + "}";
                  default ->
                      call("world.despawn_entity", "{\"entity\": " + wrongEntity(wrong) + "}");
                };
          }
          case 5 -> {
            final long unknown =
                random.nextBoolean()
                    ? dead
                    : Entity.of(1000 + random.nextInt(1_000_000), random.nextInt(5));
            body =
                random.nextBoolean()
                    ? write(random, unknown, "{\"Velocity\": {\"dx\": 1}}")
                    : call("world.despawn_entity", "{\"entity\": " + quoted(unknown) + "}");
          }
          case 6 -> {
            final String name = random.nextBoolean() ? "Nope" + random.nextInt(100) : "";
            body = write(random, alive, "{\"" + name + "\": {}}");
          }
          default -> {
            body = call("world.despawn_entity", "{\"entity\": " + quoted(alive) + "}");
            token = random.nextBoolean() ? null : token.substring(1) + "x";
          }
        }
        final HttpResponse<String> response = world.post(body, token);
        final JsonNode answer = TestWorld.parse(response.body());
        final String shown = body.length() > 200 ? body.substring(0, 200) + "..." : body;
        assertTrue(answer.has("error"), () -> shown + " -> " + answer);
        assertFalse(answer.has("result"), () -> shown + " -> " + answer);
        assertTrue(answer.get("error").get("code").isInt(), () -> shown + " -> " + answer);
        assertFalse(answer.get("error").get("message").asText().isBlank());
        assertEquals("2.0", answer.get("jsonrpc").asText());
      }
      for (final int count : kinds) {
        assertTrue(count > ROUNDS / 16, () -> "a kind of input was hardly drawn");
      }
      // Raw bytes that are not even text, and a body far over the limit, through the client too.
      final HttpResponse<String> binary =
          world.send(
              HttpRequest.newBuilder(world.inspector.rpcAddress())
                  .header("Authorization", "Bearer " + world.inspector.token())
                  .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {(byte) 0xff, 0, 1}))
                  .build());
      assertEquals(
          RpcError.PARSE_ERROR, TestWorld.parse(binary.body()).get("error").get("code").asInt());
      assertEquals(before, world.dump());
      world.assertConsistent();
      // Still serving.
      assertEquals(
          20, world.result("world.query", "{\"with\": [\"Health\"]}").get("entities").size());
    }
  }

  private static String quoted(final long entity) {
    return "\"" + Entity.index(entity) + ":" + Entity.version(entity) + "\"";
  }

  private static String call(final String method, final String params) {
    return "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \""
        + method
        + "\", \"params\": "
        + params
        + "}";
  }

  /** A write of {@code components} that must fail on {@code entity} (it has both types). */
  private static String write(final Random random, final long entity, final String components) {
    final String method =
        random.nextBoolean() ? "world.insert_components" : "world.replace_components";
    return call(method, "{\"entity\": " + quoted(entity) + ", \"components\": " + components + "}");
  }

  private static String wrongFloat(final String wrong) {
    return wrong.matches("-?[0-9.]+") ? "\"" + wrong + "\"" : wrong;
  }

  private static String wrongObject(final String wrong) {
    return wrong.startsWith("{") ? "[" + wrong + "]" : wrong;
  }

  /** A wrong entity: not a string "index:version", and not an index alone (a live one, maybe). */
  private static String wrongEntity(final String wrong) {
    return wrong.matches("-?[0-9]+") ? "\"" + wrong + ":x\"" : wrong;
  }
}
