package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code world.children}: the hierarchy a page at a time, against a plain model of parent links
 * kept beside the world; its bound on positions scanned; its refusals, each leaving the world as it
 * was.
 */
class HierarchyTreeTest {

  private static String id(final long entity) {
    return Entity.index(entity) + ":" + Entity.version(entity);
  }

  private static String q(final long entity) {
    return "\"" + id(entity) + "\"";
  }

  @Test
  void pagesOfRootsAndChildrenMatchAModelOfTheLinks() throws Exception {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final Random random = new Random(50);
    // The model: each entity's children, most recently attached first (the hierarchy's order).
    final Map<Long, List<Long>> children = new HashMap<>();
    final Map<Long, Long> parents = new HashMap<>();
    final List<Long> alive = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      final long entity = registry.create();
      alive.add(entity);
      children.put(entity, new ArrayList<>());
      if (i > 0 && random.nextInt(3) > 0) {
        final long parent = alive.get(random.nextInt(alive.size() - 1));
        hierarchy.attach(entity, parent);
        children.get(parent).add(0, entity);
        parents.put(entity, parent);
      }
    }
    // Some leaves die: their parents' lists shrink.
    for (int i = 0; i < 40; i++) {
      final long victim = alive.get(random.nextInt(alive.size()));
      if (children.get(victim).isEmpty()) {
        registry.destroy(victim);
        alive.remove(victim);
        final Long parent = parents.remove(victim);
        if (null != parent) {
          children.get(parent).remove(victim);
        }
        children.remove(victim);
      }
    }
    try (TestWorld world =
        new TestWorld(
            registry,
            b -> b.names(entity -> 0 == Entity.index(entity) % 5 ? "n" + id(entity) : null),
            200_000)) {
      final String before = world.dump();
      // Roots, 7 a page.
      final Set<String> roots = new LinkedHashSet<>();
      JsonNode cursor = null;
      do {
        final JsonNode page =
            world.result(
                "world.children",
                "{\"limit\": 7" + (null == cursor ? "" : ", \"cursor\": " + cursor) + "}");
        assertTrue(page.get("entities").size() <= 7);
        assertTrue(page.get("parent").isNull());
        for (final JsonNode node : page.get("entities")) {
          roots.add(node.get("entity").asText());
          checkNode(node, children, alive);
        }
        cursor = page.get("next");
      } while (!cursor.isNull());
      final Set<String> expectedRoots = new LinkedHashSet<>();
      for (final long entity : alive) {
        if (!parents.containsKey(entity)) {
          expectedRoots.add(id(entity));
        }
      }
      assertEquals(expectedRoots, roots);
      // Every parent's children, 3 a page, in the hierarchy's order.
      for (final long parent : alive) {
        final List<String> listed = new ArrayList<>();
        JsonNode next = null;
        do {
          final JsonNode page =
              world.result(
                  "world.children",
                  "{\"parent\": "
                      + q(parent)
                      + ", \"limit\": 3"
                      + (null == next ? "" : ", \"cursor\": " + next)
                      + "}");
          assertEquals(id(parent), page.get("parent").asText());
          assertEquals(children.get(parent).size(), page.get("size").asInt());
          for (final JsonNode node : page.get("entities")) {
            listed.add(node.get("entity").asText());
            checkNode(node, children, alive);
          }
          next = page.get("next");
        } while (!next.isNull());
        final List<String> expected = new ArrayList<>();
        children.get(parent).forEach(child -> expected.add(id(child)));
        assertEquals(expected, listed, () -> "children of " + id(parent));
      }
      // An entity's links, as get_components shows them.
      final long child = parents.keySet().iterator().next();
      final JsonNode got = world.result("world.get_components", "{\"entity\": " + q(child) + "}");
      assertEquals(id(parents.get(child)), got.get("parent").asText());
      assertEquals(children.get(child).size(), got.get("children").asInt());
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }

  private static void checkNode(
      final JsonNode node, final Map<Long, List<Long>> children, final List<Long> alive) {
    final String entity = node.get("entity").asText();
    long found = Entity.NULL;
    for (final long e : alive) {
      if (id(e).equals(entity)) {
        found = e;
      }
    }
    assertTrue(!Entity.isNull(found), entity + " is not alive");
    assertEquals(children.get(found).size(), node.get("children").asInt(), entity);
    if (0 == Entity.index(found) % 5) {
      assertEquals("n" + entity, node.get("name").asText());
    } else {
      assertTrue(node.get("name").isNull(), node::toString);
    }
  }

  @Test
  void aPageOfRootsScansAtMostItsBound() throws Exception {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final int size = Methods.MAX_SCAN + 5000;
    for (int i = 1; i < size; i++) {
      hierarchy.attach(registry.create(), root);
    }
    try (TestWorld world = new TestWorld(registry)) {
      final JsonNode first = world.result("world.children", "{\"limit\": 1000}");
      assertEquals(1, first.get("entities").size());
      assertEquals(Methods.MAX_SCAN, first.get("scanned").asInt());
      assertEquals(Methods.MAX_SCAN, first.get("next").asInt());
      final JsonNode last =
          world.result("world.children", "{\"cursor\": " + Methods.MAX_SCAN + "}");
      assertEquals(0, last.get("entities").size());
      assertEquals(size - Methods.MAX_SCAN, last.get("scanned").asInt());
      assertTrue(last.get("next").isNull());
      // A parent's page walks at most its limit of siblings.
      final JsonNode kids =
          world.result("world.children", "{\"parent\": " + q(root) + ", \"limit\": 1000}");
      assertEquals(1000, kids.get("entities").size());
      assertEquals(size - 1, kids.get("size").asInt());
      world.assertConsistent();
    }
  }

  @Test
  void withoutAHierarchyEveryEntityIsARootAndNoneIsCreated() throws Exception {
    final Registry registry = new Registry();
    final long a = registry.create();
    registry.create();
    try (TestWorld world = new TestWorld(registry)) {
      final JsonNode roots = world.result("world.children", "{}");
      assertEquals(2, roots.get("entities").size());
      assertEquals(0, roots.get("entities").get(0).get("children").asInt());
      final JsonNode none = world.result("world.children", "{\"parent\": " + q(a) + "}");
      assertEquals(0, none.get("entities").size());
      assertTrue(none.get("next").isNull());
      assertNull(world.onGame(() -> registry.context().find(Hierarchy.class)));
      final JsonNode got = world.result("world.get_components", "{\"entity\": " + q(a) + "}");
      assertTrue(got.get("parent").isNull());
      world.assertConsistent();
    }
  }

  @Test
  void badParametersAreRefusedWithTheWorldUnchanged() throws Exception {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long parent = registry.create();
    final long child = registry.create();
    final long other = registry.create();
    hierarchy.attach(child, parent);
    final long dead = registry.create();
    registry.destroy(dead);
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final String[][] bad = {
        {"{\"parent\": " + q(dead) + "}", "is not alive"},
        {"{\"parent\": \"abc\"}", "is not an entity"},
        {"{\"parent\": " + q(parent) + ", \"cursor\": " + q(other) + "}", "is not a child of"},
        {"{\"parent\": " + q(parent) + ", \"cursor\": " + q(dead) + "}", "is not a child of"},
        {"{\"parent\": " + q(parent) + ", \"cursor\": 3}", "is not a child of"},
        {"{\"cursor\": \"1:0\"}", "cursor must be a whole number"},
        {"{\"cursor\": -1}", "cursor must be in"},
        {"{\"limit\": 0}", "limit must be in"},
        {"{\"limit\": 1001}", "limit must be in"},
        {"{\"parents\": null}", "has no parameter \"parents\""},
      };
      for (final String[] call : bad) {
        final String message = world.error("world.children", call[0], RpcError.INVALID_PARAMS);
        assertTrue(message.contains(call[1]), () -> call[0] + ": " + message);
      }
      // The token is checked first, as for every method.
      final String body =
          "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.children\", \"params\": {}}";
      assertEquals(401, world.post(body, null).statusCode());
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }
}
