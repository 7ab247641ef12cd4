package dev.phalanx.ecs.hierarchy;

/**
 * The hierarchy's package-private writers that tests of other packages use to build a broken
 * hierarchy on purpose (a loader's checks, {@code verify()}), without going through its checked
 * API.
 */
public final class HierarchyTestAccess {

  private HierarchyTestAccess() {}

  /** Overwrites the links of the node at {@code position}, unchecked. */
  public static void setLinks(
      final Hierarchy.NodeStorage nodes,
      final int position,
      final long parent,
      final long previous,
      final long next) {
    nodes.links().setMember(position, parent, previous, next);
  }

  /** Overwrites the child count of the node at {@code position}, unchecked. */
  public static void setCountAt(
      final Hierarchy.NodeStorage nodes, final int position, final int count) {
    nodes.links().setCount(position, count);
  }
}
