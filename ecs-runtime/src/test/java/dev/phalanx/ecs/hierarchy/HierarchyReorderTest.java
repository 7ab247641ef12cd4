package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sorting and compacting the node storage: every node's links move with it (they are entity
 * handles), so the hierarchy reads the same afterwards, and a traversal under way fails fast.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HierarchyReorderTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);
  private final HierarchyModel model = new HierarchyModel();

  /** A random forest of {@code n} entities, some of them destroyed (holes in the node storage). */
  private void forest(final long seed, final int n) {
    final Random random = new Random(seed);
    final List<Long> live = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      model.create(e);
      if (!live.isEmpty() && random.nextInt(5) != 0) {
        final long parent = live.get(random.nextInt(live.size()));
        hierarchy.attach(e, parent);
        model.link(e, parent);
      }
      live.add(e);
    }
    for (int i = 0; i < n / 5; i++) {
      final long doomed = live.remove(random.nextInt(live.size()));
      registry.destroy(doomed);
      model.destroy(doomed);
    }
    model.check(registry, hierarchy, "built");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void compactingMovesTheLinksWithTheNodes(final long seed) {
    forest(seed, 200);
    assertEquals(true, hierarchy.nodes().hasTombstones());
    hierarchy.nodes().compact();
    assertEquals(false, hierarchy.nodes().hasTombstones());
    model.check(registry, hierarchy, "compacted");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void sortingMovesTheLinksWithTheNodes(final long seed) {
    forest(seed, 200);
    hierarchy.nodes().compact();
    final Random random = new Random(seed);
    final long salt = random.nextLong();
    hierarchy
        .nodes()
        .sort((a, b) -> Long.compare(Long.rotateLeft(a * salt, 17), Long.rotateLeft(b * salt, 17)));
    model.check(registry, hierarchy, "sorted by entity");
    // By position, descending: every element moves.
    hierarchy.nodes().sortByPosition((left, right) -> Integer.compare(right, left));
    model.check(registry, hierarchy, "sorted by position");
    hierarchy.nodes().insertionSortByPosition((left, right) -> Integer.compare(right, left));
    model.check(registry, hierarchy, "insertion sorted");
    // Changes after reordering still find the right nodes.
    final List<Long> live = new ArrayList<>(model.parents.keySet());
    live.sort(null);
    for (int i = 0; i < 50; i++) {
      final long a = live.get(random.nextInt(live.size()));
      final long b = live.get(random.nextInt(live.size()));
      if (model.mayLink(a, b)) {
        hierarchy.reparent(a, b);
        model.link(a, b);
      }
    }
    model.check(registry, hierarchy, "changed after sorting");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aTraversalFailsFastWhenTheNodesAreReorderedUnderIt(final boolean sort) {
    forest(7, 50);
    final int[] visits = {0};
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            hierarchy.eachParentFirst(
                e -> {
                  if (1 == ++visits[0]) {
                    if (sort) {
                      hierarchy.nodes().compact();
                      hierarchy.nodes().sortByPosition((l, r) -> Integer.compare(r, l));
                    } else {
                      hierarchy.nodes().compact();
                    }
                  }
                }));
    assertEquals(1, visits[0]);
    model.check(registry, hierarchy, "reordered during a traversal");
  }
}
