package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy.NodeStorage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code registry.verify()} says about a hierarchy corrupted by hand (links written behind the
 * hierarchy's back): each broken invariant in words, from the check the hierarchy registered with
 * its registry, the same as {@code hierarchy.verify()}; cycles are reported without looping.
 */
class HierarchyVerifyTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);
  private final NodeStorage nodes = hierarchy.nodes();
  private final long root = registry.create();
  private final long a = registry.create();
  private final long b = registry.create();
  private final String r = Entity.toString(root);
  private final String sa = Entity.toString(a);
  private final String sb = Entity.toString(b);

  HierarchyVerifyTest() {
    hierarchy.attach(a, root);
    hierarchy.attach(b, a);
  }

  private List<String> both() {
    final List<String> fromRegistry = registry.verify();
    assertEquals(hierarchy.verify(), fromRegistry, "the registry reports the hierarchy's check");
    return fromRegistry;
  }

  @Test
  void aConsistentHierarchyVerifiesEmpty() {
    assertEquals(List.of(), both());
  }

  @Test
  void aCycleIsReportedForEveryEntityOnItWithoutLooping() {
    // root -> a -> b, then root's parent set to b: root, a and b form a cycle.
    nodes.links().setMember(nodes.indexOf(root), b, Entity.NULL, Entity.NULL);
    final List<String> problems = both();
    assertTrue(problems.contains(r + " is its own ancestor"), problems.toString());
    assertTrue(problems.contains(sa + " is its own ancestor"), problems.toString());
    assertTrue(problems.contains(sb + " is its own ancestor"), problems.toString());
    assertTrue(
        problems.contains(r + " names " + sb + " as parent but is not among its children"),
        problems.toString());
    assertEquals(4, problems.size(), problems.toString());
    // Queries that walk up refuse to loop forever.
    assertThrows(IllegalStateException.class, () -> hierarchy.depth(a));
    assertThrows(IllegalStateException.class, () -> hierarchy.isAncestor(registry.create(), a));
  }

  @Test
  void aWrongCountIsReported() {
    nodes.links().setCount(nodes.indexOf(a), 2);
    assertEquals(List.of(sa + " counts 2 children but lists 1"), both());
  }

  @Test
  void aParentWithoutANodeOrADeadParentIsReported() {
    final long stranger = registry.create();
    nodes.links().setFirst(nodes.indexOf(a), Entity.NULL);
    nodes.links().setCount(nodes.indexOf(a), 0);
    nodes.links().setMember(nodes.indexOf(b), stranger, Entity.NULL, Entity.NULL);
    assertEquals(
        List.of(sb + " names " + Entity.toString(stranger) + " as parent, which has no node"),
        both());
    registry.destroy(stranger);
    assertEquals(
        List.of(sb + " names " + Entity.toString(stranger) + " as parent, which has no node"),
        both());
  }

  /**
   * A parent link to an entity without a node (a corrupted hierarchy) ends the walk up: the depth
   * counts that parent as one level, the levels below it as usual.
   */
  @Test
  void aDanglingParentEndsTheWalkUpOneLevelAbove() {
    final long stranger = registry.create();
    nodes.links().setMember(nodes.indexOf(a), stranger, Entity.NULL, Entity.NULL);
    assertEquals(1, hierarchy.depth(a));
    assertEquals(2, hierarchy.depth(b));
    assertEquals(0, hierarchy.depth(root));
    assertEquals(2, nodes.get(b).depth());
  }

  @Test
  void aBrokenSiblingLinkIsReported() {
    final long c = registry.create();
    hierarchy.attach(c, root); // root's children: c, a
    assertEquals(List.of(), both());
    nodes.links().setPrevious(nodes.indexOf(a), Entity.NULL);
    final List<String> problems = both();
    assertEquals(
        List.of(
            r + ": child list broken at " + sa,
            sa + " names " + r + " as parent but is not among its children"),
        problems);
  }

  @Test
  void aRootWithSiblingLinksIsReported() {
    final long c = registry.create();
    hierarchy.attach(c, registry.create());
    hierarchy.detach(c);
    nodes.links().setNext(nodes.indexOf(c), a);
    assertEquals(List.of(Entity.toString(c) + " is a root but has sibling links"), both());
  }

  @Test
  void aCheckThatThrowsIsReportedNotThrown() {
    final Registry other = new Registry();
    final List<String> seen = new ArrayList<>();
    other.addCheck("recorder", seen::addAll);
    other.addCheck(
        "thrower",
        problems -> {
          throw new IllegalStateException("broken beyond words");
        });
    final List<String> problems = other.verify();
    assertEquals(1, problems.size(), problems.toString());
    assertEquals(
        "the thrower check failed: java.lang.IllegalStateException: broken beyond words",
        problems.get(0));
    assertEquals(List.of(), seen);
  }
}
