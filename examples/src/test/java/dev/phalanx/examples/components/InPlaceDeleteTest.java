package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * In-place deletion over a generated storage: stable positions, reused holes, skipped tombstones.
 */
class InPlaceDeleteTest {

  private final Registry registry = new Registry();
  private final Slot_Storage slots = registry.storage(Slot_Traits.TYPE);

  private long[] fill(final int count) {
    final long[] entities = new long[count];
    for (int i = 0; i < count; i++) {
      entities[i] = registry.create();
      slots.emplace(entities[i], i, "n" + i);
    }
    return entities;
  }

  @Test
  void survivorsKeepTheirPositionsAndValues() {
    final long[] entities = fill(40);
    for (int i = 0; i < 40; i += 3) {
      slots.remove(entities[i]);
    }
    assertEquals(40, slots.size(), "holes are counted");
    for (int i = 0; i < 40; i++) {
      if (i % 3 == 0) {
        assertTrue(Entity.isTombstone(slots.packed()[i]));
        assertEquals(null, slots.namePages()[i >>> 3][i & 7], "the hole's reference is released");
      } else {
        assertEquals(i, slots.index(entities[i]));
        assertEquals(new Slot(i, "n" + i), slots.get(entities[i]));
      }
    }
  }

  @Test
  void insertionsReuseTheMostRecentHoleFirst() {
    final long[] entities = fill(20);
    slots.remove(entities[4]);
    slots.remove(entities[12]);
    slots.remove(entities[9]);
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    final long d = registry.create();
    slots.emplace(a, 100, "a");
    slots.emplace(b, 101, "b");
    slots.emplace(c, new Slot(102, "c"));
    slots.emplace(d, 103, "d");
    assertEquals(9, slots.index(a));
    assertEquals(12, slots.index(b));
    assertEquals(4, slots.index(c));
    assertEquals(20, slots.index(d), "no hole left: appended");
    assertFalse(slots.hasTombstones());
    assertEquals(new Slot(102, "c"), slots.get(c));
  }

  @Test
  void viewsSkipTombstonesAndAllowRemovingOthersWhileIterating() {
    final long[] entities = fill(30);
    for (int i = 1; i < 30; i += 2) {
      slots.remove(entities[i]);
    }
    final Set<Long> seen = new HashSet<>();
    registry
        .view(Slot_Traits.TYPE)
        .each(
            entity -> {
              seen.add(entity);
              // Removing another element is allowed: nothing moves in an in-place storage.
              final int value = slots.value(entity);
              if (value >= 2) {
                slots.remove(entities[value - 2]);
              }
            });
    // Walked from the last position down: 28 removes 26, 24 removes 22, ...
    assertEquals(
        Set.of(
            entities[28],
            entities[24],
            entities[20],
            entities[16],
            entities[12],
            entities[8],
            entities[4],
            entities[0]),
        seen);
  }

  @Test
  void compactClosesHolesAndThenSortingWorks() {
    final long[] entities = fill(25);
    for (int i = 0; i < 25; i += 2) {
      slots.remove(entities[i]);
    }
    assertThrows(IllegalStateException.class, () -> slots.sortByPosition((l, r) -> 0));
    slots.compact();
    assertEquals(12, slots.size());
    slots.sortByPosition(
        (left, right) -> Integer.compare(slots.valueAt(left), slots.valueAt(right)));
    final List<Integer> values = new ArrayList<>();
    for (int p = 0; p < slots.size(); p++) {
      values.add(slots.valueAt(p));
      assertEquals("n" + slots.valueAt(p), slots.nameAt(p));
    }
    final List<Integer> sorted = new ArrayList<>(values);
    sorted.sort(null);
    assertEquals(sorted, values);
    for (int i = 1; i < 25; i += 2) {
      assertEquals(new Slot(i, "n" + i), slots.get(entities[i]));
    }
  }
}
