package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link EntityIndexMap}, the loader's flat remote map: two versions of one index, indices beyond
 * the span, a key that waited in the overflow while its slot was taken, clearing, and a random
 * model against a {@link HashMap}.
 */
class EntityIndexMapTest {

  @Test
  void twoVersionsOfOneIndexAreTwoKeys() {
    final EntityIndexMap map = new EntityIndexMap();
    final long old = Entity.of(7, 0);
    final long recycled = Entity.of(7, 1);
    map.put(old, 100);
    map.put(recycled, 200);
    assertEquals(2, map.size());
    assertEquals(1, map.overflowSize());
    assertEquals(100, map.get(old, -1));
    assertEquals(200, map.get(recycled, -1));
    map.remove(old);
    assertFalse(map.containsKey(old));
    assertEquals(200, map.get(recycled, -1));
    assertEquals(1, map.size());
  }

  @Test
  void aKeyThatWaitedInTheOverflowIsNotKeptTwice() {
    final EntityIndexMap map = new EntityIndexMap();
    final long a = Entity.of(3, 0);
    final long b = Entity.of(3, 1);
    map.put(a, 1);
    map.put(b, 2); // overflow: a holds the slot
    map.remove(a);
    map.put(b, 3); // the slot is free: b moves there, and leaves the overflow
    assertEquals(1, map.size());
    assertEquals(0, map.overflowSize());
    assertEquals(3, map.get(b, -1));
    map.remove(b);
    assertFalse(map.containsKey(b));
    assertEquals(0, map.size());
  }

  @Test
  void hugeIndicesGoToTheOverflowAndTheSpanStaysBoundedByTheSize() {
    final EntityIndexMap map = new EntityIndexMap();
    for (int i = 0; i < 100; i++) {
      map.put(Entity.of(Entity.MAX_INDEX - i, 0), i);
    }
    assertEquals(100, map.size());
    assertEquals(100, map.overflowSize());
    assertTrue(map.span() <= 1024, "span " + map.span());
    assertEquals(42, map.get(Entity.of(Entity.MAX_INDEX - 42, 0), -1));
    // A handle with a negative index (bad input) is a key too.
    map.put(Entity.of(-5, 3), 9);
    assertEquals(9, map.get(Entity.of(-5, 3), -1));
  }

  @Test
  void growingTheSpanMovesTheOverflowIntoFlatSlots() {
    final EntityIndexMap map = new EntityIndexMap();
    final long far = Entity.of(5000, 2);
    map.put(far, 77); // beyond the span for one key
    assertEquals(1, map.overflowSize());
    map.reserve(6000, 3000);
    assertEquals(0, map.overflowSize());
    assertEquals(77, map.get(far, -1));
    assertEquals(1, map.size());
  }

  /**
   * Dense indices put in order stay flat: the span grows to cover each new index (the first index 0
   * and a jump past twice the span included) and never beyond the size rule.
   */
  @Test
  void denseIndicesStayFlatAndTheSpanFollowsTheSizeRule() {
    final EntityIndexMap map = new EntityIndexMap();
    map.put(Entity.of(0, 0), 0);
    assertEquals(0, map.overflowSize());
    map.put(Entity.of(100, 0), 100); // beyond twice the span of 1: the span covers it at once
    assertEquals(0, map.overflowSize());
    for (int i = 1; i < 3000; i++) {
      map.put(Entity.of(i, 0), i);
      assertEquals(0, map.overflowSize(), "index " + i);
    }
    assertEquals(3000, map.size());
    assertTrue(map.span() >= 3000, "span " + map.span());
    assertTrue(map.span() <= 2 * (map.size() + 1), "span " + map.span());
    for (int i = 0; i < 3000; i++) {
      assertEquals(i, map.get(Entity.of(i, 0), -1));
    }
    map.remove(Entity.of(0, 0));
    assertFalse(map.containsKey(Entity.of(0, 0)));
    assertEquals(2999, map.size());
  }

  /**
   * The size rule is exact: with n keys an index below {@code 2 (n + 1)} is flat, one at the bound
   * waits in the overflow and does not widen the span.
   */
  @Test
  void anIndexJustInsideTheSizeRuleIsFlatAndOneAtItsBoundOverflows() {
    final EntityIndexMap map = new EntityIndexMap();
    for (int i = 0; i < 1000; i++) {
      map.put(Entity.of(i, 0), i);
    }
    map.put(Entity.of(2001, 0), 1); // 1000 keys: indices below 2002 may be flat
    assertEquals(0, map.overflowSize());
    assertEquals(2002, map.span());
    map.put(Entity.of(2004, 0), 2); // 1001 keys: the bound is 2004
    assertEquals(1, map.overflowSize());
    assertEquals(2002, map.span());
    assertEquals(2, map.get(Entity.of(2004, 0), -1));
    map.remove(Entity.of(2004, 0));
    assertEquals(0, map.overflowSize());
    assertFalse(map.containsKey(Entity.of(2004, 0)));
    assertEquals(1001, map.size());
  }

  /**
   * Keys at the span's index when the span is at its bound wait in the overflow and are removed
   * from there; widening the span later moves the one it covers, and one at the new span's edge
   * stays behind.
   */
  @Test
  void keysAtTheSpansEdgeWaitInTheOverflowUntilItCoversThem() {
    final EntityIndexMap map = new EntityIndexMap();
    map.put(Entity.of(1023, 0), 0); // the span grows to the floor, 1024
    assertEquals(1024, map.span());
    map.put(Entity.of(1024, 0), 1); // at the span, which is at its bound
    map.put(Entity.of(1024, 1), 2);
    map.put(Entity.of(2000, 0), 3);
    assertEquals(3, map.overflowSize());
    map.remove(Entity.of(1024, 1));
    assertFalse(map.containsKey(Entity.of(1024, 1)));
    assertEquals(2, map.overflowSize());
    map.reserve(2000, 1000); // to [0, 2000): 1024 moves, 2000 stays
    assertEquals(2000, map.span());
    assertEquals(1, map.overflowSize());
    assertEquals(1, map.get(Entity.of(1024, 0), -1));
    assertEquals(3, map.get(Entity.of(2000, 0), -1));
    assertEquals(3, map.size());
  }

  /**
   * Two versions of one index both beyond the span: widening it moves one into the flat slot and
   * leaves the other in the overflow, both kept.
   */
  @Test
  void wideningTheSpanMovesOneOfTwoVersionsAndKeepsBoth() {
    final EntityIndexMap map = new EntityIndexMap();
    final long first = Entity.of(1500, 0);
    final long second = Entity.of(1500, 1);
    map.put(first, 10);
    map.put(second, 20);
    assertEquals(2, map.overflowSize());
    map.reserve(4000, 1499); // the size rule allows 2 (2 + 1499 + 1) = 3004
    assertEquals(3004, map.span());
    assertEquals(1, map.overflowSize());
    assertEquals(2, map.size());
    assertEquals(10, map.get(first, -1));
    assertEquals(20, map.get(second, -1));
    map.put(Entity.of(3003, 0), 30); // inside the reserved span: flat
    assertEquals(1, map.overflowSize());
    assertEquals(30, map.get(Entity.of(3003, 0), -1));
  }

  @Test
  void clearForgetsEveryKeyFlatOrNot() {
    final EntityIndexMap map = new EntityIndexMap();
    map.put(Entity.of(1, 0), 1);
    map.put(Entity.of(1, 1), 2);
    map.put(Entity.of(Entity.MAX_INDEX, 0), 3);
    map.clear();
    assertEquals(0, map.size());
    assertFalse(map.containsKey(Entity.of(1, 0)));
    assertFalse(map.containsKey(Entity.of(1, 1)));
    assertFalse(map.containsKey(Entity.of(Entity.MAX_INDEX, 0)));
    map.put(Entity.of(1, 1), 4);
    assertEquals(4, map.get(Entity.of(1, 1), -1));
    assertEquals(-1, map.get(Entity.of(1, 0), -1));
  }

  @Test
  void aRandomModelAgreesWithAHashMap() {
    for (long seed = 1; seed <= 20; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final EntityIndexMap map = new EntityIndexMap();
      final Map<Long, Long> model = new HashMap<>();
      final int indices = 1 + random.nextInt(4000);
      for (int step = 0; step < 20_000; step++) {
        final int index =
            0 == random.nextInt(50)
                ? Entity.MAX_INDEX - random.nextInt(4)
                : random.nextInt(indices);
        final long key = Entity.of(index, random.nextInt(3));
        final int op = random.nextInt(100);
        if (op < 50) {
          final long value = random.nextLong(1_000_000);
          map.put(key, value);
          model.put(key, value);
        } else if (op < 85) {
          map.remove(key);
          model.remove(key);
        } else if (op < 86) {
          map.clear();
          model.clear();
        } else if (op < 88) {
          map.reserve(random.nextInt(2 * indices + 1), random.nextInt(indices + 1));
        }
        final String where = "seed " + seed + ", step " + step;
        assertEquals(model.size(), map.size(), where);
        assertEquals(model.getOrDefault(key, -1L), map.get(key, -1), where);
        assertEquals(model.containsKey(key), map.containsKey(key), where);
      }
      for (final Map.Entry<Long, Long> entry : model.entrySet()) {
        assertEquals(entry.getValue(), map.get(entry.getKey(), -1), "seed " + seed);
      }
    }
  }
}
