package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every error: its code, a message that says what is wrong, and a world left as it was. */
class ErrorsTest {

  private TestWorld world;
  private long entity;
  private String before;

  @BeforeEach
  void start() throws Exception {
    final Registry registry = new Registry(8);
    entity = registry.create();
    registry.storage(Position_Traits.TYPE).emplace(entity, 1, 2);
    registry.storage(Health_Traits.TYPE).emplace(entity, 5);
    registry.storage(Label_Traits.TYPE).emplace(entity, new Label("a", Label.Color.RED, 1, null));
    registry.storage(Velocity_Traits.TYPE); // a storage the entity has no element in
    final long dead = registry.create();
    registry.destroy(dead);
    world = new TestWorld(registry);
    before = world.dump();
  }

  @AfterEach
  void unchanged() {
    assertEquals(before, world.dump());
    world.assertConsistent();
    world.close();
  }

  private String id() {
    return "\"" + Entity.index(entity) + ":" + Entity.version(entity) + "\"";
  }

  private void message(
      final String method, final String params, final int code, final String part) {
    final String message = world.error(method, params, code);
    assertTrue(message.contains(part), () -> "\"" + message + "\" does not say " + part);
  }

  @Test
  void unauthorisedRequestsAreRefused() {
    final String body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.stats\"}";
    final HttpResponse<String> missing = world.post(body, null);
    assertEquals(401, missing.statusCode());
    final JsonNode error = TestWorld.parse(missing.body()).get("error");
    assertEquals(RpcError.UNAUTHORIZED, error.get("code").asInt());
    assertTrue(error.get("message").asText().contains("Authorization: Bearer"));
    final HttpResponse<String> wrong = world.post(body, "not-the-token-at-all");
    assertEquals(401, wrong.statusCode());
    assertEquals("wrong token", TestWorld.parse(wrong.body()).get("error").get("message").asText());
    // A write without the token never reaches the world.
    world.post(
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.despawn_entity\", \"params\":"
            + " {\"entity\": "
            + id()
            + "}}",
        null);
    assertEquals(0, world.inspector.served());
  }

  @Test
  void malformedRequests() {
    final String token = world.inspector.token();
    final List<String[]> cases = new ArrayList<>();
    cases.add(new String[] {"{\"jsonrpc\": ", "-32700", "not JSON"});
    cases.add(new String[] {"", "-32700", "empty"});
    cases.add(new String[] {"{} {}", "-32700", "not JSON"});
    cases.add(new String[] {"{\"a\": 1, \"a\": 2}", "-32700", "Duplicate"});
    cases.add(new String[] {"[1, 2]", "-32600", "batches"});
    cases.add(new String[] {"42", "-32600", "a number"});
    cases.add(new String[] {"{\"method\": \"world.stats\"}", "-32600", "jsonrpc"});
    cases.add(
        new String[] {"{\"jsonrpc\": \"1.0\", \"method\": \"world.stats\"}", "-32600", "2.0"});
    cases.add(new String[] {"{\"jsonrpc\": \"2.0\", \"method\": 3}", "-32600", "method"});
    cases.add(
        new String[] {
          "{\"jsonrpc\": \"2.0\", \"method\": \"world.stats\", \"x\": 1}", "-32600", "x"
        });
    cases.add(
        new String[] {
          "{\"jsonrpc\": \"2.0\", \"method\": \"world.stats\", \"id\": [1]}", "-32600", "id"
        });
    cases.add(
        new String[] {"{\"jsonrpc\": \"2.0\", \"method\": \"world.nope\"}", "-32601", "nope"});
    cases.add(
        new String[] {
          "{\"jsonrpc\": \"2.0\", \"method\": \"world.stats\", \"params\": [1]}", "-32602", "object"
        });
    cases.add(new String[] {"[".repeat(40) + "]".repeat(40), "-32700", "nesting depth"});
    for (final String[] c : cases) {
      final HttpResponse<String> response = world.post(c[0], token);
      final JsonNode answer = TestWorld.parse(response.body());
      assertEquals(Integer.parseInt(c[1]), answer.get("error").get("code").asInt(), c[0]);
      assertTrue(
          answer.get("error").get("message").asText().contains(c[2]), () -> c[0] + " -> " + answer);
    }
  }

  @Test
  void oversizedBodiesAreRefusedBeforeParsing() {
    final String big =
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.stats\", \"params\": {\"x\": \""
            + "a".repeat(70_000)
            + "\"}}";
    final HttpResponse<String> response = world.post(big, world.inspector.token());
    assertEquals(413, response.statusCode());
    final JsonNode error = TestWorld.parse(response.body()).get("error");
    assertEquals(RpcError.REQUEST_TOO_LARGE, error.get("code").asInt());
    assertTrue(error.get("message").asText().contains("65536"));
  }

  @Test
  void getIsNotACall() {
    final HttpResponse<String> response =
        world.send(
            HttpRequest.newBuilder(world.inspector.rpcAddress())
                .header("Authorization", "Bearer " + world.inspector.token())
                .GET()
                .build());
    assertEquals(405, response.statusCode());
    assertEquals(
        RpcError.INVALID_REQUEST,
        TestWorld.parse(response.body()).get("error").get("code").asInt());
  }

  @Test
  void wrongParameters() {
    final int bad = RpcError.INVALID_PARAMS;
    message("world.stats", "{\"verbose\": true}", bad, "takes none");
    message("world.query", "{\"with\": \"Position\"}", bad, "array");
    message("world.query", "{\"with\": [3]}", bad, "strings");
    message("world.query", "{\"with\": [\"Nope\"]}", bad, "no component \"Nope\"");
    message("world.query", "{\"limit\": 0}", bad, "[1, 1000]");
    message("world.query", "{\"limit\": 1e3}", bad, "whole number");
    message("world.query", "{\"cursor\": 99999999999999999999}", bad, "whole number");
    message("world.query", "{\"values\": 1}", bad, "true or false");
    message("world.get_components", "{}", bad, "entity is missing");
    message("world.get_components", "{\"entity\": \"x\"}", bad, "index:version");
    message("world.get_components", "{\"entity\": \"1:0\"}", bad, "not alive");
    message("world.get_components", "{\"entity\": \"5:0\"}", bad, "not alive");
    message("world.get_components", "{\"entity\": [1]}", bad, "an array");
  }

  @Test
  void wrongWritesChangeNothing() {
    final int bad = RpcError.INVALID_PARAMS;
    final String e = "{\"entity\": " + id() + ", \"components\": ";
    message("world.insert_components", e + "{\"Position\": {}}}", bad, "already has a Position");
    message("world.insert_components", e + "[]}", bad, "object of components");
    message("world.insert_components", e + "{}}", bad, "no component");
    message("world.replace_components", e + "{\"Position\": {\"z\": 1}}}", bad, "no field \"z\"");
    message("world.replace_components", e + "{\"Position\": {\"x\": \"one\"}}}", bad, "a float");
    message("world.replace_components", e + "{\"Position\": {\"x\": 1e39}}}", bad, "range");
    message("world.replace_components", e + "{\"Position\": {\"x\": 1e999999999}}}", bad, "range");
    message(
        "world.replace_components", e + "{\"Position\": {\"x\": null}}}", bad, "cannot be null");
    message("world.replace_components", e + "{\"Position\": 3}}", bad, "object of fields");
    message("world.replace_components", e + "{\"Health\": {\"points\": 2147483648}}}", bad, "int");
    message("world.replace_components", e + "{\"Health\": {\"points\": 1.5}}}", bad, "whole");
    message("world.replace_components", e + "{\"Health\": {\"points\": -1}}}", bad, "refused");
    message("world.replace_components", e + "{\"Label\": {\"color\": \"PINK\"}}}", bad, "RED");
    message("world.replace_components", e + "{\"Label\": {\"tags\": []}}}", bad, "cannot write");
    message("world.replace_components", e + "{\"Velocity\": {}}}", bad, "no Velocity");
    // The first component is good, the second is not: neither is written.
    message(
        "world.replace_components",
        e + "{\"Position\": {\"x\": 9}, \"Health\": {\"points\": \"many\"}}}",
        bad,
        "points");
    message("world.remove_components", e + "[\"Position\", \"Velocity\"]}", bad, "no Velocity");
    message("world.remove_components", e + "[]}", bad, "at least one");
    message("world.spawn_entity", "{\"components\": {\"Position\": {\"x\": true}}}", bad, "float");
    message("world.despawn_entity", "{\"entity\": \"1:0\"}", bad, "not alive");
    message("world.watch", "{\"entities\": [\"a\"]}", bad, "index:version");
    message("world.watch", "{\"timeout_ms\": 60000}", bad, "[0, 30000]");
    message("world.watch", "{\"digests\": []}", bad, "digests");
  }

  @Test
  void theRuntimesOwnComponentsAreReadOnly() {
    world.onGame(
        () -> {
          final long parent = world.registry.create();
          dev.phalanx.ecs.hierarchy.Hierarchy.of(world.registry).attach(entity, parent);
          return null;
        });
    before = world.dump();
    JsonNode node = null;
    for (final JsonNode type : world.result("world.list_components", null)) {
      node = "Node".equals(type.get("name").asText()) ? type : node;
    }
    assertEquals(false, node.get("writable").asBoolean());
    assertEquals(0, node.get("editable").size());
    message(
        "world.replace_components",
        "{\"entity\": " + id() + ", \"components\": {\"Node\": {\"depth\": 0}}}",
        RpcError.INVALID_PARAMS,
        "kept by the runtime");
  }

  @Test
  void theWorldRefusingIsReported() throws Exception {
    // The registry holds at most 8 identifiers: fill it, then spawning is refused by the runtime.
    world.onGame(
        () -> {
          while (world.registry.entities().size() < 8) {
            world.registry.create();
          }
          return null;
        });
    before = world.dump();
    message("world.spawn_entity", "{}", RpcError.REFUSED, "refused");
  }

  @Test
  void resultsOverTheLimitAreRefused() throws Exception {
    final Registry registry = new Registry();
    for (int i = 0; i < 1000; i++) {
      registry.storage(Position_Traits.TYPE).emplace(registry.create(), i, i);
    }
    try (TestWorld small = new TestWorld(registry, b -> b.maxResultBytes(4096), 200_000)) {
      final String message =
          small.error(
              "world.query",
              "{\"with\": [\"Position\"], \"values\": true}",
              RpcError.RESULT_TOO_LARGE);
      assertTrue(message.contains("4096"), message);
      small.result("world.query", "{\"with\": [\"Position\"], \"limit\": 10}");
    }
  }

  @Test
  void callsTheGameDoesNotTakeTimeOutAndNeverRun() throws Exception {
    final Registry registry = new Registry();
    final long target = registry.create();
    try (TestWorld paused =
        new TestWorld(registry, b -> b.callTimeout(Duration.ofMillis(300)), 200_000)) {
      paused.serving(false);
      final String message =
          paused.error(
              "world.despawn_entity",
              "{\"entity\": \"" + Entity.index(target) + ":0\"}",
              RpcError.TIMEOUT);
      assertTrue(message.contains("serve()"), message);
      paused.serving(true);
      paused.result("world.stats", null);
      assertTrue(paused.onGame(() -> registry.valid(target)), "the timed-out call ran");
    }
  }

  @Test
  void aFullQueueAnswersBusy() throws Exception {
    final Registry registry = new Registry();
    try (TestWorld paused = new TestWorld(registry, b -> b.maxQueuedCalls(2), 200_000)) {
      paused.serving(false);
      final String body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.stats\"}";
      final List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        waiting.add(
            paused.http.sendAsync(
                HttpRequest.newBuilder(paused.inspector.rpcAddress())
                    .header("Authorization", "Bearer " + paused.inspector.token())
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString()));
      }
      while (paused.inspector.served() == 0 && queued(paused) < 2) {
        Thread.sleep(5);
      }
      final HttpResponse<String> busy = paused.post(body, paused.inspector.token());
      assertEquals(503, busy.statusCode());
      assertEquals(RpcError.BUSY, TestWorld.parse(busy.body()).get("error").get("code").asInt());
      paused.serving(true);
      for (final CompletableFuture<HttpResponse<String>> response : waiting) {
        assertTrue(TestWorld.parse(response.get().body()).has("result"));
      }
    }
  }

  /**
   * A call gives back its place in the queue before its client sees the answer: with room for one
   * call, a client that calls again as soon as it is answered is never told the queue is full (a
   * race the game thread lost now and then when its slot was freed after the answer).
   */
  @Test
  void anAnsweredCallNoLongerCountsAgainstTheQueue() throws Exception {
    final Registry registry = new Registry();
    try (TestWorld world = new TestWorld(registry, b -> b.maxQueuedCalls(1), 0)) {
      for (int i = 0; i < 500; i++) {
        world.result("world.stats", null);
      }
    }
  }

  private static int queued(final TestWorld world) throws Exception {
    final java.lang.reflect.Field field = Inspector.class.getDeclaredField("queued");
    field.setAccessible(true);
    return ((java.util.concurrent.atomic.AtomicInteger) field.get(world.inspector)).get();
  }

  @Test
  void scheduleMethodsWithoutAScheduleSaySoAndChangeNothing() {
    for (final String method :
        List.of(
            "schedule.plan",
            "schedule.pause",
            "schedule.resume",
            "schedule.step_frame",
            "schedule.step_system")) {
      message(method, null, RpcError.NO_SCHEDULE, method + ": no schedule is attached");
    }
    message(
        "schedule.set_enabled",
        "{\"system\": \"move\", \"enabled\": false}",
        RpcError.NO_SCHEDULE,
        ".schedule(schedule)");
  }

  @Test
  void settingsAreChecked() throws Exception {
    final Registry registry = new Registry();
    final Inspector.Builder builder = Inspector.builder(registry);
    assertThrows(IllegalArgumentException.class, () -> builder.token("short"));
    assertThrows(IllegalArgumentException.class, () -> builder.port(70000));
    assertThrows(IllegalArgumentException.class, () -> builder.maxRequestBytes(10));
    assertThrows(IllegalArgumentException.class, () -> builder.budget(Duration.ofMillis(-1)));
    final List<String> announced = new ArrayList<>();
    try (Inspector inspector =
        builder.token("a-configured-token-1234").announce(announced::add).start()) {
      assertEquals("a-configured-token-1234", inspector.token());
      assertEquals(List.of("Phalanx inspector: " + inspector.pageAddress()), announced);
      assertTrue(inspector.pageAddress().toString().endsWith("#token=a-configured-token-1234"));
      assertEquals(
          InetAddress.getLoopbackAddress().getHostAddress(), inspector.rpcAddress().getHost());
    }
  }
}
