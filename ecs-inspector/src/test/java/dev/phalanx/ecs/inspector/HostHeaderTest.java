package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import org.junit.jupiter.api.Test;

/**
 * DNS rebinding: a request whose Host, or Origin, is not the inspector's own address is refused
 * with 403 and error -32007, token or not, and reaches neither the queue nor the world.
 */
class HostHeaderTest {

  private static final String SPAWN =
      "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":" + " \"world.spawn_entity\"}";

  @Test
  void foreignHostsAndOriginsAreRefused() throws Exception {
    final Registry registry = new Registry();
    registry.storage(Position_Traits.TYPE).emplace(registry.create(), 1, 2);
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final int port = world.inspector.port();
      final String token = world.inspector.token();
      for (final String[] foreign :
          new String[][] {
            {"evil.example:" + port, ""},
            {"127.0.0.1.evil.example:" + port, ""},
            {"localhost.evil.example:" + port, ""},
            {"127.0.0.1", ""},
            {"127.0.0.1:" + (port + 1), ""},
            {"10.1.2.3:" + port, ""},
            {"127.0.0.1:" + port, "Origin: http://evil.example:" + port + "\r\n"},
            {"127.0.0.1:" + port, "Origin: null\r\n"},
            {"127.0.0.1:" + port, "Origin: https://127.0.0.1:" + port + "\r\n"},
          }) {
        try (RawHttp http = new RawHttp(port)) {
          final String answer =
              http.send(RawHttp.call(foreign[0], token, foreign[1], SPAWN)).answer(10_000);
          assertEquals(403, RawHttp.status(answer), foreign[0] + " " + foreign[1] + ": " + answer);
          final JsonNode error = TestWorld.parse(RawHttp.body(answer)).get("error");
          assertEquals(RpcError.FORBIDDEN, error.get("code").asInt());
          assertTrue(error.get("message").asText().contains("http://127.0.0.1:" + port), answer);
        }
      }
      // The page too is only served to its own address.
      try (RawHttp http = new RawHttp(port)) {
        final String answer =
            http.send("GET / HTTP/1.1\r\nHost: evil.example:" + port + "\r\n\r\n").answer(10_000);
        assertEquals(403, RawHttp.status(answer), answer);
      }
      assertEquals(before, world.dump(), "nothing reached the world");
      for (final String[] own :
          new String[][] {
            {"127.0.0.1:" + port, ""},
            {"localhost:" + port, ""},
            {"LOCALHOST:" + port, "Origin: http://localhost:" + port + "\r\n"},
            {"127.0.0.1:" + port, "Origin: http://127.0.0.1:" + port + "\r\n"},
          }) {
        try (RawHttp http = new RawHttp(port)) {
          final String answer =
              http.send(RawHttp.call(own[0], token, own[1], SPAWN)).answer(10_000);
          assertEquals(200, RawHttp.status(answer), own[0] + " " + own[1] + ": " + answer);
          assertTrue(TestWorld.parse(RawHttp.body(answer)).has("result"), answer);
        }
      }
      assertEquals(5, world.onGame(registry::alive), "the four own calls spawned");
      world.assertConsistent();
    }
  }
}
