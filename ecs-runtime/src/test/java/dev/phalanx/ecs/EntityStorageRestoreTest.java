package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link EntityStorage#restore(long[], int, int, int[])}: the loader's checked arrays are adopted
 * only when they describe exactly the restored identifiers; anything else is checked and rebuilt,
 * and bad counts are refused either way.
 */
class EntityStorageRestoreTest {

  private static final int COUNT = 20;

  private static long[] identifiers(final int length) {
    final long[] entities = new long[length];
    for (int i = 0; i < COUNT; i++) {
      entities[i] = Entity.of(COUNT - 1 - i, 3);
    }
    return entities;
  }

  private static int[] positions(final int length) {
    final int[] positions = new int[length];
    for (int index = 0; index < Math.min(length, COUNT); index++) {
      positions[index] = COUNT - 1 - index;
    }
    return positions;
  }

  /** Bad counts are refused even with checked positions. */
  @Test
  void badCountsAreRefusedEvenWithCheckedPositions() {
    final EntityStorage storage = new EntityStorage();
    assertThrows(
        IllegalArgumentException.class,
        () -> storage.restore(identifiers(COUNT), COUNT, COUNT + 1, positions(COUNT)));
    assertThrows(
        IllegalArgumentException.class,
        () -> storage.restore(identifiers(COUNT), COUNT, -1, positions(COUNT)));
    final EntityStorage limited = new EntityStorage(COUNT - 1);
    assertThrows(
        IllegalArgumentException.class,
        () -> limited.restore(identifiers(COUNT), COUNT, COUNT, positions(COUNT)));
    assertEquals(0, storage.size());
    assertEquals(0, limited.size());
  }

  /** A packed array longer than the count is not adopted with the positions: creation goes on. */
  @Test
  void aLongerPackedArrayIsRebuiltAndCreationGoesOn() {
    final EntityStorage storage = new EntityStorage();
    storage.restore(identifiers(COUNT + 4), COUNT, COUNT, positions(COUNT));
    assertEquals(COUNT, storage.alive());
    assertEquals(Entity.of(COUNT, 0), storage.create());
    assertTrue(storage.valid(Entity.of(0, 3)));
  }

  /** Positions of another length than the count are not adopted: every identifier is indexed. */
  @Test
  void positionsOfAnotherLengthAreRebuilt() {
    final EntityStorage storage = new EntityStorage();
    storage.restore(identifiers(COUNT), COUNT, COUNT, positions(COUNT - 1));
    for (int i = 0; i < COUNT; i++) {
      assertTrue(storage.valid(Entity.of(i, 3)), "index " + i);
    }
    assertEquals(Entity.of(COUNT, 0), storage.create());
  }

  /** Restoring nothing empties the storage: identifiers start again at 0. */
  @Test
  void restoringNothingEmptiesTheStorage() {
    final EntityStorage storage = new EntityStorage();
    final long first = storage.create();
    storage.create();
    storage.restore(new long[0], 0, 0);
    assertEquals(0, storage.size());
    assertEquals(0, storage.alive());
    assertFalse(storage.valid(first));
    assertEquals(Entity.of(0, 0), storage.create());
  }
}
