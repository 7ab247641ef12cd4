package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import dev.phalanx.ecs.schedule.SystemFailedException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The writes that ended the example's game loop: removing a hierarchy node, despawning a parent,
 * adding a component a system expects only on children. A game loop runs a schedule whose "follow"
 * system requires a parent for every {@link Attachment}, as the example's does, and hands a failure
 * to the inspector as the example does.
 */
class GameSafetyTest {

  private Registry registry;
  private Hierarchy hierarchy;
  private TestWorld world;
  private long parent;
  private long child;
  private long grandchild;
  private long plain;
  private final AtomicLong followed = new AtomicLong();

  @BeforeEach
  void start() throws Exception {
    registry = new Registry();
    hierarchy = Hierarchy.of(registry);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Attachment_Storage attachments = registry.storage(Attachment_Traits.TYPE);
    parent = registry.create();
    positions.emplace(parent, 1, 1);
    child = registry.create();
    grandchild = registry.create();
    for (final long linked : new long[] {child, grandchild}) {
      positions.emplace(linked, 0, 0);
      attachments.emplace(linked, 1, 0);
    }
    hierarchy.attach(child, parent);
    hierarchy.attach(grandchild, child);
    plain = registry.create();
    positions.emplace(plain, 5, 5);
    final ScheduleBuilder plan = Schedule.builder(registry);
    plan.system(
            "follow",
            context -> {
              for (int i = 0; i < attachments.size(); i++) {
                if (Entity.isNull(hierarchy.parent(attachments.at(i)))) {
                  throw new IllegalStateException("Entity(null): no parent to follow");
                }
                followed.incrementAndGet();
              }
            })
        .reads(Attachment_Traits.TYPE);
    final Schedule schedule = plan.build();
    world = new TestWorld(registry, b -> b.schedule(schedule), 200_000);
    world.frame(
        () -> {
          try {
            schedule.run();
          } catch (SystemFailedException e) {
            world.inspector.systemFailed(e); // as the example's loop does
          }
        });
  }

  @AfterEach
  void stop() {
    world.assertConsistent();
    world.close();
  }

  private static String id(final long entity) {
    return "\"" + Entity.index(entity) + ":" + Entity.version(entity) + "\"";
  }

  /** Waits for {@code n} more frames: the loop is alive. */
  private void frames(final int n) {
    final long from = world.frames.get();
    final long deadline = System.nanoTime() + 10_000_000_000L;
    while (world.frames.get() < from + n) {
      assertTrue(System.nanoTime() < deadline, "the game loop stopped");
      LockSupport.parkNanos(100_000);
    }
  }

  @Test
  void theHierarchysNodeIsReadOnly() {
    frames(2);
    JsonNode node = null;
    for (final JsonNode type : world.result("world.list_components", null)) {
      if (type.get("key").asText().equals(Hierarchy.Node.class.getName())) {
        node = type;
      }
    }
    assertTrue(node.get("internal").asBoolean(), node::toString);
    assertFalse(node.get("writable").asBoolean(), node::toString);
    final String name = node.get("key").asText();
    final String before = world.dump();
    for (final String[] write :
        new String[][] {
          {
            "world.remove_components",
            "{\"entity\": " + id(child) + ", \"components\": [\"" + name + "\"]}"
          },
          {
            "world.remove_components",
            "{\"entity\": " + id(parent) + ", \"components\": [\"Position\", \"" + name + "\"]}"
          },
          {
            "world.insert_components",
            "{\"entity\": " + id(plain) + ", \"components\": {\"" + name + "\": {}}}"
          },
          {
            "world.replace_components",
            "{\"entity\": " + id(child) + ", \"components\": {\"" + name + "\": {\"parent\": 0}}}"
          },
          {"world.spawn_entity", "{\"components\": {\"" + name + "\": {}}}"},
        }) {
      final String message = world.error(write[0], write[1], RpcError.INVALID_PARAMS);
      assertTrue(message.contains("read-only"), message);
      assertEquals(before, world.dump(), write[0] + " changed nothing");
    }
    frames(2);
    assertEquals(0, world.result("world.stats", null).get("failures").asLong());
  }

  @Test
  void despawningAParentDespawnsItsSubtree() {
    assertEquals(
        2,
        world
            .result("world.get_components", "{\"entity\": " + id(parent) + "}")
            .get("descendants")
            .asInt());
    final JsonNode result =
        world.result("world.despawn_entity", "{\"entity\": " + id(parent) + "}");
    assertEquals(3, result.get("destroyed").asInt());
    assertEquals(1, result.get("alive").asInt());
    assertFalse(
        world.onGame(
            () -> registry.valid(parent) || registry.valid(child) || registry.valid(grandchild)));
    assertTrue(world.onGame(() -> registry.valid(plain)));
    // A leaf goes alone.
    assertEquals(
        1,
        world
            .result("world.despawn_entity", "{\"entity\": " + id(plain) + "}")
            .get("destroyed")
            .asInt());
    frames(3);
    final JsonNode stats = world.result("world.stats", null);
    assertEquals(0, stats.get("failures").asLong(), stats::toString);
    assertTrue(stats.get("failure").isNull());
  }

  @Test
  void aSystemFailureIsReportedAndTheLoopGoesOn() {
    frames(2);
    // What the inspector cannot know is wrong: an Attachment on a root. The write is the user's
    // call (the page asks first); the follow system then fails in the next frame.
    world.result(
        "world.insert_components",
        "{\"entity\": " + id(plain) + ", \"components\": {\"Attachment\": {}}}");
    final long deadline = System.nanoTime() + 10_000_000_000L;
    JsonNode stats = world.result("world.stats", null);
    while (stats.get("failure").isNull()) {
      assertTrue(System.nanoTime() < deadline, "the failure was never reported");
      stats = world.result("world.stats", null);
    }
    assertEquals("follow", stats.get("failure").get("system").asText());
    assertTrue(stats.get("failure").get("message").asText().contains("Entity(null)"));
    final JsonNode plan = world.result("schedule.plan", null);
    assertTrue(plan.get("paused").asBoolean(), "the failure paused the schedule");
    assertEquals("follow", plan.get("failure").get("system").asText());
    // The loop and the inspector live on; paused, the system fails no more.
    frames(5);
    assertEquals(1, world.result("world.stats", null).get("failures").asLong());
    world.assertConsistent();
    // The user repairs the world and resumes: frames run the system again, without failing.
    world.result(
        "world.remove_components",
        "{\"entity\": " + id(plain) + ", \"components\": [\"Attachment\"]}");
    final JsonNode resumed = world.result("schedule.resume", null);
    assertTrue(resumed.get("failure").isNull(), resumed::toString);
    final long before = world.onGame(followed::get);
    frames(5);
    assertTrue(world.onGame(followed::get) > before, "the system runs again");
    assertEquals(1, world.result("world.stats", null).get("failures").asLong());
  }
}
