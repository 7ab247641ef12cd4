package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.internal.ParentCycles;
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
    // A position is listed once at most, over every list: a list that loops stops at the first
    // child met again, so no walk takes more steps than there are nodes.
    for (long child = nodes.firstAt(position); !Entity.isNull(child); ) {
      final int at = nodes.indexOf(child);
      if (SparseSet.ABSENT == at
          || nodes.parentAt(at) != entity
          || nodes.previousAt(at) != previous
          || listed[at]) {
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

  /** Reports every entity on a cycle of parent links, in O(nodes). */
  private static void verifyAcyclic(
      final Hierarchy.NodeStorage nodes,
      final long[] packed,
      final int size,
      final List<String> problems) {
    final int[] cycles =
        ParentCycles.onCycles(
            size,
            position -> {
              if (Entity.isTombstone(packed[position])) {
                return -1;
              }
              final long parent = nodes.parentAt(position);
              return Entity.isNull(parent) ? -1 : nodes.indexOf(parent);
            });
    for (final int position : cycles) {
      problems.add(Entity.toString(packed[position]) + " is its own ancestor");
    }
  }
}
