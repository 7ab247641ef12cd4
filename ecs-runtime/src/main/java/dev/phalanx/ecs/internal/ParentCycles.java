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
    final int[] found = new int[size];
    final int count = walk(size, parentOf, new byte[size], new int[size], found);
    return Arrays.copyOf(found, count);
  }

  /**
   * The scratch of {@link #onCycles} for a caller that checks again and again (a replica checking
   * every delta): its arrays grow to the largest size asked and are reused, so a check allocates
   * nothing once they have.
   */
  public static final class Walk {
    private byte[] state = new byte[0];
    private int[] chain = new int[0];
    private final int[] first = new int[1];

    /** Creates a walk with no arrays yet. */
    public Walk() {}

    /**
     * Returns the first position found on a cycle, as {@link #onCycles} would list it first, or -1
     * if there is none.
     *
     * @param size the number of positions, {@code 0 .. size - 1}
     * @param parentOf as for {@link #onCycles}
     * @return a position that is its own ancestor, or -1
     */
    public int firstOnCycle(final int size, final IntUnaryOperator parentOf) {
      if (state.length < size) {
        state = new byte[Math.max(size, state.length * 2)];
        chain = new int[state.length];
      } else {
        Arrays.fill(state, 0, size, (byte) 0);
      }
      return 0 == walk(size, parentOf, state, chain, first) ? -1 : first[0];
    }
  }

  /**
   * Walks every chain of parents, marking {@code state} (zeroed, at least {@code size} long) and
   * using {@code chain} as the stack; records the positions on cycles into {@code found} until it
   * is full, and returns how many it recorded.
   */
  private static int walk(
      final int size,
      final IntUnaryOperator parentOf,
      final byte[] state,
      final int[] chain,
      final int[] found) {
    // 0: not seen; 1: on the chain being walked; 2: reaches a root (or a cycle found).
    int count = 0;
    for (int start = 0; start < size && count < found.length; start++) {
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
        while (at < length && count < found.length) {
          found[count++] = chain[at++];
        }
      }
      for (int i = 0; i < length; i++) {
        state[chain[i]] = 2;
      }
    }
    return count;
  }
}
