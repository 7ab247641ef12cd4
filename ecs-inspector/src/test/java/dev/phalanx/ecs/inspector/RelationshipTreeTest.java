package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Relation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Relationship kinds in the inspector: {@code world.children} with {@code relation}, a kind's
 * forest a page at a time against a plain model of the links; an entity's relationships in {@code
 * world.get_components}; a despawn that follows each kind's policy; target edits that the relation
 * checks; the refusals, each leaving the world as it was.
 */
class RelationshipTreeTest {

  private static String id(final long entity) {
    return Entity.index(entity) + ":" + Entity.version(entity);
  }

  private static String q(final long entity) {
    return "\"" + id(entity) + "\"";
  }

  @Test
  void pagesOfRootsAndSourcesMatchAModelOfTheLinks() throws Exception {
    final Registry registry = new Registry();
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final Random random = new Random(46);
    // The model: each target's sources in link order; a replace moves a source to the end.
    final Map<Long, List<Long>> sources = new HashMap<>();
    final Map<Long, Long> targets = new HashMap<>();
    final List<Long> alive = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      final long entity = registry.create();
      alive.add(entity);
      sources.put(entity, new ArrayList<>());
    }
    for (int i = 0; i < 900; i++) {
      final long source = alive.get(random.nextInt(alive.size()));
      final long target = alive.get(random.nextInt(alive.size()));
      final Long old = targets.get(source);
      if (null != old) {
        sources.get(old).remove(source);
      }
      if (random.nextInt(5) == 0 && null != old) {
        docked.remove(source);
        targets.remove(source);
        continue;
      }
      if (null == old) {
        docked.emplace(source, target, i);
      } else {
        docked.replace(source, target, i);
      }
      targets.put(source, target);
      sources.get(target).add(source);
    }
    try (TestWorld world =
        new TestWorld(
            registry,
            b -> b.names(entity -> 0 == Entity.index(entity) % 5 ? "n" + id(entity) : null),
            200_000)) {
      final String before = world.dump();
      // Roots, 7 a page: targets that are no source.
      final Set<String> roots = new LinkedHashSet<>();
      JsonNode cursor = null;
      do {
        final JsonNode page =
            world.result(
                "world.children",
                "{\"relation\": \"Docked\", \"limit\": 7"
                    + (null == cursor ? "" : ", \"cursor\": " + cursor)
                    + "}");
        assertTrue(page.get("entities").size() <= 7);
        assertTrue(page.get("parent").isNull());
        assertEquals("Docked", page.get("relation").asText());
        for (final JsonNode node : page.get("entities")) {
          assertTrue(roots.add(node.get("entity").asText()), "listed once: " + node);
          checkNode(node, sources, alive);
        }
        cursor = page.get("next");
      } while (!cursor.isNull());
      final Set<String> expectedRoots = new LinkedHashSet<>();
      for (final long entity : alive) {
        if (!targets.containsKey(entity) && !sources.get(entity).isEmpty()) {
          expectedRoots.add(id(entity));
        }
      }
      assertEquals(expectedRoots, roots);
      // Every target's sources, 3 a page, in link order.
      for (final long target : alive) {
        final List<String> listed = new ArrayList<>();
        JsonNode next = null;
        do {
          final JsonNode page =
              world.result(
                  "world.children",
                  "{\"relation\": \"Docked\", \"parent\": "
                      + q(target)
                      + ", \"limit\": 3"
                      + (null == next ? "" : ", \"cursor\": " + next)
                      + "}");
          assertEquals(id(target), page.get("parent").asText());
          assertEquals(sources.get(target).size(), page.get("size").asInt());
          for (final JsonNode node : page.get("entities")) {
            listed.add(node.get("entity").asText());
            checkNode(node, sources, alive);
          }
          next = page.get("next");
        } while (!next.isNull());
        final List<String> expected = new ArrayList<>();
        sources.get(target).forEach(source -> expected.add(id(source)));
        assertEquals(expected, listed, () -> "sources of " + id(target));
      }
      // An entity's relationships, as get_components shows them.
      final long source = targets.keySet().iterator().next();
      final JsonNode got = world.result("world.get_components", "{\"entity\": " + q(source) + "}");
      final JsonNode link = got.get("relationships").get("Docked");
      assertEquals(id(targets.get(source)), link.get("target").asText());
      assertEquals(sources.get(source).size(), link.get("sources").asInt());
      assertEquals("DESTROY_SOURCES", link.get("onTargetDestroyed").asText());
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }

  private static void checkNode(
      final JsonNode node, final Map<Long, List<Long>> sources, final List<Long> alive) {
    final String entity = node.get("entity").asText();
    long found = Entity.NULL;
    for (final long e : alive) {
      if (id(e).equals(entity)) {
        found = e;
      }
    }
    assertFalse(Entity.isNull(found), entity + " is not alive");
    assertEquals(sources.get(found).size(), node.get("children").asInt(), entity);
    if (0 == Entity.index(found) % 5) {
      assertEquals("n" + entity, node.get("name").asText());
    } else {
      assertTrue(node.get("name").isNull(), node::toString);
    }
  }

  @Test
  void theKindsAreListedWithTheirPolicies() throws Exception {
    final Registry registry = new Registry();
    registry.storage(Position_Traits.TYPE);
    registry.storage(Docked_Traits.TYPE);
    registry.storage(OwnedBy_Traits.TYPE);
    final long lone = registry.create();
    try (TestWorld world = new TestWorld(registry)) {
      final Map<String, JsonNode> kinds = new HashMap<>();
      for (final JsonNode type : world.result("world.list_components", null)) {
        kinds.put(type.get("name").asText(), type.get("relationship"));
      }
      assertTrue(kinds.get("Position").isNull());
      assertEquals("DESTROY_SOURCES", kinds.get("Docked").get("onTargetDestroyed").asText());
      assertFalse(kinds.get("Docked").get("acyclic").asBoolean());
      assertEquals("REFUSE", kinds.get("OwnedBy").get("onTargetDestroyed").asText());
      assertTrue(kinds.get("OwnedBy").get("acyclic").asBoolean());
      final JsonNode got = world.result("world.get_components", "{\"entity\": " + q(lone) + "}");
      assertEquals(0, got.get("relationships").size(), "no kind names it, it names none");
      final JsonNode empty = world.result("world.children", "{\"relation\": \"OwnedBy\"}");
      assertEquals(0, empty.get("entities").size());
      assertTrue(empty.get("next").isNull());
    }
  }

  @Test
  void despawnDestroysTheSourcesOfADestroySourcesKind() throws Exception {
    final Registry registry = new Registry();
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final long carrier = registry.create();
    final long fighter = registry.create();
    final long drone = registry.create();
    final long other = registry.create();
    docked.emplace(fighter, carrier, 1);
    docked.emplace(drone, fighter, 2);
    docked.emplace(other, registry.create(), 3);
    try (TestWorld world = new TestWorld(registry)) {
      final JsonNode links =
          world
              .result("world.get_components", "{\"entity\": " + q(carrier) + "}")
              .get("relationships");
      assertTrue(links.get("Docked").get("target").isNull(), links::toString);
      assertEquals(1, links.get("Docked").get("sources").asInt(), links::toString);
      final JsonNode despawned =
          world.result("world.despawn_entity", "{\"entity\": " + q(carrier) + "}");
      assertEquals(3, despawned.get("destroyed").asInt(), despawned::toString);
      assertEquals(2, despawned.get("alive").asInt());
      assertFalse(world.onGame(() -> registry.valid(fighter)));
      assertFalse(world.onGame(() -> registry.valid(drone)));
      assertTrue(world.onGame(() -> registry.valid(other)));
      world.assertConsistent();
    }
  }

  @Test
  void despawnOfATargetThatRefusesIsAnErrorAndChangesNothing() throws Exception {
    final Registry registry = new Registry();
    final OwnedBy_Storage owned = registry.storage(OwnedBy_Traits.TYPE);
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final long player = registry.create();
    final long sword = registry.create();
    final long ship = registry.create();
    final long cargo = registry.create();
    owned.emplace(sword, player);
    // The ship's cargo is owned by the ship's carrier's captain: destroying the player takes the
    // ship (docked in it), not the cargo, which names the ship as its owner.
    docked.emplace(ship, player, 0);
    owned.emplace(cargo, ship);
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      for (final long refused : new long[] {player, ship}) {
        final String message =
            world.error(
                "world.despawn_entity", "{\"entity\": " + q(refused) + "}", RpcError.REFUSED);
        assertTrue(message.contains("refused") && message.contains("OwnedBy"), message);
        assertEquals(before, world.dump());
      }
      world.assertConsistent();
      // Once nothing that stays names it, the despawn goes through.
      world.result(
          "world.remove_components",
          "{\"entity\": " + q(cargo) + ", \"components\": [\"OwnedBy\"]}");
      world.result(
          "world.remove_components",
          "{\"entity\": " + q(sword) + ", \"components\": [\"OwnedBy\"]}");
      assertEquals(
          2,
          world
              .result("world.despawn_entity", "{\"entity\": " + q(player) + "}")
              .get("destroyed")
              .asInt());
      world.assertConsistent();
    }
  }

  @Test
  void aTargetIsEditedOnlyThroughAReplaceTheRelationChecks() throws Exception {
    final Registry registry = new Registry();
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final OwnedBy_Storage owned = registry.storage(OwnedBy_Traits.TYPE);
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    final long ship = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    owned.emplace(b, a);
    owned.emplace(c, b);
    docked.emplace(ship, a, 4);
    final Relation<Docked> docking = Relation.of(registry, Docked_Traits.TYPE);
    try (TestWorld world = new TestWorld(registry)) {
      // A live target: the reverse side follows, the other field keeps its value.
      world.result(
          "world.replace_components",
          "{\"entity\": "
              + q(ship)
              + ", \"components\": {\"Docked\": {\"carrier\": "
              + q(c)
              + "}}}");
      assertEquals(c, (long) world.onGame(() -> docking.target(ship)));
      assertEquals(1, (int) world.onGame(() -> docking.sourceCount(c)));
      assertEquals(0, (int) world.onGame(() -> docking.sourceCount(a)));
      assertEquals(4, (int) world.onGame(() -> docked.bay(ship)));
      world.assertConsistent();
      final String before = world.dump();
      final String[][] refused = {
        {
          "world.replace_components",
          "{\"entity\": "
              + q(ship)
              + ", \"components\": {\"Docked\": {\"carrier\": "
              + q(dead)
              + "}}}",
          "not a live entity"
        },
        {
          "world.replace_components",
          "{\"entity\": " + q(c) + ", \"components\": {\"OwnedBy\": {\"owner\": " + q(c) + "}}}",
          "acyclic"
        },
        {
          "world.replace_components",
          "{\"entity\": " + q(b) + ", \"components\": {\"OwnedBy\": {\"owner\": " + q(c) + "}}}",
          "acyclic"
        },
        {
          "world.insert_components",
          "{\"entity\": " + q(a) + ", \"components\": {\"OwnedBy\": {\"owner\": " + q(c) + "}}}",
          "acyclic"
        },
        {
          "world.insert_components",
          "{\"entity\": "
              + q(a)
              + ", \"components\": {\"Docked\": {\"carrier\": "
              + q(dead)
              + "}}}",
          "not a live entity"
        },
        {
          "world.spawn_entity",
          "{\"components\": {\"OwnedBy\": {\"owner\": " + q(dead) + "}}}",
          "not a live entity"
        },
      };
      for (final String[] call : refused) {
        final String message = world.error(call[0], call[1], RpcError.INVALID_PARAMS);
        assertTrue(message.contains(call[2]), () -> call[1] + ": " + message);
        assertEquals(before, world.dump(), call[1]);
      }
      world.assertConsistent();
    }
  }

  @Test
  void badParametersAreRefusedWithTheWorldUnchanged() throws Exception {
    final Registry registry = new Registry();
    registry.storage(Position_Traits.TYPE);
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final long carrier = registry.create();
    final long ship = registry.create();
    final long other = registry.create();
    docked.emplace(ship, carrier, 0);
    final long dead = registry.create();
    registry.destroy(dead);
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final String[][] bad = {
        {"{\"relation\": \"Position\"}", "is not a relationship kind"},
        {"{\"relation\": \"Nope\"}", "no component \"Nope\""},
        {"{\"relation\": 3}", "relation must be the name of a relationship kind"},
        {"{\"relation\": \"Docked\", \"parent\": " + q(dead) + "}", "is not alive"},
        {
          "{\"relation\": \"Docked\", \"parent\": "
              + q(carrier)
              + ", \"cursor\": "
              + q(other)
              + "}",
          "is not a source of"
        },
        {
          "{\"relation\": \"Docked\", \"parent\": " + q(other) + ", \"cursor\": " + q(ship) + "}",
          "is not a source of"
        },
        {"{\"relation\": \"Docked\", \"cursor\": -1}", "cursor must be in"},
        {"{\"relation\": \"Docked\", \"limit\": 0}", "limit must be in"},
        {"{\"relations\": \"Docked\"}", "it takes parent, cursor, limit, relation"},
      };
      for (final String[] call : bad) {
        final String message = world.error("world.children", call[0], RpcError.INVALID_PARAMS);
        assertTrue(message.contains(call[1]), () -> call[0] + ": " + message);
      }
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }
}
