package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every method, through a real HTTP client against a real server on loopback. */
class ProtocolTest {

  /** A component without generated code: one object per entity. */
  public record Note(String text) {}

  static final ComponentType<Note, ObjectStorage<Note>> NOTE = ComponentType.object(Note.class);

  private TestWorld world;
  private final List<Long> moving = new ArrayList<>();
  private long still;

  @BeforeEach
  void start() throws Exception {
    final Registry registry = new Registry();
    for (int i = 0; i < 250; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i, -i);
      registry.storage(Velocity_Traits.TYPE).emplace(e, 1, 2);
      if (i % 2 == 0) {
        registry.storage(Frozen_Traits.TYPE).emplace(e);
      }
      moving.add(e);
    }
    still = registry.create();
    registry.storage(Position_Traits.TYPE).emplace(still, 5, 6);
    registry.storage(Health_Traits.TYPE).emplace(still, 10);
    registry.storage(Label_Traits.TYPE).emplace(still, new Label("hi", Label.Color.RED, 7, null));
    registry.storage(NOTE).emplace(still, new Note("n"));
    registry.storage("selected").emplace(still);
    registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
    world = new TestWorld(registry);
  }

  @AfterEach
  void stop() {
    world.close();
  }

  private String id(final long entity) {
    return "\"" + Entity.index(entity) + ":" + Entity.version(entity) + "\"";
  }

  @Test
  void discoverListsEveryMethod() {
    final JsonNode result = world.result("rpc.discover", null);
    final Set<String> names = new HashSet<>();
    result.get("methods").forEach(m -> names.add(m.get("name").asText()));
    assertEquals(Methods.METHODS.size(), names.size());
    for (final String[] method : Methods.METHODS) {
      assertTrue(names.contains(method[0]), method[0]);
    }
    assertTrue(names.contains("world.watch"));
    assertEquals("1.3.2", result.get("openrpc").asText());
  }

  @Test
  void statsStoragesComponentsAndGroups() {
    final JsonNode stats = world.result("world.stats", "{}");
    assertEquals(251, stats.get("alive").asInt());
    assertEquals(world.onGame(world.registry::storageCount), stats.get("storages").asInt());
    assertEquals(1, stats.get("groups").asInt());
    assertTrue(stats.get("bytes").asLong() > 251 * 16);

    final JsonNode storages = world.result("world.list_storages", null);
    JsonNode position = null;
    for (final JsonNode storage : storages) {
      if ("Position".equals(storage.get("name").asText())) {
        position = storage;
      }
    }
    assertEquals(251, position.get("size").asInt());
    assertEquals("generated", position.get("kind").asText());
    // Packed array plus one page of 4096 (x, y) floats.
    assertTrue(position.get("bytes").asLong() >= 4096L * 8 + 251 * 8, position::toString);
    assertFalse(position.get("owner").isNull());

    final JsonNode components = world.result("world.list_components", null);
    final List<String> kinds = new ArrayList<>();
    for (final JsonNode type : components) {
      kinds.add(type.get("name").asText() + "/" + type.get("kind").asText());
      if ("Label".equals(type.get("name").asText())) {
        assertEquals("String", type.get("fields").get("text").asText());
        assertEquals("[\"text\",\"color\",\"big\"]", type.get("editable").toString());
        assertTrue(type.get("writable").asBoolean());
      }
      if ("Health".equals(type.get("name").asText())) {
        assertTrue(type.get("tracked").asBoolean());
        assertEquals("int", type.get("fields").get("points").asText());
      }
    }
    assertTrue(kinds.contains("Frozen/tag"), kinds::toString);
    assertTrue(kinds.contains("selected/void"), kinds::toString);
    assertTrue(kinds.contains("Note/object"), kinds::toString);

    final JsonNode groups = world.result("world.list_groups", null);
    assertEquals(1, groups.size());
    assertEquals("full-owning", groups.get(0).get("kind").asText());
    assertEquals(250, groups.get(0).get("size").asInt());
    assertEquals("Position", groups.get(0).get("owned").get(0).asText());
  }

  @Test
  void queryPagesThroughEveryMatch() {
    final Set<String> seen = new HashSet<>();
    Integer cursor = 0;
    int pages = 0;
    while (null != cursor) {
      final JsonNode page =
          world.result(
              "world.query",
              "{\"with\": [\"Position\", \"Velocity\"], \"without\": [\"Frozen\"], \"limit\": 50,"
                  + " \"cursor\": "
                  + cursor
                  + "}");
      page.get("entities").forEach(e -> assertTrue(seen.add(e.asText())));
      cursor = page.get("next").isNull() ? null : page.get("next").asInt();
      pages++;
    }
    assertEquals(125, seen.size());
    // 250 positions of the lead (Velocity), one match in two: the third page reaches the end.
    assertEquals(3, pages);
    for (int i = 1; i < 250; i += 2) {
      assertTrue(seen.contains(id(moving.get(i)).replace("\"", "")));
    }
    // Without a with-list, the live entities lead.
    final JsonNode all = world.result("world.query", "{\"limit\": 1000}");
    assertEquals(251, all.get("entities").size());
    assertEquals("entities", all.get("lead").asText());
    // Values.
    final JsonNode values =
        world.result("world.query", "{\"with\": [\"Health\"], \"values\": true}");
    assertEquals(1, values.get("entities").size());
    final JsonNode entity = values.get("entities").get(0);
    assertEquals(id(still).replace("\"", ""), entity.get("entity").asText());
    assertEquals(10, entity.get("components").get("Health").get("points").asInt());
    assertEquals(5.0, entity.get("components").get("Position").get("x").asDouble());
  }

  @Test
  void getComponentsGivesFieldValues() {
    final JsonNode result = world.result("world.get_components", "{\"entity\": " + id(still) + "}");
    final JsonNode components = result.get("components");
    assertEquals(6.0, components.get("Position").get("y").asDouble());
    assertEquals("hi", components.get("Label").get("text").asText());
    assertEquals("RED", components.get("Label").get("color").asText());
    assertEquals(7, components.get("Label").get("big").asLong());
    assertTrue(components.has("selected"));
    assertTrue(components.has("Note"));
    final JsonNode only =
        world.result(
            "world.get_components",
            "{\"entity\": " + id(still) + ", \"components\": [\"Health\"]}");
    assertEquals(1, only.get("components").size());
    // The raw handle works too.
    assertEquals(
        result.get("digest"),
        world.result("world.get_components", "{\"entity\": " + still + "}").get("digest"));
  }

  @Test
  void insertReplaceRemoveSpawnAndDespawnChangeTheRegistry() {
    final long target = moving.get(1);
    world.result(
        "world.insert_components",
        "{\"entity\": "
            + id(target)
            + ", \"components\": {\"Health\": {\"points\": 3},"
            + " \"Frozen\": {}, \"Label\": {\"text\": \"new\", \"color\": \"BLUE\"}}}");
    assertEquals(3, world.onGame(() -> world.registry.get(target, Health_Traits.TYPE).points()));
    assertTrue(world.onGame(() -> world.registry.has(target, Frozen_Traits.TYPE)));
    assertEquals(
        Label.Color.BLUE,
        world.onGame(() -> world.registry.get(target, Label_Traits.TYPE).getColor()));
    world.assertConsistent();

    // Replace one field: the other keeps its value.
    final JsonNode replaced =
        world.result(
            "world.replace_components",
            "{\"entity\": "
                + id(target)
                + ", \"components\": {\"Position\": {\"y\": 42.5},"
                + " \"Label\": {\"text\": \"edited\"}}}");
    assertEquals(42.5, replaced.get("components").get("Position").get("y").asDouble());
    assertEquals(
        new Position(1, 42.5f),
        world.onGame(() -> world.registry.get(target, Position_Traits.TYPE)));
    assertEquals(
        "edited", world.onGame(() -> world.registry.get(target, Label_Traits.TYPE).getText()));
    assertEquals(
        Label.Color.BLUE,
        world.onGame(() -> world.registry.get(target, Label_Traits.TYPE).getColor()));
    world.assertConsistent();

    world.result(
        "world.remove_components",
        "{\"entity\": " + id(target) + ", \"components\": [\"Velocity\", \"Frozen\"]}");
    assertFalse(world.onGame(() -> world.registry.has(target, Velocity_Traits.TYPE)));
    assertFalse(world.onGame(() -> world.registry.has(target, Frozen_Traits.TYPE)));
    assertEquals(249, world.onGame(() -> world.registry.groups().get(0).size()));
    world.assertConsistent();

    final JsonNode spawned =
        world.result(
            "world.spawn_entity",
            "{\"components\": {\"Position\": {\"x\": 1, \"y\": 2}, \"Velocity\": {\"dx\": 3},"
                + " \"selected\": {}}}");
    final long entity = Codec.parseEntity(spawned.get("entity"), "entity");
    assertEquals(
        new Position(1, 2), world.onGame(() -> world.registry.get(entity, Position_Traits.TYPE)));
    assertEquals(
        new Velocity(3, 0), world.onGame(() -> world.registry.get(entity, Velocity_Traits.TYPE)));
    assertTrue(world.onGame(() -> world.registry.storage("selected").contains(entity)));
    assertEquals(250, world.onGame(() -> world.registry.groups().get(0).size()));
    world.assertConsistent();

    final JsonNode empty = world.result("world.spawn_entity", "{}");
    final long bare = Codec.parseEntity(empty.get("entity"), "entity");
    assertTrue(world.onGame(() -> world.registry.valid(bare)));

    final JsonNode despawned =
        world.result("world.despawn_entity", "{\"entity\": " + id(entity) + "}");
    assertEquals(252, despawned.get("alive").asInt());
    assertFalse(world.onGame(() -> world.registry.valid(entity)));
    world.assertConsistent();
  }

  @Test
  void systemTimingsWithAndWithoutASchedule() throws Exception {
    final JsonNode none = world.result("world.system_timings", null);
    assertFalse(none.get("attached").asBoolean());
    assertEquals(0, none.get("systems").size());

    final Registry registry = new Registry();
    final ScheduleBuilder declared = Schedule.builder(registry);
    declared.system("spin", context -> Thread.onSpinWait());
    final Schedule schedule = declared.build();
    try (TestWorld scheduled =
        new TestWorld(registry, builder -> builder.schedule(schedule), 200_000)) {
      scheduled.frame(schedule::run);
      while (scheduled.frames.get() < 5) {
        Thread.onSpinWait();
      }
      final JsonNode timings = scheduled.result("world.system_timings", null);
      assertTrue(timings.get("attached").asBoolean());
      assertEquals("spin", timings.get("systems").get(0).get("system").asText());
      assertTrue(timings.get("systems").get(0).get("runs").asLong() >= 5);
      assertTrue(timings.get("frame").get("maxNanos").asLong() > 0);
      assertTrue(scheduled.result("world.stats", null).get("frame").asLong() >= 5);
    }
  }

  @Test
  void watchReportsValueChangesOfWatchedEntities() {
    final String entity = id(still);
    final JsonNode first = world.result("world.watch", "{\"entities\": [" + entity + "]}");
    final JsonNode reported = first.get("entities").get(entity.replace("\"", ""));
    assertEquals(10, reported.get("components").get("Health").get("points").asInt());
    final String digest = reported.get("digest").asText();
    final String digests = "{" + entity + ": \"" + digest + "\"}";
    // Nothing changed: an immediate answer reports nothing.
    final JsonNode quiet =
        world.result(
            "world.watch", "{\"entities\": [" + entity + "], \"digests\": " + digests + "}");
    assertEquals(0, quiet.get("entities").size());
    // A change on the game thread while the watch waits.
    final Thread writer =
        new Thread(
            () -> {
              try {
                Thread.sleep(300);
              } catch (InterruptedException e) {
                return;
              }
              world.onGame(
                  () -> {
                    world.registry.storage(Position_Traits.TYPE).setX(still, 99);
                    return null;
                  });
            });
    writer.start();
    final long start = System.nanoTime();
    final JsonNode changed =
        world.result(
            "world.watch",
            "{\"entities\": ["
                + entity
                + "], \"digests\": "
                + digests
                + ", \"timeout_ms\": 10000}");
    final long waited = (System.nanoTime() - start) / 1_000_000;
    assertTrue(waited >= 250 && waited < 9000, () -> "waited " + waited + " ms");
    final JsonNode now = changed.get("entities").get(entity.replace("\"", ""));
    assertEquals(99.0, now.get("components").get("Position").get("x").asDouble());
    assertNotEquals(digest, now.get("digest").asText());
    // A wait that sees nothing ends at its timeout with nothing.
    final String newDigests = "{" + entity + ": \"" + now.get("digest").asText() + "\"}";
    final JsonNode timedOut =
        world.result(
            "world.watch",
            "{\"entities\": ["
                + entity
                + "], \"digests\": "
                + newDigests
                + ", \"timeout_ms\": 200}");
    assertEquals(0, timedOut.get("entities").size());
    // Destroyed: reported once as dead.
    world.onGame(
        () -> {
          world.registry.destroy(still);
          return null;
        });
    final JsonNode dead =
        world.result(
            "world.watch", "{\"entities\": [" + entity + "], \"digests\": " + newDigests + "}");
    assertFalse(dead.get("entities").get(entity.replace("\"", "")).get("alive").asBoolean());
  }

  @Test
  void watchReportsTrackedWritesSinceTheLastCall() {
    final JsonNode first = world.result("world.watch", "{\"components\": [\"Health\"]}");
    assertEquals(1, first.get("changed").get("Health").size());
    final long since = first.get("since").asLong();
    final JsonNode none =
        world.result("world.watch", "{\"components\": [\"Health\"], \"since\": " + since + "}");
    assertEquals(0, none.get("changed").get("Health").size());
    world.onGame(
        () -> {
          world.registry.replace(still, Health_Traits.TYPE, new Health(4));
          return null;
        });
    final JsonNode after =
        world.result(
            "world.watch",
            "{\"components\": [\"Health\"], \"since\": " + none.get("since").asLong() + "}");
    assertEquals(id(still).replace("\"", ""), after.get("changed").get("Health").get(0).asText());
    assertTrue(
        world
            .error("world.watch", "{\"components\": [\"Position\"]}", RpcError.INVALID_PARAMS)
            .contains("not tracked"));
  }
}
