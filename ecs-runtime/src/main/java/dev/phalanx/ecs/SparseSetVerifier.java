package dev.phalanx.ecs;

import java.util.List;

/**
 * The consistency check of a {@link SparseSet}: every invariant that the set's structural changes
 * keep, checked from outside and reported in words. A debugging and testing aid, run by {@link
 * Registry#verify()}; it reads the set and changes nothing.
 *
 * <p>The invariants it checks:
 *
 * <ul>
 *   <li>every live element at position {@code p} is mapped by the sparse array to {@code p}, and
 *       every sparse entry maps its index to a position in {@code [0, size)} that holds it;
 *   <li>tombstones appear only under {@link DeletionPolicy#IN_PLACE}, and the free list of holes
 *       links every tombstone once, and nothing else;
 *   <li>no lock and no callback iteration is left registered.
 * </ul>
 */
final class SparseSetVerifier {

  private SparseSetVerifier() {}

  /**
   * Appends to {@code problems} every broken invariant of {@code set}, in words. O(size + the
   * sparse array's capacity).
   */
  static void verify(final SparseSet set, final List<String> problems) {
    final int holes = verifyPacked(set, problems);
    verifySparse(set, problems);
    verifyHoles(set, holes, problems);
    if (set.isLocked()) {
      problems.add(set.describe() + ": still locked (by " + set.lockDescription() + ")");
    }
    if (set.isIterated()) {
      problems.add(set.describe() + ": " + set.iterationCount() + " iteration(s) still registered");
    }
  }

  /** Checks that every element is where the sparse array says; returns the number of holes. */
  private static int verifyPacked(final SparseSet set, final List<String> problems) {
    final long[] packed = set.packed();
    int holes = 0;
    for (int position = 0; position < set.size(); position++) {
      final long entity = packed[position];
      if (Entity.isTombstone(entity)) {
        if (DeletionPolicy.IN_PLACE != set.policy()) {
          problems.add(
              set.describe() + ": tombstone at position " + position + " under swap-and-pop");
        }
        holes++;
        continue;
      }
      if (set.indexOf(entity) != position) {
        problems.add(
            set.describe()
                + ": "
                + Entity.toString(entity)
                + " at position "
                + position
                + " is mapped by the sparse array to "
                + sparseEntry(set.sparsePages(), (int) entity));
      }
    }
    return holes;
  }

  /** Checks that every sparse entry maps its index to a position that holds it. */
  private static void verifySparse(final SparseSet set, final List<String> problems) {
    final int[][] sparse = set.sparsePages();
    final long[] packed = set.packed();
    final int size = set.size();
    for (int page = 0; page < sparse.length; page++) {
      final int[] entries = sparse[page];
      for (int slot = 0; null != entries && slot < entries.length; slot++) {
        final int position = ~entries[slot];
        final int index = (page << SparseSet.SPARSE_SHIFT) + slot;
        if (SparseSet.ABSENT != position
            && (position < 0 || position >= size || Entity.index(packed[position]) != index)) {
          problems.add(
              set.describe()
                  + ": the sparse array maps index "
                  + index
                  + " to position "
                  + position
                  + ", which does not hold it");
        }
      }
    }
  }

  /** Checks that the free list links each of the {@code holes} tombstones once. */
  private static void verifyHoles(
      final SparseSet set, final int holes, final List<String> problems) {
    final long[] packed = set.packed();
    final int size = set.size();
    int listed = 0;
    for (int hole = set.firstHole(); SparseSet.ABSENT != hole; hole = (int) packed[hole]) {
      if (hole < 0 || hole >= size || !Entity.isTombstone(packed[hole]) || ++listed > holes) {
        problems.add(set.describe() + ": the free list of holes is broken at position " + hole);
        listed = -1;
        break;
      }
    }
    if (listed >= 0 && listed != holes) {
      problems.add(
          set.describe() + ": " + holes + " tombstones but " + listed + " holes in the free list");
    }
  }

  /** The position the sparse array maps {@code index} to, or {@link SparseSet#ABSENT}. */
  private static int sparseEntry(final int[][] sparse, final int index) {
    final int page = index >>> SparseSet.SPARSE_SHIFT;
    return page < sparse.length && null != sparse[page]
        ? ~sparse[page][index & SparseSet.SPARSE_MASK]
        : SparseSet.ABSENT;
  }
}
