package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The two tests a view's aligned runs rely on: {@link SparseSet#samePositions} compares a range of
 * two sets, and {@link SparseSet#structureStamp} changes on every change that can alter what a
 * position below the size holds (a move, a removal, a filled hole), not on an append.
 */
class SparseSetStampTest {

  private static TestSet filled(final DeletionPolicy policy, final int count) {
    final TestSet set = new TestSet(policy);
    for (int i = 0; i < count; i++) {
      set.appendEntity(Entity.of(i, 0));
    }
    return set;
  }

  @Test
  void samePositionsComparesARangeHeldByBothSets() {
    final TestSet a = filled(DeletionPolicy.SWAP_AND_POP, 10);
    final TestSet b = filled(DeletionPolicy.SWAP_AND_POP, 6);
    assertTrue(a.samePositions(b, 0, 6));
    assertTrue(a.samePositions(b, 2, 5));
    assertTrue(a.samePositions(b, 6, 6));
    assertFalse(a.samePositions(b, 0, 7), "b does not hold position 6");
    assertFalse(b.samePositions(a, 5, 7), "b does not hold position 6");
    assertTrue(a.samePositions(a, 0, 10));
    assertFalse(a.samePositions(a, 0, 11));
    assertFalse(a.samePositions(b, -1, 3));
    assertFalse(a.samePositions(b, 4, 3));
    b.remove(Entity.of(2, 0));
    assertFalse(a.samePositions(b, 0, 5), "the last element moved into position 2");
    assertTrue(a.samePositions(b, 0, 2));
    assertTrue(a.samePositions(b, 3, 5));
  }

  private static void assertBumps(
      final DeletionPolicy policy, final String change, final Consumer<TestSet> action) {
    final TestSet set = filled(policy, 8);
    final long before = set.structureStamp();
    action.accept(set);
    assertNotEquals(before, set.structureStamp(), change);
  }

  @Test
  void everyChangeBelowTheSizeBumpsTheStamp() {
    assertBumps(
        DeletionPolicy.SWAP_AND_POP, "swap-and-pop removal", s -> s.remove(Entity.of(3, 0)));
    assertBumps(DeletionPolicy.SWAP_AND_POP, "removal of the last", s -> s.remove(Entity.of(7, 0)));
    assertBumps(DeletionPolicy.IN_PLACE, "in-place removal", s -> s.remove(Entity.of(3, 0)));
    assertBumps(DeletionPolicy.SWAP_AND_POP, "swap", s -> s.swap(1, 5));
    assertBumps(DeletionPolicy.SWAP_AND_POP, "sort", s -> s.sort(Long::compare));
    assertBumps(DeletionPolicy.SWAP_AND_POP, "clear", TestSet::clear);
    assertBumps(
        DeletionPolicy.IN_PLACE,
        "filled hole",
        s -> {
          s.remove(Entity.of(3, 0));
          final long afterRemoval = s.structureStamp();
          s.insert(Entity.of(20, 0));
          assertNotEquals(afterRemoval, s.structureStamp(), "the hole was filled");
        });
    assertBumps(
        DeletionPolicy.IN_PLACE,
        "compaction",
        s -> {
          s.remove(Entity.of(3, 0));
          s.compact();
        });
  }

  @Test
  void aBatchRemovalThatRemovesNothingLeavesTheStampAsItIs() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    final long before = set.structureStamp();
    // An index the set never held, and a stale version of one it holds.
    set.removeAll(new long[] {Entity.of(40, 0), Entity.of(2, 1)}, 0, 2);
    assertEquals(before, set.structureStamp());
    set.removeAll(new long[] {Entity.of(40, 0), Entity.of(2, 0)}, 0, 2);
    assertNotEquals(before, set.structureStamp(), "one element removed");
  }

  @Test
  void anAppendLeavesTheStampAsItIs() {
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      final TestSet set = filled(policy, 5);
      final long before = set.structureStamp();
      set.insert(Entity.of(9, 0));
      set.appendEntity(Entity.of(10, 0));
      assertEquals(before, set.structureStamp(), policy.toString());
    }
  }
}
