package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.IntrusiveLists;

/**
 * The checked link changes of one {@link Hierarchy}: attach, reparent and replaceChildren are built
 * from these. Every change is all or nothing:
 *
 * <ul>
 *   <li>it is checked in full first (valid entities, no cycle, the node storage unlocked, the
 *       registry's rules for a node an entity lacks) and refused with nothing changed;
 *   <li>then the nodes it needs are inserted unannounced, the lists edited (the shared kernel,
 *       {@code IntrusiveLists}), the hierarchy's change count bumped, and only then are the new
 *       nodes announced, so that a listener sees the finished link and one that throws cannot leave
 *       a change half done;
 *   <li>the one refusal that comes after a node was inserted (a group upkeep refused under an
 *       iteration) leaves the nodes made so far without links, announced, and links nothing.
 * </ul>
 */
final class LinkEdits {

  // The mark of a node not created by this change (a created node's is a pending mark, >= -1).
  private static final int NONE = Integer.MIN_VALUE;

  private final Hierarchy hierarchy;
  private final Registry registry;
  private final Hierarchy.NodeStorage nodes;

  LinkEdits(final Hierarchy hierarchy, final Registry registry, final Hierarchy.NodeStorage nodes) {
    this.hierarchy = hierarchy;
    this.registry = registry;
    this.nodes = nodes;
  }

  /**
   * Checks that {@code child} may be linked under {@code parent} now: both valid, distinct, no
   * cycle, the node storage unlocked, and any node they lack insertable.
   */
  void checkLink(final long child, final long parent, final String verb) {
    checkValid(child, verb);
    if (!registry.valid(parent)) {
      // The message is built only when it is thrown: linking is a hot path.
      checkValid(parent, verb + " to");
    }
    if (child == parent) {
      throw new IllegalArgumentException(
          "cannot "
              + verb
              + " "
              + Entity.toString(child)
              + " to itself: the hierarchy has no cycles");
    }
    // Only an entity with children can be an ancestor: attaching a leaf needs no walk.
    if (0 != hierarchy.childCount(child) && hierarchy.isAncestor(child, parent)) {
      throw new IllegalArgumentException(
          "cannot "
              + verb
              + " "
              + Entity.toString(child)
              + " to "
              + Entity.toString(parent)
              + ": "
              + Entity.toString(parent)
              + " descends from it, and the hierarchy has no cycles");
    }
    nodes.checkUnlockedFor(child);
    checkNodeAllowed(child);
    checkNodeAllowed(parent);
  }

  /** Checks, for an entity without a node, that one may be inserted now (the registry's rules). */
  private void checkNodeAllowed(final long entity) {
    if (!nodes.contains(entity)) {
      nodes.checkNodeInsertable(entity);
    }
  }

  /** Checks that {@code entity} is valid, naming the refused change by {@code verb}. */
  void checkValid(final long entity, final String verb) {
    if (!registry.valid(entity)) {
      throw new IllegalArgumentException(
          "cannot "
              + verb
              + " "
              + Entity.toString(entity)
              + ": the entity is not valid (destroyed or never created)");
    }
  }

  /**
   * Moves {@code child} under {@code parent}, both checked: creates the nodes it needs (announcing
   * nothing yet), moves the links, then announces the new nodes.
   */
  void move(final long child, final long parent, final int index) {
    final int childMark = nodes.contains(child) ? NONE : nodes.insertRoot(child);
    final int parentMark;
    try {
      parentMark = nodes.contains(parent) ? NONE : nodes.insertRoot(parent);
    } catch (final RuntimeException | Error refused) {
      // Only a group upkeep refused under an iteration, or memory, gets here: the child's node
      // stays, without links, and is announced.
      if (NONE != childMark) {
        hierarchy.changed();
        final Throwable failure = nodes.announce(child, childMark, null);
        if (null != failure) {
          refused.addSuppressed(failure);
        }
      }
      throw refused;
    }
    final IntrusiveLists links = nodes.links();
    if (!Entity.isNull(nodes.parentAt(nodes.indexOf(child)))) {
      links.cut(child);
    }
    links.insertAfter(child, parent, previousOfPlace(parent, index));
    hierarchy.changed();
    // The parent's pending group entries were pushed last: they are published first.
    Throwable failure = null;
    if (NONE != parentMark) {
      failure = nodes.announce(parent, parentMark, failure);
    }
    if (NONE != childMark) {
      failure = nodes.announce(child, childMark, failure);
    }
    Failures.rethrow(failure);
  }

  /**
   * {@return the child of {@code parent} after which the {@code index}th child goes, or {@link
   * Entity#NULL} to go first} O(index): the list is walked.
   */
  private long previousOfPlace(final long parent, final int index) {
    if (0 == index) {
      return Entity.NULL;
    }
    long previous = nodes.firstAt(nodes.indexOf(parent));
    for (int i = 1; i < index; i++) {
      previous = nodes.nextAt(nodes.indexOf(previous));
    }
    return previous;
  }

  /** Checks that {@code child} has no parent yet: attach does not move a child. */
  void checkRoot(final long child, final long parent) {
    if (!Entity.isNull(hierarchy.parent(child))) {
      throw new IllegalStateException(
          "cannot attach "
              + Entity.toString(child)
              + " to "
              + Entity.toString(parent)
              + ": it already has"
              + " a parent, "
              + Entity.toString(hierarchy.parent(child))
              + "; use reparent to move it");
    }
  }

  /** Replaces the children of {@code parent}; see {@link Hierarchy#replaceChildren}. */
  void replaceChildren(final long parent, final long[] children) {
    checkChildren(parent, children);
    nodes.checkUnlockedFor(parent);
    // With no children, a parent without a node is left as it is; with children, each child's
    // link check has checked that the parent's node may be made.
    if (0 == children.length && !nodes.contains(parent)) {
      return;
    }
    final long[] created = new long[children.length + 1];
    final int[] marks = new int[children.length + 1];
    final int count = insertNodes(parent, children, created, marks);
    final IntrusiveLists links = nodes.links();
    links.orphanAt(nodes.indexOf(parent));
    // Each linked first, last to first: the list reads in the given order.
    for (int i = children.length - 1; i >= 0; i--) {
      if (!Entity.isNull(nodes.parentAt(nodes.indexOf(children[i])))) {
        links.cut(children[i]);
      }
      links.insertAfter(children[i], parent, Entity.NULL);
    }
    hierarchy.changed();
    Failures.rethrow(announce(created, marks, count));
  }

  /** Checks that each of {@code children} may be made a child of {@code parent}, once. */
  private void checkChildren(final long parent, final long[] children) {
    checkValid(parent, "replace the children of");
    for (int i = 0; i < children.length; i++) {
      checkLink(children[i], parent, "make a child");
      for (int j = 0; j < i; j++) {
        if (children[j] == children[i]) {
          throw new IllegalArgumentException(
              "cannot replace the children of "
                  + Entity.toString(parent)
                  + ": "
                  + Entity.toString(children[i])
                  + " is listed twice (at "
                  + j
                  + " and "
                  + i
                  + ")");
        }
      }
    }
  }

  /**
   * Inserts, unannounced, the nodes that {@code parent} and {@code children} lack, recording each
   * in {@code created} with its mark; returns how many. If one is refused (a group upkeep under an
   * iteration), those made so far stay, without links, announced, and the refusal is rethrown:
   * nothing is linked.
   */
  private int insertNodes(
      final long parent, final long[] children, final long[] created, final int[] marks) {
    int count = 0;
    try {
      if (!nodes.contains(parent)) {
        marks[count] = nodes.insertRoot(parent);
        created[count++] = parent;
      }
      for (final long child : children) {
        if (!nodes.contains(child)) {
          marks[count] = nodes.insertRoot(child);
          created[count++] = child;
        }
      }
    } catch (final RuntimeException | Error refused) {
      hierarchy.changed();
      final Throwable failure = announce(created, marks, count);
      if (null != failure) {
        refused.addSuppressed(failure);
      }
      throw refused;
    }
    return count;
  }

  /** Announces the nodes {@code created[0, count)}, last inserted first; returns the failures. */
  private Throwable announce(final long[] created, final int[] marks, final int count) {
    Throwable failure = null;
    for (int i = count - 1; i >= 0; i--) {
      failure = nodes.announce(created[i], marks[i], failure);
    }
    return failure;
  }

  /** Checks that {@code index} is a place among {@code children} children: [0, children]. */
  static void checkIndex(final int index, final int children, final long child, final long parent) {
    if (index < 0 || index > children) {
      throw new IndexOutOfBoundsException(
          "cannot place "
              + Entity.toString(child)
              + " at index "
              + index
              + " among the children of "
              + Entity.toString(parent)
              + ": the index must be in [0, "
              + children
              + "]");
    }
  }
}
