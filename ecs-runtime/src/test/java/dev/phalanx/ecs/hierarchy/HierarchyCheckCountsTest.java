package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy.NodeStorage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The consistency check's counts and loops, written behind the hierarchy's back. */
class HierarchyCheckCountsTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);
  private final NodeStorage nodes = hierarchy.nodes();

  @Test
  void anEmptyListThatCountsChildrenIsReported() {
    final long root = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, root);
    nodes.links().setCount(nodes.indexOf(child), 2);
    assertEquals(
        List.of(Entity.toString(child) + " counts 2 children but lists 0"), hierarchy.verify());
  }

  @Test
  void aListThatLoopsBackIsReportedOnce() {
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    hierarchy.replaceChildren(root, new long[] {a, b});
    // b's next is a again: the walk stops at a, met twice.
    nodes.links().setNext(nodes.indexOf(b), a);
    assertEquals(
        List.of(Entity.toString(root) + ": child list broken at " + Entity.toString(a)),
        hierarchy.verify());
  }

  @Test
  void aNodeThatListsItselfIsReported() {
    final long root = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, root);
    final int at = nodes.indexOf(root);
    nodes.links().setMember(at, root, Entity.NULL, Entity.NULL);
    nodes.links().setFirst(at, root);
    nodes.links().setCount(at, 1);
    final List<String> problems = hierarchy.verify();
    assertEquals(
        true, problems.contains(Entity.toString(root) + " is its own ancestor"), "" + problems);
  }
}
