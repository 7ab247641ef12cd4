package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.Registry;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * A query's work is bounded by membership tests, not positions alone: one naming 128 components
 * scans {@code MAX_CHECKS / 129} positions and answers a cursor; paging on with it still finds
 * exactly the matching entities.
 */
class QueryCostTest {

  private static final int SIZE = 100_000;

  @Test
  void manyNamesScanFewerPositionsAndPagingStillFindsEverything() throws Exception {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    int expected = 0;
    for (int i = 0; i < SIZE; i++) {
      final long entity = registry.create();
      positions.emplace(entity, i, i);
      if (0 == i % 3) {
        velocities.emplace(entity, 1, 1);
      } else {
        expected++;
      }
    }
    try (TestWorld world = new TestWorld(registry)) {
      final String before = world.dump();
      final String many =
          "\"with\": ["
              + String.join(", ", Collections.nCopies(64, "\"Position\""))
              + "], "
              + "\"without\": ["
              + String.join(", ", Collections.nCopies(64, "\"Velocity\""))
              + "]";
      final int bound = Methods.MAX_CHECKS / 129;
      // Nothing matches: the call stops at its bound of tests, not at its limit of matches.
      final String none =
          "\"with\": ["
              + String.join(", ", Collections.nCopies(64, "\"Position\""))
              + "], "
              + "\"without\": ["
              + String.join(", ", Collections.nCopies(64, "\"Position\""))
              + "]";
      final JsonNode empty = world.result("world.query", "{" + none + "}");
      assertEquals(bound, empty.get("scanned").asInt(), empty::toString);
      assertEquals(bound, empty.get("next").asInt());
      assertEquals(0, empty.get("entities").size());
      final JsonNode first = world.result("world.query", "{" + many + ", \"limit\": 1000}");
      // Two names: the whole positional bound.
      final JsonNode plain =
          world.result("world.query", "{\"with\": [\"Position\"], \"without\": [\"Position\"]}");
      assertEquals(Methods.MAX_SCAN, plain.get("scanned").asInt());
      // Paging on finds exactly the entities with a position and no velocity.
      int found = 0;
      int scanned = 0;
      for (JsonNode page = first; ; ) {
        found += page.get("entities").size();
        scanned += page.get("scanned").asInt();
        final int pageScanned = page.get("scanned").asInt();
        assertTrue(pageScanned <= bound, () -> "scanned " + pageScanned);
        if (page.get("next").isNull()) {
          break;
        }
        page =
            world.result(
                "world.query",
                "{" + many + ", \"limit\": 1000, \"cursor\": " + page.get("next").asInt() + "}");
      }
      assertEquals(expected, found);
      assertEquals(SIZE, scanned);

      // More names than the limit are refused.
      final String tooMany =
          String.join(", ", Collections.nCopies(Methods.MAX_NAMES + 1, "\"Position\""));
      final String message =
          world.error("world.query", "{\"with\": [" + tooMany + "]}", RpcError.INVALID_PARAMS);
      assertTrue(message.contains("at most " + Methods.MAX_NAMES), message);
      assertEquals(before, world.dump());
      world.assertConsistent();
    }
  }
}
