package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Query.Alignment}: the agreed prefix it keeps across passes is exactly the longest prefix
 * on which the two sets agree, whatever happened between two refreshes, and {@link
 * Query.Alignment#holds} answers as {@link SparseSet#samePositions} would, also after a change that
 * happened since the refresh. The seeded test checks the stamps' contract as well: whenever a stamp
 * is back to a value it had, every position below the size the set had then is unchanged.
 */
class QueryAlignmentTest {

  private static int agreeingPrefix(final SparseSet a, final SparseSet b) {
    final int end = Math.min(a.size(), b.size());
    final int mismatch = Arrays.mismatch(a.packed(), 0, end, b.packed(), 0, end);
    return mismatch < 0 ? end : mismatch;
  }

  private static void assertHoldsLikeSamePositions(
      final Query.Alignment alignment, final SparseSet lead, final SparseSet other) {
    final int size = Math.max(lead.size(), other.size()) + 2;
    for (int from = 0; from <= size; from += 3) {
      for (int to = from; to <= size; to += 5) {
        assertEquals(
            lead.samePositions(other, from, to),
            alignment.holds(from, to),
            "[" + from + ", " + to + ")");
      }
    }
  }

  @Test
  void aPassAfterAppendsComparesOnlyTheTailAndAMismatchStaysAMismatch() {
    final TestSet lead = new TestSet(DeletionPolicy.SWAP_AND_POP);
    final TestSet other = new TestSet(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < 10; i++) {
      lead.appendEntity(Entity.of(i, 0));
      other.appendEntity(Entity.of(i, 0));
    }
    final Query.Alignment alignment = new Query.Alignment(other);
    alignment.refresh(lead);
    assertEquals(10, alignment.agreed());
    lead.appendEntity(Entity.of(10, 0));
    other.appendEntity(Entity.of(10, 0));
    alignment.refresh(lead);
    assertEquals(11, alignment.agreed(), "the appended tail agrees too");
    lead.appendEntity(Entity.of(11, 0));
    other.appendEntity(Entity.of(12, 0));
    lead.appendEntity(Entity.of(12, 0));
    other.appendEntity(Entity.of(11, 0));
    alignment.refresh(lead);
    assertEquals(11, alignment.agreed(), "stops at the first disagreeing position");
    lead.appendEntity(Entity.of(13, 0));
    other.appendEntity(Entity.of(13, 0));
    alignment.refresh(lead);
    assertEquals(11, alignment.agreed(), "appends cannot mend a mismatch below them");
    assertHoldsLikeSamePositions(alignment, lead, other);
    assertTrue(alignment.holds(8, 11));
    assertFalse(alignment.holds(8, 12));
    assertTrue(alignment.holds(13, 14), "past the prefix: asked of samePositions");
  }

  @Test
  void aChangeSinceTheRefreshIsNotTrusted() {
    final TestSet lead = new TestSet(DeletionPolicy.SWAP_AND_POP);
    final TestSet other = new TestSet(DeletionPolicy.IN_PLACE);
    for (int i = 0; i < 10; i++) {
      lead.appendEntity(Entity.of(i, 0));
      other.appendEntity(Entity.of(i, 0));
    }
    final Query.Alignment alignment = new Query.Alignment(other);
    alignment.refresh(lead);
    assertTrue(alignment.holds(0, 10));
    other.remove(Entity.of(3, 0)); // a hole at 3, after the refresh (as a visitor would)
    assertFalse(alignment.holds(0, 10), "the other set changed since the refresh");
    assertTrue(alignment.holds(4, 10));
    alignment.refresh(lead);
    assertEquals(3, alignment.agreed());
    lead.remove(Entity.of(9, 0)); // the last: only the size changes
    assertFalse(alignment.holds(5, 10), "the lead no longer holds position 9");
    alignment.refresh(lead);
    assertEquals(3, alignment.agreed());
    final TestSet second = new TestSet(DeletionPolicy.SWAP_AND_POP);
    second.appendEntity(Entity.of(0, 0));
    alignment.refresh(second);
    assertEquals(1, alignment.agreed(), "another lead is compared from position 0");
    alignment.refresh(other);
    assertEquals(other.size(), alignment.agreed(), "a set agrees with itself");
  }

  /**
   * Seeded runs of every structural change of a set, a refresh after each few: the prefix always
   * equals the longest agreeing prefix, and a stamp equal to a recorded one always means the
   * positions below the recorded size are unchanged.
   */
  @Test
  void theRememberedPrefixIsTheAgreeingPrefixAfterAnyChange() {
    for (int seed = 0; seed < 40; seed++) {
      final Random random = new Random(seed);
      final TestSet lead = new TestSet(DeletionPolicy.SWAP_AND_POP);
      final TestSet other =
          new TestSet(seed % 2 == 0 ? DeletionPolicy.SWAP_AND_POP : DeletionPolicy.IN_PLACE);
      final Query.Alignment alignment = new Query.Alignment(other);
      final List<long[]> leadSeen = new ArrayList<>();
      final List<long[]> otherSeen = new ArrayList<>();
      final List<Long> leadStamps = new ArrayList<>();
      final List<Long> otherStamps = new ArrayList<>();
      int next = 0;
      for (int step = 0; step < 400; step++) {
        final int op = random.nextInt(14);
        final TestSet set = random.nextBoolean() ? lead : other;
        if (op < 6) {
          final long e = Entity.of(next++, 0);
          lead.appendEntity(e);
          if (op < 5) {
            other.insert(e);
          }
        } else if (op == 6 && set.size() > 0) {
          final long e = set.at(random.nextInt(set.size()));
          if (!Entity.isTombstone(e)) {
            set.remove(e);
          }
        } else if (op == 7 && set.size() > 1) {
          set.removeAll(new long[] {set.at(set.size() - 1)}, 0, 1);
        } else if (op == 8 && !set.hasTombstones() && set.size() > 1) {
          set.swap(random.nextInt(set.size()), random.nextInt(set.size()));
        } else if (op == 9 && !set.hasTombstones()) {
          set.sort((a, b) -> Long.compare(b, a));
        } else if (op == 10) {
          set.compact();
        } else if (op == 11 && !other.hasTombstones()) {
          other.sortAs(lead);
        } else if (op == 12 && random.nextInt(8) == 0) {
          set.clear();
        } else if (op == 13 && !set.hasTombstones()) {
          set.sortByLongKey(e -> e % 7);
        }
        checkStamps(lead, leadSeen, leadStamps);
        checkStamps(other, otherSeen, otherStamps);
        if (random.nextInt(3) == 0) {
          alignment.refresh(lead);
          assertEquals(agreeingPrefix(lead, other), alignment.agreed(), "seed " + seed);
          assertHoldsLikeSamePositions(alignment, lead, other);
        }
      }
    }
  }

  /**
   * Records the set's stamp and content; asserts that an equal earlier stamp saw the same prefix.
   */
  private static void checkStamps(
      final SparseSet set, final List<long[]> seen, final List<Long> stamps) {
    final long stamp = set.structureStamp();
    final long[] now = Arrays.copyOf(set.packed(), set.size());
    for (int i = 0; i < stamps.size(); i++) {
      if (stamps.get(i) == stamp) {
        final long[] then = seen.get(i);
        assertTrue(then.length <= now.length, "an unchanged stamp, yet the set shrank");
        assertEquals(
            -1,
            Arrays.mismatch(then, 0, then.length, now, 0, then.length),
            "an unchanged stamp, yet a position below the old size changed");
      }
    }
    if (stamps.isEmpty() || stamps.get(stamps.size() - 1) != stamp) {
      assertTrue(stamps.isEmpty() || stamps.get(stamps.size() - 1) < stamp, "counts up");
      stamps.add(stamp);
      seen.add(now);
    } else {
      seen.set(seen.size() - 1, now);
    }
    assertNotEquals(Long.MIN_VALUE, stamp);
  }
}
