package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  /** {@return {@code count} identifiers of version 3, indices in reverse order} */
  private static long[] reversed(final int count) {
    final long[] entities = new long[count];
    for (int i = 0; i < count; i++) {
      entities[i] = Entity.of(count - 1 - i, 3);
    }
    return entities;
  }

  /** {@return the positions of {@link #reversed}} */
  private static int[] reversedPositions(final int count) {
    final int[] positions = new int[count];
    for (int index = 0; index < count; index++) {
      positions[index] = count - 1 - index;
    }
    return positions;
  }

  /**
   * Checked arrays that describe exactly the restored identifiers are adopted as they are, at every
   * edge of the rule (16 identifiers, none or all live, as many as the limit): the storage holds
   * the very packed array, and reads the very positions (a position changed afterwards shows in
   * {@link EntityStorage#verify}).
   */
  @ParameterizedTest
  @CsvSource({"16, 0, 100", "16, 16, 100", "20, 7, 20"})
  void checkedArraysAreAdoptedAtEveryEdgeOfTheRule(
      final int count, final int alive, final int limit) {
    final EntityStorage storage = new EntityStorage(limit);
    final long[] entities = reversed(count);
    final int[] positions = reversedPositions(count);
    storage.restore(entities, count, alive, positions);
    assertSame(entities, storage.packed());
    assertEquals(alive, storage.alive());
    final List<String> problems = new ArrayList<>();
    storage.verify(problems);
    assertEquals(List.of(), problems);
    positions[0] = 0; // index 0 is at position count - 1
    storage.verify(problems);
    assertEquals(1, problems.size(), problems.toString());
  }

  /**
   * Without checked positions, a packed array of at least 16 elements (and at least the count) is
   * adopted; a shorter one is copied, so the caller's array is not kept.
   */
  @Test
  void aPackedArrayOfSixteenIsAdoptedAndAShorterOneCopied() {
    final EntityStorage storage = new EntityStorage();
    final long[] sixteen = reversed(16);
    storage.restore(sixteen, 16, 16);
    assertSame(sixteen, storage.packed());
    final long[] eight = reversed(8);
    storage.restore(eight, 8, 8);
    assertNotSame(eight, storage.packed());
    for (int i = 0; i < 8; i++) {
      assertTrue(storage.valid(Entity.of(i, 3)), "index " + i);
    }
    assertFalse(storage.valid(Entity.of(8, 3)));
  }
}
