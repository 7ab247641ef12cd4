package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.Entity;

/**
 * The hierarchy's list surgery: the intrusive doubly linked lists of siblings kept in the node
 * storage's link columns, edited in place. Each operation takes a consistent forest to a consistent
 * forest: a child is in its parent's list exactly when it names that parent, the sibling links stay
 * symmetric, the parent's count stays the list's length, and a root keeps no sibling links. Callers
 * check validity, cycles and locks first and bump the hierarchy's change count after; these methods
 * check nothing, allocate nothing, and publish no signal.
 */
final class ChildLists {

  private ChildLists() {}

  /**
   * Links the root {@code child} at {@code position} under {@code parent}, which has a node, at
   * {@code index} among its children ({@code [0, count]}, checked by the caller). O(index).
   */
  static void link(
      final Hierarchy.NodeStorage nodes,
      final int position,
      final long child,
      final long parent,
      final int index) {
    final int parentPosition = nodes.indexOf(parent);
    if (0 == index) {
      final long oldFirst = nodes.firstAt(parentPosition);
      nodes.setLinks(position, parent, Entity.NULL, oldFirst);
      if (!Entity.isNull(oldFirst)) {
        nodes.setPreviousAt(nodes.indexOf(oldFirst), child);
      }
      nodes.setFirstAt(parentPosition, child);
    } else {
      long previous = nodes.firstAt(parentPosition);
      for (int i = 1; i < index; i++) {
        previous = nodes.nextAt(nodes.indexOf(previous));
      }
      final int previousPosition = nodes.indexOf(previous);
      final long next = nodes.nextAt(previousPosition);
      nodes.setLinks(position, parent, previous, next);
      nodes.setNextAt(previousPosition, child);
      if (!Entity.isNull(next)) {
        nodes.setPreviousAt(nodes.indexOf(next), child);
      }
    }
    nodes.setCountAt(parentPosition, nodes.countAt(parentPosition) + 1);
  }

  /** Removes the child at {@code position} from its parent's list of children. O(1). */
  static void cut(final Hierarchy.NodeStorage nodes, final int position) {
    final long parent = nodes.parentAt(position);
    final long previous = nodes.previousAt(position);
    final long next = nodes.nextAt(position);
    final int parentPosition = nodes.indexOf(parent);
    if (Entity.isNull(previous)) {
      nodes.setFirstAt(parentPosition, next);
    } else {
      nodes.setNextAt(nodes.indexOf(previous), next);
    }
    if (!Entity.isNull(next)) {
      nodes.setPreviousAt(nodes.indexOf(next), previous);
    }
    nodes.setCountAt(parentPosition, nodes.countAt(parentPosition) - 1);
    nodes.setLinks(position, Entity.NULL, Entity.NULL, Entity.NULL);
  }

  /**
   * Makes every child of the node at {@code position} a root (their own subtrees kept), and leaves
   * the node without children. O(children): nothing below them is touched. The node's own parent
   * and sibling links are the caller's.
   */
  static void orphanChildren(final Hierarchy.NodeStorage nodes, final int position) {
    for (long child = nodes.firstAt(position); !Entity.isNull(child); ) {
      final int childPosition = nodes.indexOf(child);
      final long next = nodes.nextAt(childPosition);
      nodes.setLinks(childPosition, Entity.NULL, Entity.NULL, Entity.NULL);
      child = next;
    }
    nodes.setFirstAt(position, Entity.NULL);
    nodes.setCountAt(position, 0);
  }

  /**
   * Clears every link of the node at {@code position}, touching no other node: only while raw
   * writes are open ({@link Hierarchy#beginRelink()}), when the lists are rebuilt from the parent
   * links at the end.
   */
  static void clear(final Hierarchy.NodeStorage nodes, final int position) {
    nodes.setLinks(position, Entity.NULL, Entity.NULL, Entity.NULL);
    nodes.setFirstAt(position, Entity.NULL);
    nodes.setCountAt(position, 0);
  }
}
