package dev.phalanx.ecs.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cycles of parent links: fixed cases, then random forests with cycles against a model. */
class ParentCyclesTest {

  private static int[] cycles(final int... parents) {
    final int[] calls = new int[parents.length];
    final int[] found =
        ParentCycles.onCycles(
            parents.length,
            position -> {
              calls[position]++;
              return parents[position];
            });
    for (int position = 0; position < parents.length; position++) {
      assertEquals(true, calls[position] <= 1, "parent of " + position + " asked once at most");
    }
    return found;
  }

  @Test
  void aForestHasNoCycle() {
    assertArrayEquals(new int[0], cycles());
    assertArrayEquals(new int[0], cycles(-1));
    assertArrayEquals(new int[0], cycles(-1, 0, 0, 1, 3, -5));
    assertArrayEquals(new int[0], cycles(3, 3, 1, -1));
  }

  @Test
  void aPositionThatIsItsOwnParentIsACycle() {
    assertArrayEquals(new int[] {0}, cycles(0));
    assertArrayEquals(new int[] {1}, cycles(-1, 1, 1));
  }

  @Test
  void eachCycleIsGivenFromWhereTheWalkCameBackInParentOrder() {
    // 0 -> 1 -> 2 -> 3 -> 1: the walk from 0 comes back at 1.
    assertArrayEquals(new int[] {1, 2, 3}, cycles(1, 2, 3, 1));
    // Two cycles, the second found from position 4: 6 -> 5 -> 6.
    assertArrayEquals(new int[] {0, 2, 1, 5, 6}, cycles(2, 0, 1, -1, 5, 6, 5));
    // A chain into a cycle already reported adds nothing.
    assertArrayEquals(new int[] {1, 2}, cycles(1, 2, 1, 0, 3));
  }

  @Test
  void matchesAModelOnRandomLinks() {
    final Random random = new Random(7);
    for (int round = 0; round < 500; round++) {
      final int size = random.nextInt(12);
      final int[] parents = new int[size];
      for (int i = 0; i < size; i++) {
        parents[i] = random.nextInt(4) == 0 ? -1 : random.nextInt(size);
      }
      final int[] found = cycles(parents);
      // The model: a position is on a cycle if following its parents leads back to it.
      final List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        int current = parents[i];
        for (int step = 0; step < size && current >= 0 && current != i; step++) {
          current = parents[current];
        }
        if (current == i) {
          expected.add(i);
        }
      }
      final int[] sorted = found.clone();
      Arrays.sort(sorted);
      assertArrayEquals(
          expected.stream().mapToInt(Integer::intValue).toArray(),
          sorted,
          "round " + round + ": " + Arrays.toString(parents));
      for (int k = 0; k + 1 < found.length; k++) {
        // Within one cycle, each position is followed by its parent, or a new cycle starts.
        final int next = found[k + 1];
        final boolean sameCycle = parents[found[k]] == next;
        final boolean startsCycle = !Arrays.stream(found, 0, k + 1).anyMatch(p -> p == next);
        assertEquals(true, sameCycle || startsCycle, "round " + round);
      }
    }
  }

  @Test
  void aReusedWalkFindsTheFirstPositionOnCycles() {
    // One walk across calls of growing and shrinking sizes: what an earlier call marked must not
    // leak into a later one.
    final ParentCycles.Walk walk = new ParentCycles.Walk();
    final Random random = new Random(11);
    for (int round = 0; round < 500; round++) {
      final int size = random.nextInt(12);
      final int[] parents = new int[size];
      for (int i = 0; i < size; i++) {
        parents[i] = random.nextInt(4) == 0 ? -1 : random.nextInt(size);
      }
      final int[] found = cycles(parents);
      assertEquals(
          0 == found.length ? -1 : found[0],
          walk.firstOnCycle(size, position -> parents[position]),
          "round " + round + ": " + Arrays.toString(parents));
    }
  }
}
