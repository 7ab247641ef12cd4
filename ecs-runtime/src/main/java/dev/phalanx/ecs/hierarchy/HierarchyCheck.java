package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.util.List;

/**
 * The hierarchy's consistency check: reads the node storage, changes nothing, and names every
 * broken invariant of {@link Hierarchy}'s class comment in words. It holds no state: each check
 * allocates its own arrays, one entry per node position, and walks every list and chain of parents
 * without recursion, so that a corrupted hierarchy (a cycle, a list that loops, a link to an entity
 * without a node) ends the walk rather than the thread.
 */
final class HierarchyCheck {

  private HierarchyCheck() {}

  /**
   * Appends the broken invariants of the hierarchy whose nodes {@code nodes} holds to {@code
   * problems}; see {@link Hierarchy#verify()}.
   */
  static void verify(
      final Registry registry, final Hierarchy.NodeStorage nodes, final List<String> problems) {
    final int size = nodes.size();
    final long[] packed = nodes.packed();
    // Positions of nodes found in their parent's list; then the states of the cycle search.
    final boolean[] listed = new boolean[size];
    for (int position = 0; position < size; position++) {
      final long entity = packed[position];
      if (!Entity.isTombstone(entity)) {
        verifyNode(registry, nodes, entity, position, listed, problems);
      }
    }
    for (int position = 0; position < size; position++) {
      final long entity = packed[position];
      if (Entity.isTombstone(entity)) {
        continue;
      }
      final long parent = nodes.parentAt(position);
      if (Entity.isNull(parent)) {
        if (!Entity.isNull(nodes.previousAt(position)) || !Entity.isNull(nodes.nextAt(position))) {
          problems.add(Entity.toString(entity) + " is a root but has sibling links");
        }
      } else if (!nodes.contains(parent)) {
        problems.add(
            Entity.toString(entity)
                + " names "
                + Entity.toString(parent)
                + " as parent, which has no node");
      } else if (!listed[position]) {
        problems.add(
            Entity.toString(entity)
                + " names "
                + Entity.toString(parent)
                + " as parent but is not among its children");
      }
    }
    verifyAcyclic(nodes, packed, size, problems);
  }

  /** Checks one node's entity and child list, marking the children it lists. */
  private static void verifyNode(
      final Registry registry,
      final Hierarchy.NodeStorage nodes,
      final long entity,
      final int position,
      final boolean[] listed,
      final List<String> problems) {
    final String name = Entity.toString(entity);
    if (!registry.valid(entity)) {
      problems.add(name + " has a node but is not a live entity");
    }
    int count = 0;
    long previous = Entity.NULL;
    final int bound = nodes.size();
    for (long child = nodes.firstAt(position); !Entity.isNull(child); ) {
      final int at = nodes.indexOf(child);
      if (SparseSet.ABSENT == at
          || nodes.parentAt(at) != entity
          || nodes.previousAt(at) != previous
          || listed[at]
          || count >= bound) {
        problems.add(name + ": child list broken at " + Entity.toString(child));
        count = -1;
        break;
      }
      listed[at] = true;
      count++;
      previous = child;
      child = nodes.nextAt(at);
    }
    if (count >= 0 && count != nodes.countAt(position)) {
      problems.add(name + " counts " + nodes.countAt(position) + " children but lists " + count);
    }
  }

  /**
   * Reports every entity on a cycle of parent links, in O(nodes): each chain of parents is walked
   * once, up to a root, a node already known to reach one, or a node of the chain itself.
   */
  private static void verifyAcyclic(
      final Hierarchy.NodeStorage nodes,
      final long[] packed,
      final int size,
      final List<String> problems) {
    // 0: not seen; 1: on the chain being walked; 2: reaches a root (or a reported cycle).
    final byte[] state = new byte[size];
    final int[] chain = new int[size];
    for (int start = 0; start < size; start++) {
      if (0 != state[start] || Entity.isTombstone(packed[start])) {
        continue;
      }
      int length = 0;
      int current = start;
      while (current >= 0 && 0 == state[current]) {
        state[current] = 1;
        chain[length++] = current;
        final long parent = nodes.parentAt(current);
        current = Entity.isNull(parent) ? -1 : nodes.indexOf(parent);
      }
      if (current >= 0 && 1 == state[current]) {
        // The walk came back to its own chain: from there on, every node is its own ancestor.
        int at = length - 1;
        while (chain[at] != current) {
          at--;
        }
        for (; at < length; at++) {
          problems.add(Entity.toString(packed[chain[at]]) + " is its own ancestor");
        }
      }
      for (int i = 0; i < length; i++) {
        state[chain[i]] = 2;
      }
    }
  }
}
