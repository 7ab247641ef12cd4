package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * Entity names given by the game ({@code Inspector.Builder.names}): shown by the listing methods,
 * searched by {@code world.query}'s {@code name} against a plain map, within a bound of lookups; a
 * name function that throws at any of its calls leaves every call answered and the world as it was.
 */
class NamesTest {

  private static final String[] WORDS = {"player", "Orc", "orc chief", "torch", "door", "tree"};

  private static String id(final long entity) {
    return Entity.index(entity) + ":" + Entity.version(entity);
  }

  @Test
  void searchByNameMatchesAModelOfTheNames() throws Exception {
    final Registry registry = new Registry();
    final Random random = new Random(7);
    final Map<Long, String> names = new HashMap<>();
    for (int i = 0; i < 3000; i++) {
      final long entity = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(entity, i, i);
      if (random.nextInt(4) == 0) {
        names.put(entity, WORDS[random.nextInt(WORDS.length)] + " " + i);
      }
      if (i % 2 == 0) {
        registry.storage(Velocity_Traits.TYPE).emplace(entity, 0, 0);
      }
    }
    final LongFunction<String> lookup = names::get;
    try (TestWorld world = new TestWorld(registry, b -> b.names(lookup), 200_000)) {
      final String before = world.dump();
      for (final String part : new String[] {"orc", "ORC CH", "player 1", "zzz", "e 2"}) {
        for (final String filter : new String[] {"", "\"with\": [\"Velocity\"], "}) {
          final Set<String> found = new TreeSet<>();
          JsonNode page =
              world.result(
                  "world.query", "{" + filter + "\"name\": \"" + part + "\", \"limit\": 40}");
          while (true) {
            for (final JsonNode entity : page.get("entities")) {
              found.add(entity.asText());
              assertTrue(page.get("names").has(entity.asText()), page::toString);
            }
            if (page.get("next").isNull()) {
              break;
            }
            page =
                world.result(
                    "world.query",
                    "{"
                        + filter
                        + "\"name\": \""
                        + part
                        + "\", \"limit\": 40, \"cursor\": "
                        + page.get("next").asInt()
                        + "}");
          }
          final Set<String> expected = new TreeSet<>();
          for (final Map.Entry<Long, String> entry : names.entrySet()) {
            if (entry.getValue().toLowerCase().contains(part.toLowerCase())
                && (filter.isEmpty() || 0 == Entity.index(entry.getKey()) % 2)) {
              expected.add(id(entry.getKey()));
            }
          }
          assertEquals(expected, found, () -> part + " " + filter);
        }
      }
      // Names beside every listed entity, and on get_components.
      final JsonNode page = world.result("world.query", "{\"limit\": 100}");
      for (final JsonNode entity : page.get("entities")) {
        final long handle = Codec.parseEntity(entity, "entity");
        final JsonNode name = page.get("names").get(entity.asText());
        assertEquals(names.get(handle), null == name ? null : name.asText());
      }
      final long named = names.keySet().iterator().next();
      assertEquals(
          names.get(named),
          world
              .result("world.get_components", "{\"entity\": \"" + id(named) + "\"}")
              .get("name")
              .asText());
      // And on the entities a watch reports.
      final long unnamed = registry.entities().packed()[0];
      final JsonNode watched =
          world
              .result(
                  "world.watch", "{\"entities\": [\"" + id(named) + "\", \"" + id(unnamed) + "\"]}")
              .get("entities");
      assertEquals(names.get(named), watched.get(id(named)).get("name").asText());
      assertEquals(
          names.containsKey(unnamed), watched.get(id(unnamed)).has("name"), watched::toString);
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }

  @Test
  void aSearchByNameCallsTheFunctionABoundedNumberOfTimes() throws Exception {
    final Registry registry = new Registry();
    for (int i = 0; i < Methods.MAX_SCAN + 1000; i++) {
      registry.create();
    }
    final AtomicInteger calls = new AtomicInteger();
    try (TestWorld world =
        new TestWorld(
            registry,
            b ->
                b.names(
                    entity -> {
                      calls.incrementAndGet();
                      return "e";
                    }),
            200_000)) {
      final JsonNode none = world.result("world.query", "{\"name\": \"x\", \"limit\": 1000}");
      final int bound = Methods.MAX_CHECKS / (1 + Methods.NAME_COST);
      assertEquals(bound, none.get("scanned").asInt());
      assertEquals(bound, none.get("next").asInt());
      assertEquals(bound, calls.get());
      final JsonNode all = world.result("world.query", "{\"name\": \"E\", \"limit\": 1000}");
      assertEquals(1000, all.get("entities").size());
      world.assertConsistent();
    }
  }

  @Test
  void aNameFunctionThatThrowsAtAnyCallLeavesEveryCallAnswered() throws Exception {
    final Registry registry = new Registry();
    for (int i = 0; i < 12; i++) {
      registry.storage(Position_Traits.TYPE).emplace(registry.create(), i, i);
    }
    final AtomicInteger countdown = new AtomicInteger(-1);
    final AtomicInteger calls = new AtomicInteger();
    try (TestWorld world =
        new TestWorld(
            registry,
            b ->
                b.names(
                    entity -> {
                      calls.incrementAndGet();
                      if (0 == countdown.decrementAndGet()) {
                        throw new IllegalStateException("injected");
                      }
                      return "e" + Entity.index(entity);
                    }),
            200_000)) {
      final String before = world.dump();
      final String[][] calling = {
        {"world.query", "{\"limit\": 12}"},
        {"world.query", "{\"name\": \"e\"}"},
        {"world.children", "{}"},
        {"world.get_components", "{\"entity\": \"3\"}"},
      };
      for (final String[] call : calling) {
        calls.set(0);
        countdown.set(-1);
        world.result(call[0], call[1]);
        final int n = calls.get();
        assertTrue(n > 0, call[0]);
        for (int k = 1; k <= n; k++) {
          countdown.set(k);
          // Answered, not failed: the failed lookup gives no name.
          world.result(call[0], call[1]);
          assertEquals(before, world.dump());
          world.assertConsistent();
        }
      }
      // An empty name is none; a long one is cut.
      final Methods methods =
          new Methods(
              registry, null, Map.of(), entity -> "x".repeat(500), Map.of(), TestWorld.JSON);
      final ObjectNode params = (ObjectNode) TestWorld.parse("{\"limit\": 1}");
      final JsonNode cut =
          world.onGame(() -> methods.run("world.query", params, false)).get("names");
      assertEquals(Methods.MAX_NAME, cut.elements().next().asText().length());
      final Methods empty =
          new Methods(registry, null, Map.of(), entity -> "", Map.of(), TestWorld.JSON);
      assertEquals(
          0, world.onGame(() -> empty.run("world.query", params, false)).get("names").size());
    }
  }

  @Test
  void badNameSearchesAreRefused() throws Exception {
    final Registry registry = new Registry();
    registry.create();
    try (TestWorld world = new TestWorld(registry)) {
      final String message =
          world.error("world.query", "{\"name\": \"orc\"}", RpcError.INVALID_PARAMS);
      assertTrue(message.contains("names(entity"), message);
    }
    try (TestWorld world = new TestWorld(registry, b -> b.names(e -> "n"), 200_000)) {
      final String before = world.dump();
      for (final String bad :
          new String[] {"\"\"", "3", "[\"a\"]", "\"" + "a".repeat(Methods.MAX_NAME + 1) + "\""}) {
        final String message =
            world.error("world.query", "{\"name\": " + bad + "}", RpcError.INVALID_PARAMS);
        assertTrue(message.contains("name must be a string"), message);
      }
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }
}
