package dev.phalanx.ecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The open-addressing map from remote to local identifiers of {@link ContinuousLoader}. */
class LongLongMapTest {

  @Test
  void capacityIsThePowerOfTwoThatKeepsTheExpectedLoadAtHalf() {
    assertEquals(16, new LongLongMap(0).capacity());
    assertEquals(16, new LongLongMap(8).capacity());
    assertEquals(32, new LongLongMap(9).capacity());
    assertEquals(256, new LongLongMap(100).capacity());
  }

  @Test
  void randomOperationsMatchAHashMapAcrossGrowthAndRemovals() {
    final SplittableRandom random = new SplittableRandom(5);
    final LongLongMap map = new LongLongMap(0);
    final Map<Long, Long> model = new HashMap<>();
    for (int op = 0; op < 20_000; op++) {
      final long key = Entity.of(random.nextInt(600), random.nextInt(3));
      if (random.nextInt(3) == 0) {
        map.remove(key);
        model.remove(key);
      } else {
        final long value = random.nextLong();
        map.put(key, value);
        model.put(key, value);
      }
      assertEquals(model.size(), map.size());
      assertEquals(model.containsKey(key), map.containsKey(key));
      assertEquals(model.getOrDefault(key, -7L), map.get(key, -7L));
    }
    int found = 0;
    for (int slot = 0; slot < map.capacity(); slot++) {
      final long key = map.keyAt(slot);
      if (Entity.NULL != key) {
        found++;
        assertEquals(model.get(key), map.valueAt(slot));
      }
    }
    assertEquals(model.size(), found);
    assertTrue(map.capacity() >= 2 * map.size());
    map.clear();
    assertEquals(0, map.size());
    for (final long key : model.keySet()) {
      assertFalse(map.containsKey(key));
    }
  }
}
