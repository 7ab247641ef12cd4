package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.internal.IntrusiveLists;

/**
 * Rebuilds the hierarchy's children lists and counts from its parent links, after raw writes of
 * node values (a loader's) left them as they wanted. The parent links are the truth: afterwards
 * every list holds exactly the nodes that name its owner as parent, its count is its length, its
 * sibling links are symmetric, and a root has no siblings (see {@link Hierarchy#relink()} for the
 * order kept). Cycles of parent links are not broken: a loader refuses them first. One per
 * hierarchy: its two scratch arrays (one entry per node position) grow to the largest storage
 * rebuilt and are kept, so that a rebuild (one per delta a replica applies) allocates nothing.
 */
final class ListRebuild {

  private boolean[] taken = new boolean[0];
  private int[] tail = new int[0];

  /**
   * Rebuilds every children list and count of {@code nodes} from the parent links; see {@link
   * Hierarchy#relink()}.
   */
  void rebuild(final Hierarchy.NodeStorage nodes) {
    final IntrusiveLists links = nodes.links();
    final int size = nodes.size();
    final long[] packed = nodes.packed();
    for (int at = 0; at < size; at++) {
      if (!Entity.isTombstone(packed[at])) {
        final long parent = nodes.parentAt(at);
        if (!Entity.isNull(parent) && (!nodes.contains(parent) || parent == packed[at])) {
          links.clearMember(at);
        }
      }
    }
    if (taken.length < size) {
      taken = new boolean[Math.max(size, 2 * taken.length)];
      tail = new int[taken.length];
    } else {
      java.util.Arrays.fill(taken, 0, size, false);
    }
    final boolean[] taken = this.taken;
    final int[] tail = this.tail;
    for (int at = 0; at < size; at++) {
      if (!Entity.isTombstone(packed[at])) {
        tail[at] = keepListed(nodes, links, at, taken);
      }
    }
    for (int at = 0; at < size; at++) {
      final long entity = packed[at];
      if (Entity.isTombstone(entity) || taken[at]) {
        continue;
      }
      final long parent = nodes.parentAt(at);
      if (Entity.isNull(parent)) {
        links.clearMember(at);
        continue;
      }
      final int parentAt = nodes.indexOf(parent);
      final int last = tail[parentAt];
      if (SparseSet.ABSENT == last) {
        links.setMember(at, parent, Entity.NULL, Entity.NULL);
        links.setOwner(parentAt, entity, entity, 1);
      } else {
        links.setNext(last, entity);
        links.setMember(at, parent, packed[last], Entity.NULL);
        links.setOwner(parentAt, links.firstAt(parentAt), entity, links.countAt(parentAt) + 1);
      }
      tail[parentAt] = at;
    }
  }

  /**
   * Keeps, in order, the prefix of the list of the node at {@code at} whose children name it as
   * parent and are listed nowhere else; returns the position of the last one kept, or {@link
   * SparseSet#ABSENT}.
   */
  private static int keepListed(
      final Hierarchy.NodeStorage nodes,
      final IntrusiveLists links,
      final int at,
      final boolean[] taken) {
    final long entity = nodes.packed()[at];
    long child = nodes.firstAt(at);
    long first = Entity.NULL;
    int last = SparseSet.ABSENT;
    int count = 0;
    while (!Entity.isNull(child)) {
      final int childAt = nodes.indexOf(child);
      if (SparseSet.ABSENT == childAt || taken[childAt] || nodes.parentAt(childAt) != entity) {
        break;
      }
      final long next = nodes.nextAt(childAt);
      taken[childAt] = true;
      if (SparseSet.ABSENT == last) {
        first = child;
        links.setMember(childAt, entity, Entity.NULL, Entity.NULL);
      } else {
        links.setNext(last, child);
        links.setMember(childAt, entity, nodes.packed()[last], Entity.NULL);
      }
      last = childAt;
      count++;
      child = next;
    }
    links.setOwner(at, first, SparseSet.ABSENT == last ? Entity.NULL : nodes.packed()[last], count);
    return last;
  }
}
