package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EntityIteratorTest {

  private final Registry registry = new Registry();

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void walksTheLeaderBackToFrontSkippingTombstonesAndNonMatches(final DeletionPolicy policy) {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(policy));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(policy));
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      final long entity = registry.create();
      all.add(entity);
      a.emplace(entity, new Payload(i));
      if (1 != i) {
        b.emplace(entity, new Payload(i));
      }
    }
    a.remove(all.get(4));
    final EntityIterator iterator = View.of(a, b).leadBy(a).iterator();
    final List<Long> seen = new ArrayList<>();
    while (iterator.hasNext()) {
      assertTrue(iterator.hasNext(), "hasNext is idempotent");
      seen.add(iterator.nextLong());
    }
    final List<Long> expected = new ArrayList<>();
    for (int position = a.size() - 1; position >= 0; position--) {
      final long entity = a.packed()[position];
      if (!dev.phalanx.ecs.Entity.isTombstone(entity) && b.contains(entity)) {
        expected.add(entity);
      }
    }
    assertEquals(expected, seen);
    assertEquals(6, seen.size());
    assertFalse(iterator.hasNext());
    assertThrows(NoSuchElementException.class, iterator::nextLong);
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void nextLongWithoutHasNextStillChecksThePreviousVisit(final DeletionPolicy policy) {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(policy));
    for (int i = 0; i < 5; i++) {
      a.emplace(registry.create(), new Payload(i));
    }
    final EntityIterator iterator = View.of(a).iterator();
    iterator.nextLong();
    a.sort((x, y) -> Long.compare(y, x));
    assertThrows(ConcurrentModificationException.class, iterator::nextLong);
  }

  /**
   * A batch destroy with no observer removes storage by storage ({@code SparseSet.removeAll}); an
   * iterator is no observer, so each move must still reach the change log: a destroy of visited
   * entities lets the walk go on, one of an entity still to come moves a visited element below the
   * floor and the next step throws.
   */
  @Test
  void aBatchDestroyLogsEachMoveForIterators() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final long[] entities = new long[8];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      a.emplace(entities[i], new Payload(i));
    }
    final EntityIterator iterator = View.of(a).iterator();
    final List<Long> seen = new ArrayList<>();
    seen.add(iterator.nextLong());
    seen.add(iterator.nextLong());
    // Both visited: the last element moves into the slot of the one destroyed first, above the
    // floor.
    registry.destroy(new long[] {seen.get(1), seen.get(0)}, 0, 2);
    while (iterator.hasNext()) {
      seen.add(iterator.nextLong());
    }
    assertEquals(List.of(entities[7], entities[6], entities[5], entities[4]), seen.subList(0, 4));
    assertEquals(8, seen.size());

    // A batch that only pops moves nothing, and still changes the structure stamp.
    final long stamp = a.structureStamp();
    registry.destroy(new long[] {a.packed()[a.size() - 1]}, 0, 1);
    assertNotEquals(stamp, a.structureStamp());

    final EntityIterator second = View.of(a).iterator();
    second.nextLong();
    // Still to come: the visited last element moves below the floor.
    registry.destroy(new long[] {a.packed()[0]}, 0, 1);
    assertThrows(ConcurrentModificationException.class, second::hasNext);
  }

  /**
   * A set logs its moves only once an iterator has been made on it: moves before that need no log,
   * and must not count against the iterator; moves after it must be seen.
   */
  @Test
  void movesBeforeTheFirstIteratorAreNotHeldAgainstItAndMovesAfterItAreSeen() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      final long entity = registry.create();
      all.add(entity);
      a.emplace(entity, new Payload(i));
    }
    // Far more moves than the log holds, with no iterator yet.
    for (int i = 0; i < 100; i++) {
      a.remove(all.get(i));
    }
    final EntityIterator iterator = View.of(a).iterator();
    final long first = iterator.nextLong();
    assertEquals(a.packed()[a.size() - 1], first);
    // Removing the first element moves the last one (already returned) to a position still to come.
    a.remove(a.packed()[0]);
    assertThrows(ConcurrentModificationException.class, iterator::hasNext);
  }
}
