package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Two hundred long polls of a hundred entities each: their checks share the serve budget, round
 * robin, so a frame pays for a few of them and every one is still checked; they count against
 * {@code maxQueuedCalls}; and a watch whose client closes its connection is dropped at once, not at
 * its timeout.
 */
class WatchFloodTest {

  private static final int WATCHES = 200;
  private static final int EACH = 100;

  @Test
  void watchesShareTheBudgetCountAsQueuedAndLeaveWithTheirClient() throws Exception {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Label_Storage labels = registry.storage(Label_Traits.TYPE);
    final long[] entities = new long[WATCHES * EACH];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      positions.emplace(entities[i], i, -i);
      labels.emplace(entities[i], new Label("entity " + i, Label.Color.RED, i, null));
    }
    final AtomicInteger maxChecks = new AtomicInteger();
    try (TestWorld world = new TestWorld(registry, b -> b.maxQueuedCalls(WATCHES), 200_000)) {
      final Inspector inspector = world.inspector;
      // Each frame records the previous serve's checks.
      world.frame(() -> maxChecks.accumulateAndGet(inspector.lastChecks(), Math::max));
      final List<RawHttp> clients = new ArrayList<>();
      for (int w = 0; w < WATCHES; w++) {
        clients.add(new RawHttp(inspector.port()).send(watch(world, entities, w)));
      }
      waitFor(() -> WATCHES == world.onGame(inspector::waitingWatches), "every watch waits");
      assertEquals(WATCHES, inspector.pendingCalls(), "waiting watches are pending calls");

      // The queue is full of watches: another call is refused as busy.
      assertEquals(
          RpcError.BUSY,
          TestWorld.parse(world.post(call("world.stats", "{}"), inspector.token()).body())
              .get("error")
              .get("code")
              .asInt());

      world.maxServeNanos.set(0);
      world.maxServeCpuNanos.set(0);
      maxChecks.set(0);
      final long from = world.frames.get();
      waitFor(() -> world.frames.get() > from + 100, "100 frames");
      System.out.printf(
          Locale.ROOT,
          "%d watches of %d entities: at most %d checks per serve, longest serve %.2f ms"
              + " (%.2f ms of CPU)%n",
          WATCHES,
          EACH,
          maxChecks.get(),
          world.maxServeNanos.get() / 1e6,
          world.maxServeCpuNanos.get() / 1e6);
      assertTrue(maxChecks.get() >= 1, "watches are checked");
      assertTrue(
          maxChecks.get() < WATCHES, () -> maxChecks.get() + " checks in one serve: no budget");

      // The last watch of the round still sees its change.
      final long last = entities[entities.length - 1];
      world.onGame(
          () -> {
            positions.setX(last, 1e6f);
            return null;
          });
      final JsonNode answer =
          TestWorld.parse(RawHttp.body(clients.get(WATCHES - 1).answer(20_000)));
      assertTrue(answer.get("result").get("entities").has(name(last)), answer::toString);

      // Clients that leave take their watches with them, long before the 30 s timeout.
      for (int w = 0; w < WATCHES / 2; w++) {
        clients.get(w).close();
      }
      waitFor(
          () -> WATCHES / 2 - 1 == world.onGame(inspector::waitingWatches),
          "the watches of closed connections are dropped");
      for (final RawHttp client : clients) {
        client.close();
      }
      waitFor(() -> 0 == world.onGame(inspector::waitingWatches), "every watch is dropped");
      assertEquals(0, inspector.pendingCalls(), "dropped watches are not pending");
      // Dropped watches no longer count: calls are taken again.
      assertEquals(WATCHES * EACH, world.result("world.stats", null).get("alive").asInt());
      world.assertConsistent();
    }
  }

  /** A watch of the w-th hundred entities, with their current digests: it waits. */
  private static String watch(final TestWorld world, final long[] entities, final int w) {
    final ObjectNode params = TestWorld.JSON.createObjectNode();
    final ArrayNode list = params.putArray("entities");
    for (int i = w * EACH; i < (w + 1) * EACH; i++) {
      list.add(name(entities[i]));
    }
    final JsonNode now = world.result("world.watch", params.toString()).get("entities");
    final ObjectNode digests = params.putObject("digests");
    now.properties().forEach(e -> digests.put(e.getKey(), e.getValue().get("digest").asText()));
    params.put("timeout_ms", 30_000);
    return RawHttp.call(
        "127.0.0.1:" + world.inspector.port(),
        world.inspector.token(),
        "",
        call("world.watch", params.toString()));
  }

  private static String call(final String method, final String params) {
    return "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \""
        + method
        + "\", \"params\": "
        + params
        + "}";
  }

  private static String name(final long entity) {
    return Entity.index(entity) + ":" + Entity.version(entity);
  }

  private static void waitFor(final BooleanSupplier condition, final String what) {
    final long deadline = System.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, what);
      LockSupport.parkNanos(1_000_000);
    }
  }
}
