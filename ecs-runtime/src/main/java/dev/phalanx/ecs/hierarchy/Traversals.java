package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.Entity;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The walks over one {@link Hierarchy}: children, depth first, breadth first, parents first, and
 * the children-first order a subtree's destroy is built from. None recurses, whatever the depth:
 * depth first climbs back through the parent links, breadth first fills one queue. Every visiting
 * walk checks after each visit that the hierarchy's stamp did not move (no link changed, no node
 * created, destroyed or moved) and fails fast otherwise. The breadth-first queue is reused, so that
 * a walk allocates nothing once it has grown to the widest subtree; a breadth-first walk nested in
 * another (from its action) gets a queue of its own, so the outer walk's order stays intact.
 */
final class Traversals {

  private final Hierarchy hierarchy;
  // Reused by breadth-first traversals (a nested one gets its own).
  private long[] queue = new long[16];
  private boolean breadthFirstActive;

  Traversals(final Hierarchy hierarchy) {
    this.hierarchy = hierarchy;
  }

  /** Visits the children of {@code parent}; see {@link Hierarchy#eachChild}. */
  void eachChild(final long parent, final LongConsumer action) {
    final long before = hierarchy.stamp();
    for (long child = hierarchy.firstChild(parent); !Entity.isNull(child); ) {
      final long next = hierarchy.nextSibling(child);
      action.accept(child);
      hierarchy.checkUnchanged(before);
      child = next;
    }
  }

  /** Visits {@code root}'s subtree, parents first; see {@link Hierarchy#depthFirst}. */
  void depthFirst(final long root, final LongConsumer action) {
    final long before = hierarchy.stamp();
    long current = root;
    while (true) {
      action.accept(current);
      hierarchy.checkUnchanged(before);
      final long first = hierarchy.firstChild(current);
      if (!Entity.isNull(first)) {
        current = first;
        continue;
      }
      // Climb until a node has a next sibling, without leaving the subtree.
      while (current != root && Entity.isNull(hierarchy.nextSibling(current))) {
        current = hierarchy.parent(current);
      }
      if (current == root) {
        return;
      }
      current = hierarchy.nextSibling(current);
    }
  }

  /** Visits {@code root}'s subtree level by level; see {@link Hierarchy#breadthFirst}. */
  void breadthFirst(final long root, final LongConsumer action) {
    // A breadth-first traversal nested in another gets a queue of its own.
    final long[] shared = queue;
    if (breadthFirstActive) {
      queue = new long[16];
    }
    final long[] order;
    final int count;
    try {
      count = collectBreadthFirst(root);
      order = queue;
    } finally {
      if (breadthFirstActive) {
        queue = shared;
      }
    }
    final boolean outer = !breadthFirstActive;
    breadthFirstActive = true;
    try {
      final long before = hierarchy.stamp();
      for (int i = 0; i < count; i++) {
        action.accept(order[i]);
        hierarchy.checkUnchanged(before);
      }
    } finally {
      if (outer) {
        breadthFirstActive = false;
      }
    }
  }

  /** Visits every node, parents first; see {@link Hierarchy#eachParentFirst}. */
  void eachParentFirst(final LongConsumer action) {
    final Hierarchy.NodeStorage nodes = hierarchy.nodes();
    final long before = hierarchy.stamp();
    final long[] packed = nodes.packed();
    for (int position = 0; position < nodes.size(); position++) {
      final long entity = packed[position];
      if (!Entity.isTombstone(entity) && Entity.isNull(nodes.parentAt(position))) {
        // depthFirst checks after every visit that nothing changed: a change stops it there.
        depthFirst(entity, action);
        hierarchy.checkUnchanged(before);
      }
    }
  }

  /**
   * Returns {@code root} and its descendants, every descendant before its ancestors (reverse
   * pre-order, the root last), in a fresh array of their number: the order the destroys of a
   * subtree hand to the registry.
   */
  long[] childrenFirst(final long root) {
    final long[] order = preOrder(root);
    for (int i = 0, j = order.length - 1; i < j; i++, j--) {
      final long swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    return order;
  }

  /** Returns {@code root} and its descendants in pre-order, without recursion. */
  private long[] preOrder(final long root) {
    long[] order = new long[16];
    int count = 0;
    long current = root;
    while (true) {
      if (count == order.length) {
        order = Arrays.copyOf(order, count * 2);
      }
      order[count++] = current;
      final long first = hierarchy.firstChild(current);
      if (!Entity.isNull(first)) {
        current = first;
        continue;
      }
      while (current != root && Entity.isNull(hierarchy.nextSibling(current))) {
        current = hierarchy.parent(current);
      }
      if (current == root) {
        return Arrays.copyOf(order, count);
      }
      current = hierarchy.nextSibling(current);
    }
  }

  /** Fills the queue with {@code root}'s subtree, level by level; returns its length. */
  private int collectBreadthFirst(final long root) {
    long[] order = queue;
    order[0] = root;
    int count = 1;
    for (int head = 0; head < count; head++) {
      for (long child = hierarchy.firstChild(order[head]);
          !Entity.isNull(child);
          child = hierarchy.nextSibling(child)) {
        if (count == order.length) {
          order = Arrays.copyOf(order, count * 2);
          queue = order;
        }
        order[count++] = child;
      }
    }
    return count;
  }
}
