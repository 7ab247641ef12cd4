package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EntityStorageTest {

  private static long[] live(final EntityStorage storage) {
    final List<Long> seen = new ArrayList<>();
    storage.each(seen::add);
    return seen.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  /** Everything observable, to compare before and after a refused operation. */
  private static String state(final EntityStorage storage) {
    return storage.alive()
        + "/"
        + storage.size()
        + "/"
        + Arrays.toString(Arrays.copyOf(storage.packed(), storage.size()));
  }

  @Test
  void usesTheSwapOnlyPolicy() {
    assertEquals(DeletionPolicy.SWAP_ONLY, new EntityStorage().policy());
  }

  @Test
  void createsConsecutiveIndicesWithVersionZero() {
    final EntityStorage storage = new EntityStorage();
    for (int i = 0; i < 40; i++) {
      final long entity = storage.create();
      assertEquals(Entity.of(i, 0), entity);
      assertTrue(storage.valid(entity));
    }
    assertEquals(40, storage.alive());
    assertEquals(40, storage.size());
  }

  @Test
  void releaseBumpsTheVersionAndInvalidatesTheHandle() {
    final EntityStorage storage = new EntityStorage();
    final long entity = storage.create();
    assertEquals(1, storage.release(entity));
    assertFalse(storage.valid(entity));
    assertEquals(0, storage.alive());
    assertEquals(1, storage.size());
    assertEquals(Entity.of(0, 1), storage.current(0));
  }

  @Test
  void recyclesReleasedIdentifiersLastInFirstOut() {
    final EntityStorage storage = new EntityStorage();
    final long a = storage.create();
    final long b = storage.create();
    final long c = storage.create();
    storage.release(a);
    storage.release(c);
    assertEquals(Entity.of(Entity.index(c), 1), storage.create());
    assertEquals(Entity.of(Entity.index(a), 1), storage.create());
    assertEquals(Entity.of(3, 0), storage.create());
    assertTrue(storage.valid(b));
    assertFalse(storage.valid(a));
    assertFalse(storage.valid(c));
  }

  @Test
  void validRejectsNullNeverCreatedStaleAndTombstoneHandles() {
    final EntityStorage storage = new EntityStorage();
    final long entity = storage.create();
    assertFalse(storage.valid(Entity.NULL));
    assertFalse(storage.valid(Entity.of(1, 0)));
    assertFalse(storage.valid(Entity.of(5000, 0)));
    assertFalse(storage.valid(Entity.of(0, 1)));
    assertFalse(storage.valid(Entity.of(0, Entity.TOMBSTONE_VERSION)));
    assertTrue(storage.valid(entity));
  }

  @Test
  void bulkCreateRecyclesFirstThenCreatesFreshOnes() {
    final EntityStorage storage = new EntityStorage();
    final long[] first = new long[3];
    storage.create(first, 0, 3);
    storage.release(first[1]);
    final long[] out = new long[5];
    storage.create(out, 1, 3);
    assertArrayEquals(new long[] {0, Entity.of(1, 1), Entity.of(3, 0), Entity.of(4, 0), 0}, out);
    assertEquals(5, storage.alive());
  }

  @Test
  void bulkCreateRefusesABadRange() {
    final EntityStorage storage = new EntityStorage();
    assertThrows(IndexOutOfBoundsException.class, () -> storage.create(new long[2], 1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> storage.create(new long[2], 0, -1));
    assertEquals(0, storage.size());
  }

  @Test
  void creatingPastTheLimitThrowsAndChangesNothing() {
    final EntityStorage storage = new EntityStorage(3);
    final long a = storage.create();
    storage.create();
    storage.create();
    storage.release(a);
    storage.create();
    final String before = state(storage);
    final IllegalStateException error = assertThrows(IllegalStateException.class, storage::create);
    assertTrue(error.getMessage().contains("3"), error.getMessage());
    assertEquals(before, state(storage));
  }

  @Test
  void bulkCreatePastTheLimitCreatesNone() {
    final EntityStorage storage = new EntityStorage(5);
    final long[] three = new long[3];
    storage.create(three, 0, 3);
    storage.release(three[0]);
    final String before = state(storage);
    final long[] out = new long[4];
    assertThrows(IllegalStateException.class, () -> storage.create(out, 0, 4));
    assertEquals(before, state(storage));
    assertArrayEquals(new long[4], out);
    storage.create(out, 0, 3);
    assertEquals(5, storage.alive());
  }

  @Test
  void theLimitIsValidated() {
    assertThrows(IllegalArgumentException.class, () -> new EntityStorage(0));
    assertThrows(IllegalArgumentException.class, () -> new EntityStorage(-1));
    assertEquals(1, new EntityStorage(1).limit());
    assertEquals(Entity.MAX_INDEX + 1, new EntityStorage().limit());
  }

  @Test
  void releasingAnInvalidHandleNamesItAndChangesNothing() {
    final EntityStorage storage = new EntityStorage();
    final long entity = storage.create();
    storage.create();
    storage.release(entity);
    final String before = state(storage);
    for (final long bad : new long[] {entity, Entity.NULL, Entity.of(9, 0)}) {
      final IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> storage.release(bad));
      assertTrue(error.getMessage().contains(Entity.toString(bad)), error.getMessage());
      assertEquals(before, state(storage));
    }
  }

  @Test
  void eachVisitsLiveEntitiesOnly() {
    final EntityStorage storage = new EntityStorage();
    final long[] all = new long[10];
    storage.create(all, 0, 10);
    storage.release(all[2]);
    storage.release(all[7]);
    final long[] expected = Arrays.stream(all).filter(storage::valid).sorted().toArray();
    assertArrayEquals(expected, live(storage));
    assertEquals(8, expected.length);
  }

  @Test
  void releasingTheVisitedEntityDuringEachNeitherSkipsNorRepeats() {
    final EntityStorage storage = new EntityStorage();
    final long[] all = new long[50];
    storage.create(all, 0, 50);
    final List<Long> seen = new ArrayList<>();
    storage.each(
        entity -> {
          seen.add(entity);
          if (0 == Entity.index(entity) % 3) {
            storage.release(entity);
          }
        });
    assertEquals(50, seen.size());
    assertEquals(50, new HashSet<>(seen).size());
    assertEquals(33, storage.alive());
  }

  @Test
  void entitiesCreatedDuringEachAreNotVisited() {
    final EntityStorage storage = new EntityStorage();
    final long[] all = new long[20];
    storage.create(all, 0, 20);
    storage.release(all[4]);
    storage.release(all[9]);
    final Set<Long> created = new HashSet<>();
    final List<Long> seen = new ArrayList<>();
    storage.each(
        entity -> {
          seen.add(entity);
          created.add(storage.create());
        });
    assertEquals(18, seen.size());
    for (final long entity : seen) {
      assertFalse(created.contains(entity), Entity.toString(entity));
    }
    assertEquals(36, storage.alive());
  }

  @Test
  void releaseAllBumpsEveryLiveVersion() {
    final EntityStorage storage = new EntityStorage();
    final long[] all = new long[4];
    storage.create(all, 0, 4);
    storage.releaseAll();
    assertEquals(0, storage.alive());
    for (final long entity : all) {
      assertFalse(storage.valid(entity));
      assertEquals(Entity.of(Entity.index(entity), 1), storage.current(Entity.index(entity)));
    }
  }

  @Test
  void currentReportsNullForNeverCreatedIndices() {
    final EntityStorage storage = new EntityStorage();
    storage.create();
    assertEquals(Entity.NULL, storage.current(1));
    assertEquals(Entity.NULL, storage.current(-1));
    assertEquals(Entity.of(0, 0), storage.current(0));
  }

  @Test
  void versionsWrapAroundSkippingTheTombstoneVersion() {
    final EntityStorage storage = new EntityStorage();
    final long old = Entity.of(0, 0xFFFF_FFFE);
    storage.restore(new long[] {old, Entity.of(1, 5)}, 2, 1);
    assertTrue(storage.valid(old));
    assertFalse(storage.valid(Entity.of(1, 5)));
    assertEquals(0, storage.release(old));
    final long recycled = storage.create();
    assertEquals(Entity.of(0, 0), recycled);
    assertTrue(storage.valid(recycled));
    assertFalse(storage.valid(old));
    assertEquals(Entity.of(1, 5), storage.create());
  }

  @Test
  void restoreRefusesRepeatedOutOfRangeAndTombstoneIdentifiers() {
    final EntityStorage storage = new EntityStorage();
    storage.create();
    final String before = state(storage);
    assertThrows(IllegalArgumentException.class, () -> storage.restore(new long[] {0, 0}, 2, 2));
    assertThrows(IllegalArgumentException.class, () -> storage.restore(new long[] {2, 0}, 2, 2));
    assertThrows(
        IllegalArgumentException.class, () -> storage.restore(new long[] {Entity.of(0, -1)}, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> storage.restore(new long[] {0}, 1, 2));
    assertThrows(IllegalArgumentException.class, () -> storage.restore(new long[] {0}, 2, 1));
    assertEquals(before, state(storage));
  }

  @Test
  void growsPastItsInitialCapacity() {
    final EntityStorage storage = new EntityStorage();
    for (int i = 0; i < 10_000; i++) {
      storage.create();
    }
    for (int i = 0; i < 10_000; i += 2) {
      storage.release(Entity.of(i, 0));
    }
    for (int i = 0; i < 10_000; i++) {
      assertEquals(1 == i % 2, storage.valid(Entity.of(i, 0)));
    }
    assertEquals(5_000, live(storage).length);
  }

  @Test
  void bulkCreateOfNothingAndAnExactFitAreAllowed() {
    final EntityStorage storage = new EntityStorage(3);
    storage.create(new long[0], 0, 0);
    final long[] out = new long[3];
    storage.create(out, 3, 0);
    assertEquals(0, storage.size());
    storage.create(out, 0, 3);
    assertArrayEquals(new long[] {Entity.of(0, 0), Entity.of(1, 0), Entity.of(2, 0)}, out);
    final IndexOutOfBoundsException range =
        assertThrows(IndexOutOfBoundsException.class, () -> storage.create(out, 1, 3));
    assertEquals("range [1, 4) of 3", range.getMessage());
  }

  @Test
  void bulkCreatePastTheLimitSaysHowManyAreLeft() {
    final EntityStorage storage = new EntityStorage(5);
    final long[] two = new long[2];
    storage.create(two, 0, 2);
    storage.release(two[1]);
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> storage.create(new long[5], 0, 5));
    assertEquals("cannot create 5 entities: only 4 identifiers are left", error.getMessage());
    final IllegalStateException single =
        assertThrows(
            IllegalStateException.class,
            () -> {
              for (int i = 0; i < 5; i++) {
                storage.create();
              }
            });
    assertEquals(
        "cannot create an entity: all 5 identifiers are live (the layout holds at most "
            + (Entity.MAX_INDEX + 1)
            + ")",
        single.getMessage());
  }

  @Test
  void releasingSeveralEntitiesDuringEachVisitsOnlyLiveOnes() {
    final EntityStorage storage = new EntityStorage();
    final long[] all = new long[6];
    storage.create(all, 0, 6);
    final List<Long> visited = new ArrayList<>();
    storage.each(
        entity -> {
          assertTrue(storage.valid(entity), Entity.toString(entity));
          visited.add(entity);
          if (all[5] == entity) {
            storage.release(entity);
            storage.release(all[4]);
            storage.release(all[1]);
          }
        });
    assertEquals(Set.of(all[5], all[3], all[2], all[0]), new HashSet<>(visited));
    assertEquals(4, visited.size());
  }

  @Test
  void releaseAllLeavesReleasedIdentifiersAtTheirNextVersion() {
    final EntityStorage storage = new EntityStorage();
    final long[] all = new long[4];
    storage.create(all, 0, 4);
    storage.release(all[3]);
    storage.release(all[2]);
    storage.releaseAll();
    for (final long entity : all) {
      assertEquals(Entity.of(Entity.index(entity), 1), storage.current(Entity.index(entity)));
    }
  }

  @Test
  void restoreAcceptsEveryBoundaryOfItsCounts() {
    final EntityStorage storage = new EntityStorage(2);
    storage.restore(new long[] {Entity.of(1, 4), Entity.of(0, 2)}, 2, 2);
    assertEquals(2, storage.alive());
    assertTrue(storage.valid(Entity.of(0, 2)));
    assertFalse(storage.valid(Entity.of(2, 0)));
    storage.restore(new long[] {Entity.of(0, 7)}, 1, 0);
    assertEquals(0, storage.alive());
    assertEquals(Entity.of(0, 7), storage.create());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            storage.restore(new long[] {Entity.of(0, 0), Entity.of(1, 0), Entity.of(2, 0)}, 3, 3));
    assertThrows(
        IllegalArgumentException.class, () -> storage.restore(new long[] {Entity.of(0, 0)}, 1, -1));
  }

  @Test
  void verifyReportsIdentifiersTheIndexDoesNotMap() {
    final EntityStorage storage = new EntityStorage();
    storage.create(new long[3], 0, 3);
    final List<String> problems = new ArrayList<>();
    storage.verify(problems);
    assertEquals(List.of(), problems);
    storage.packed()[0] = Entity.of(3, 0); // one past the identifiers in use
    storage.packed()[1] = Entity.of(2, 0); // in range, indexed at position 2
    storage.verify(problems);
    assertEquals(
        List.of(
            "entity storage: "
                + Entity.toString(Entity.of(3, 0))
                + " at position 0 is not indexed"
                + " there",
            "entity storage: "
                + Entity.toString(Entity.of(2, 0))
                + " at position 1 is not indexed"
                + " there"),
        problems);
    problems.clear();
    storage.packed()[0] = Entity.of(-1, 0);
    storage.packed()[1] = Entity.of(1, 0);
    storage.verify(problems);
    assertEquals(1, problems.size(), problems.toString());
  }
}
