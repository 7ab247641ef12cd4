package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deep hierarchies: a chain of a million nodes is built, traversed, verified, cleared and destroyed
 * (one tree, a batch root first) in linear time and without recursion. The bound is generous (the
 * quadratic depth rewrites this replaced took about 2.5 hours at this depth); what is asserted is
 * the result.
 */
class HierarchyDeepTest {

  // Under mutation testing (the runtime POM's PIT configuration) 200,000: still far deeper than
  // any recursive walk could go on a default thread stack.
  private static final int DEPTH = Integer.getInteger("phalanx.deepHierarchy", 1_000_000);

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);

  /** A chain root, child, grandchild, ...; returns it, root first. */
  private long[] chain(final int length) {
    final long[] chain = new long[length];
    registry.create(chain);
    for (int i = 1; i < length; i++) {
      hierarchy.attach(chain[i], chain[i - 1]);
    }
    return chain;
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aMillionDeepChainIsTraversedAndVerifiedWithoutRecursion() {
    final long[] chain = chain(DEPTH);
    assertEquals(DEPTH - 1, hierarchy.depth(chain[DEPTH - 1]));
    assertTrue(hierarchy.isAncestor(chain[0], chain[DEPTH - 1]));
    final long[] count = {0, 0, 0};
    final long[] previous = {Entity.NULL};
    hierarchy.depthFirst(
        chain[0],
        e -> {
          assertEquals(previous[0], hierarchy.parent(e));
          previous[0] = e;
          count[0]++;
        });
    hierarchy.breadthFirst(chain[0], e -> count[1]++);
    hierarchy.eachParentFirst(e -> count[2]++);
    assertEquals(DEPTH, count[0]);
    assertEquals(DEPTH, count[1]);
    assertEquals(DEPTH, count[2]);
    assertEquals(List.of(), registry.verify());
    // Building a chain upwards (a new root above the old one) is linear too.
    final long top = registry.create();
    hierarchy.attach(chain[0], top);
    assertEquals(DEPTH, hierarchy.depth(chain[DEPTH - 1]));
    // Moving the chain's lower half elsewhere checks for cycles by walking up from the target.
    hierarchy.reparent(chain[DEPTH / 2], top);
    assertEquals(DEPTH / 2, hierarchy.depth(chain[DEPTH - 1]));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aMillionDeepChainIsClearedByTheRegistryOrTheNodeStorage() {
    chain(DEPTH);
    registry.clear();
    assertEquals(0, registry.alive());
    assertEquals(0, hierarchy.nodes().size());
    assertEquals(List.of(), registry.verify());
    final long[] chain = chain(DEPTH);
    hierarchy.nodes().clear();
    assertEquals(DEPTH, registry.alive());
    assertEquals(Entity.NULL, hierarchy.parent(chain[DEPTH - 1]));
    assertEquals(0, hierarchy.depth(chain[DEPTH - 1]));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aMillionDeepChainIsDestroyedAsATreeOrAsABatchRootFirst() {
    final long keep = registry.create();
    final long[] chain = chain(DEPTH);
    hierarchy.attach(chain[0], keep);
    hierarchy.destroyTree(chain[0]);
    assertEquals(1, registry.alive());
    assertEquals(0, hierarchy.childCount(keep));
    assertFalse(registry.valid(chain[DEPTH - 1]));
    assertEquals(List.of(), registry.verify());
    // Root first: each destroy makes the next node a root, touching nothing below it.
    final long[] again = chain(DEPTH);
    registry.destroy(again, 0, DEPTH);
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
    // One at a time, root first, the same.
    final long[] third = chain(DEPTH / 4);
    for (final long e : third) {
      registry.destroy(e);
    }
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aDeepAndWideTreeIsDestroyedAndVerifiedInLinearTime() {
    // A spine of 1,000 nodes, each with 500 leaves: 501,000 nodes, wide lists at every depth.
    final long root = registry.create();
    long spine = root;
    for (int level = 0; level < 1_000; level++) {
      final long[] leaves = new long[500];
      registry.create(leaves);
      for (final long leaf : leaves) {
        hierarchy.attach(leaf, spine);
      }
      final long next = registry.create();
      hierarchy.attach(next, spine);
      spine = next;
    }
    assertEquals(1_000, hierarchy.depth(spine));
    assertEquals(List.of(), registry.verify());
    final long[] all = new long[registry.alive()];
    final int[] n = {0};
    hierarchy.depthFirst(root, e -> all[n[0]++] = e);
    assertEquals(all.length, n[0]);
    registry.destroy(all, 0, all.length); // parents first
    assertEquals(0, registry.alive());
    assertEquals(0, hierarchy.nodes().size() - countHoles());
    assertEquals(List.of(), registry.verify());
  }

  private int countHoles() {
    int holes = 0;
    final long[] packed = hierarchy.nodes().packed();
    for (int i = 0; i < hierarchy.nodes().size(); i++) {
      if (Entity.isTombstone(packed[i])) {
        holes++;
      }
    }
    return holes;
  }
}
