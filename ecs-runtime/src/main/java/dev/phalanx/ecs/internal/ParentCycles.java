package dev.phalanx.ecs.internal;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Finds the cycles of parent links in a forest given by positions, so that the hierarchy's check
 * and the snapshot loader's check of the links it is about to load share one algorithm. A leaf: it
 * knows positions only, not entities.
 */
public final class ParentCycles {

  private ParentCycles() {}

  /**
   * Returns the positions that are their own ancestor. Each chain of parents is walked once,
   * without recursion, up to a root, a position already known to reach one, or a position of the
   * chain itself: O(size) time, three arrays of {@code size} entries.
   *
   * @param size the number of positions, {@code 0 .. size - 1}
   * @param parentOf the parent position of a position, or a negative number for a root (or a
   *     position to leave out, which is then taken for a root); called at most once per position
   * @return the positions on a cycle, cycle by cycle, each from the position where the walk that
   *     found it came back to its own chain, in the order of the parent links; empty if none
   */
  public static int[] onCycles(final int size, final IntUnaryOperator parentOf) {
    // 0: not seen; 1: on the chain being walked; 2: reaches a root (or a cycle found).
    final byte[] state = new byte[size];
    final int[] chain = new int[size];
    final int[] found = new int[size];
    int count = 0;
    for (int start = 0; start < size; start++) {
      if (0 != state[start]) {
        continue;
      }
      int length = 0;
      int current = start;
      while (current >= 0 && 0 == state[current]) {
        state[current] = 1;
        chain[length++] = current;
        current = parentOf.applyAsInt(current);
      }
      if (current >= 0 && 1 == state[current]) {
        // The walk came back to its own chain: from there on, every position is its own ancestor.
        int at = length - 1;
        while (chain[at] != current) {
          at--;
        }
        while (at < length) {
          found[count++] = chain[at++];
        }
      }
      for (int i = 0; i < length; i++) {
        state[chain[i]] = 2;
      }
    }
    return Arrays.copyOf(found, count);
  }
}
