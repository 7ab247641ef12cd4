package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.Registry;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * A walk fails fast when its action changes a link: a move to another parent, a replacement of a
 * parent's children, or a new node linked in. Each of those changes no node's position, so only the
 * hierarchy's own count of changes tells the walk; the change itself is made, and the hierarchy
 * stays consistent.
 */
class HierarchyWalkChangeTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);
  private final long root = registry.create();
  private final long a = registry.create();
  private final long b = registry.create();
  private final long other = registry.create();

  HierarchyWalkChangeTest() {
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    hierarchy.attach(registry.create(), other);
  }

  @Test
  void aMoveToAnotherParentStopsTheWalk() {
    walkChanging(() -> hierarchy.reparent(b, other));
    assertEquals(other, hierarchy.parent(b));
  }

  @Test
  void aReplacementOfChildrenStopsTheWalk() {
    walkChanging(() -> hierarchy.replaceChildren(other, new long[] {b}));
    assertEquals(other, hierarchy.parent(b));
  }

  @Test
  void aNewNodeLinkedInStopsTheWalk() {
    final long fresh = registry.create();
    walkChanging(() -> hierarchy.replaceChildren(root, new long[] {a, b, fresh}));
    assertEquals(root, hierarchy.parent(fresh));
  }

  /** Runs each walk from root with an action that makes {@code change} at its first visit. */
  private void walkChanging(final Runnable change) {
    final boolean[] done = {false};
    final LongConsumer action =
        e -> {
          if (!done[0]) {
            done[0] = true;
            change.run();
          }
        };
    assertThrows(ConcurrentModificationException.class, () -> hierarchy.depthFirst(root, action));
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(List.of(), registry.verify());
  }
}
