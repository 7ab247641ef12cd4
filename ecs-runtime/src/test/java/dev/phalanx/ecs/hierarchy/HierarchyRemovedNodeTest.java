package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node being removed is already unlinked when the node storage's other destroy listeners see it:
 * no parent, no siblings, no children, whether the lists are kept as it goes or rebuilt later (raw
 * writes open).
 */
class HierarchyRemovedNodeTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);

  @Test
  void aRemovedNodeIsSeenUnlinked() {
    assertEquals(List.of(0L, 0L, 0L, 0L, 0L), removeMiddle(false));
  }

  @Test
  void aNodeRemovedWhileRelinkingIsSeenUnlinked() {
    assertEquals(List.of(0L, 0L, 0L, 0L, 0L), removeMiddle(true));
  }

  /**
   * Removes the node of the middle of three siblings, which has children, and returns what a
   * destroy listener saw of it: its parent, siblings, first child (1 if not null, else 0) and
   * count.
   */
  private List<Long> removeMiddle(final boolean relinking) {
    final long parent = registry.create();
    final long left = registry.create();
    final long middle = registry.create();
    final long right = registry.create();
    hierarchy.replaceChildren(parent, new long[] {left, middle, right});
    hierarchy.replaceChildren(middle, new long[] {registry.create(), registry.create()});
    final List<Long> seen = new ArrayList<>();
    hierarchy
        .nodes()
        .onDestroy()
        .connect(
            (r, e) -> {
              seen.add(Entity.isNull(hierarchy.parent(e)) ? 0L : 1L);
              seen.add(Entity.isNull(hierarchy.previousSibling(e)) ? 0L : 1L);
              seen.add(Entity.isNull(hierarchy.nextSibling(e)) ? 0L : 1L);
              seen.add(Entity.isNull(hierarchy.firstChild(e)) ? 0L : 1L);
              seen.add((long) hierarchy.childCount(e));
            });
    if (relinking) {
      hierarchy.beginRelink();
    }
    registry.remove(middle, Hierarchy.TYPE);
    if (relinking) {
      hierarchy.endRelink();
    }
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(2, hierarchy.childCount(parent));
    return seen;
  }
}
