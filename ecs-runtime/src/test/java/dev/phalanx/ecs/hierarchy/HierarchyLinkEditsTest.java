package dev.phalanx.ecs.hierarchy;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checked link changes' rules at their edges: a node listener's failure on attach and reparent
 * reaches the caller after the change is made whole; a refused edit's leftover nodes alone stop a
 * walk; emptying a parent's list is refused while the node storage is locked.
 */
class HierarchyLinkEditsTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);

  private static final ComponentListener FAILING =
      (r, e) -> {
        throw new IllegalStateException("listener failed on " + Entity.toString(e));
      };

  @Test
  void aNodeListenerFailureReachesTheCallerOfAttachAfterTheLinkIsMade() {
    final long parent = registry.create();
    final long child = registry.create();
    final List<Long> constructed = new ArrayList<>();
    hierarchy.nodes().onConstruct().connect((r, e) -> constructed.add(e));
    hierarchy.nodes().onConstruct().connect(FAILING);
    final IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> hierarchy.attach(child, parent));
    assertTrue(thrown.getMessage().startsWith("listener failed"), thrown.getMessage());
    assertEquals(List.of(parent, child), constructed, "both new nodes, the parent's first");
    assertEquals(parent, hierarchy.parent(child), "the link is made");
    assertEquals(1, hierarchy.childCount(parent));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aNodeListenerFailureReachesTheCallerOfReparentToANewParent() {
    final long oldParent = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, oldParent);
    final long newParent = registry.create();
    hierarchy.nodes().onConstruct().connect(FAILING);
    assertThrows(IllegalStateException.class, () -> hierarchy.reparent(child, newParent));
    assertEquals(newParent, hierarchy.parent(child));
    assertEquals(0, hierarchy.childCount(oldParent));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aRefusedEditsLeftoverNodesAloneStopAWalk() {
    final long first = registry.create();
    registry.emplace(first, TA, new A(0));
    // Visited first, at position 1: entering the group would move it to position 0, still to come.
    final long visited = registry.create();
    registry.emplace(visited, TA, new A(1));
    final long root = registry.create();
    hierarchy.attach(registry.create(), root);
    final long loose = registry.create();
    final long parent = registry.create();
    registry.owningGroup(types(TA), types(Hierarchy.TYPE), NONE);
    final List<Runnable> refusedEdits =
        List.of(
            () -> hierarchy.replaceChildren(parent, new long[] {visited}),
            () -> hierarchy.attach(loose, visited));
    final List<String> messages = new ArrayList<>();
    registry
        .view(TA)
        .each(
            e -> {
              if (e != visited) {
                return;
              }
              for (final Runnable edit : refusedEdits) {
                final long nodesBefore = hierarchy.nodes().size();
                messages.add(
                    assertThrows(
                            ConcurrentModificationException.class,
                            () ->
                                hierarchy.depthFirst(
                                    root,
                                    node -> {
                                      if (node == root) {
                                        assertThrows(
                                            ConcurrentModificationException.class, edit::run);
                                      }
                                    }))
                        .getMessage());
                assertEquals(nodesBefore + 1, hierarchy.nodes().size(), "one node left");
              }
            });
    assertEquals(2, messages.size());
    for (final String message : messages) {
      assertTrue(message.contains("the hierarchy changed during a traversal"), message);
    }
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void emptyingAParentsChildrenIsRefusedWhileTheNodeStorageIsLocked() {
    final long parent = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    hierarchy.replaceChildren(parent, new long[] {a, b});
    registry.emplace(a, TA, new A(0));
    final OwningGroup group = registry.owningGroup(types(TA), types(Hierarchy.TYPE), NONE);
    final List<String> messages = new ArrayList<>();
    group.eachChunk(
        (from, to) ->
            messages.add(
                assertThrows(
                        ConcurrentModificationException.class,
                        () -> hierarchy.replaceChildren(parent, new long[0]))
                    .getMessage()));
    assertEquals(1, messages.size());
    assertTrue(messages.get(0).contains("storage of the hierarchy's nodes"), messages.get(0));
    assertEquals(2, hierarchy.childCount(parent), "nothing changed");
    assertEquals(parent, hierarchy.parent(a));
    hierarchy.replaceChildren(parent, new long[0]);
    assertEquals(0, hierarchy.childCount(parent), "allowed once unlocked");
    assertEquals(Entity.NULL, hierarchy.parent(b));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void emptyingTheChildrenOfAnEntityWithoutANodeMakesNoNode() {
    final long parent = registry.create();
    hierarchy.replaceChildren(parent, new long[0]);
    assertEquals(0, hierarchy.nodes().size());
  }
}
