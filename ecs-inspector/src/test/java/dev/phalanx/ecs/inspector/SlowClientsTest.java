package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Clients that hold connections: heads and bodies that never end are cut at their timeouts (408),
 * so they cannot hold every HTTP thread for ever, and connections over the bound are answered 503
 * at once instead of being reset.
 */
class SlowClientsTest {

  @Test
  void slowHeadsAndBodiesAreCutAndCallsGoOn() throws Exception {
    final Registry registry = new Registry();
    registry.storage(Position_Traits.TYPE).emplace(registry.create(), 1, 2);
    try (TestWorld world =
        new TestWorld(
            registry,
            b ->
                b.threads(4)
                    .headerTimeout(Duration.ofMillis(500))
                    .bodyTimeout(Duration.ofMillis(500)),
            200_000)) {
      final String before = world.dump();
      final int port = world.inspector.port();
      final String host = "127.0.0.1:" + port;
      final List<RawHttp> slow = new ArrayList<>();
      // As many heads that never end as there are threads, and as many bodies cut short.
      for (int i = 0; i < 4; i++) {
        slow.add(new RawHttp(port).send("POST /rpc HTTP/1.1\r\nHost: " + host + "\r\n"));
        slow.add(
            new RawHttp(port)
                .send(
                    RawHttp.call(
                            host,
                            world.inspector.token(),
                            "",
                            "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.stats\"}")
                        .substring(0, 200)));
      }
      // A working call gets through once the slow ones are cut.
      assertEquals(1, world.result("world.stats", null).get("alive").asInt());
      for (int i = 0; i < slow.size(); i++) {
        try (RawHttp http = slow.get(i)) {
          final String answer = http.answer(10_000);
          assertEquals(408, RawHttp.status(answer), answer);
          if (1 == i % 2) {
            assertEquals(
                RpcError.INVALID_REQUEST,
                TestWorld.parse(RawHttp.body(answer)).get("error").get("code").asInt(),
                answer);
          }
        }
      }
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }

  @Test
  void aBurstOverTheConnectionLimitIsAnswered503() throws Exception {
    final Registry registry = new Registry();
    registry.storage(Position_Traits.TYPE).emplace(registry.create(), 1, 2);
    // The defaults but for the header timeout, which only makes the test shorter.
    try (TestWorld world =
        new TestWorld(registry, b -> b.headerTimeout(Duration.ofSeconds(1)), 200_000)) {
      final String before = world.dump();
      final List<RawHttp> burst = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        burst.add(new RawHttp(world.inspector.port()));
      }
      int busy = 0;
      int late = 0;
      for (final RawHttp http : burst) {
        try (http) {
          final String answer = http.answer(20_000);
          final int status = RawHttp.status(answer);
          assertTrue(503 == status || 408 == status, () -> "not 503 nor 408: " + answer);
          if (503 == status) {
            busy++;
            assertEquals(
                RpcError.BUSY,
                TestWorld.parse(RawHttp.body(answer)).get("error").get("code").asInt());
          } else {
            late++;
          }
        }
      }
      assertEquals(600 - 512, busy, "the connections over the default bound, 512");
      assertEquals(512, late);
      assertEquals(1, world.result("world.stats", null).get("alive").asInt());
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }
}
