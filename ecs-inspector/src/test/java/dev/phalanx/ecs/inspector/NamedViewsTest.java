package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code world.list_views} reports the views named when the inspector was attached: their types,
 * the set an iteration would walk, and how many entities match, counted live on the game thread
 * (within the scan bound; past it, only the size hint).
 */
class NamedViewsTest {

  @Test
  void namedViewsReportTheirTypesLeaderAndLiveSize() throws Exception {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final Frozen_Storage frozen = registry.storage(Frozen_Traits.TYPE);
    final Health_Storage health = registry.storage(Health_Traits.TYPE);
    final List<Long> moving = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      final long e = registry.create();
      positions.emplace(e, i, i);
      if (i % 2 == 0) {
        velocities.emplace(e, 1, 1);
        if (i % 4 == 0) {
          frozen.emplace(e);
        } else {
          moving.add(e);
        }
      }
    }
    final int many = Methods.MAX_SCAN + 10;
    for (int i = 0; i < many; i++) {
      health.emplace(registry.create(), new Health(i));
    }
    final View movers = View.of(positions, velocities).exclude(frozen);
    try (TestWorld world =
        new TestWorld(
            registry,
            builder -> builder.view("movers", movers).view("alive", View.of(health)),
            100_000)) {
      final JsonNode views = world.result("world.list_views", null);
      assertEquals(
          "[{\"name\":\"movers\",\"include\":[\"Position\",\"Velocity\"],\"exclude\":[\"Frozen\"],"
              + "\"leader\":\"Velocity\",\"sizeHint\":50,\"size\":25},"
              + "{\"name\":\"alive\",\"include\":[\"Health\"],\"exclude\":[],\"leader\":\"Health\","
              + "\"sizeHint\":"
              + many
              + ",\"size\":null}]",
          views.toString());

      world.onGame(
          () -> {
            registry.destroy(moving.get(0));
            frozen.emplace(moving.get(1));
            return null;
          });
      assertEquals(23, world.result("world.list_views", "{}").get(0).get("size").asInt());

      final JsonNode refused = world.call("world.list_views", "{\"name\": \"movers\"}");
      assertEquals(-32602, refused.get("error").get("code").asInt(), refused::toString);
    }
  }

  @Test
  void aViewNeedsAFreshNameAndStoragesOfTheInspectedRegistry() {
    final Registry registry = new Registry();
    final Registry other = new Registry();
    final Inspector.Builder builder = Inspector.builder(registry);
    final View mine = View.of(registry.storage(Position_Traits.TYPE));
    builder.view("mine", mine);

    final IllegalArgumentException taken =
        assertThrows(IllegalArgumentException.class, () -> builder.view("mine", mine));
    assertEquals("a view is already named mine", taken.getMessage());
    assertThrows(IllegalArgumentException.class, () -> builder.view("", mine));
    final IllegalArgumentException foreign =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                builder.view(
                    "theirs",
                    View.of(registry.storage(Position_Traits.TYPE))
                        .exclude(other.storage(Velocity_Traits.TYPE))));
    assertTrue(
        foreign.getMessage().startsWith("view theirs: storage of")
            && foreign.getMessage().endsWith("belongs to another registry"),
        foreign::getMessage);
  }
}
