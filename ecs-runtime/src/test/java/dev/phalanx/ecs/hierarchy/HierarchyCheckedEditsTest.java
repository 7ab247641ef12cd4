package dev.phalanx.ecs.hierarchy;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Edits and queries at their edges: refused calls are refused with a clear exception and change
 * nothing; listeners' failures reach the caller; a traversal notices every change.
 */
class HierarchyCheckedEditsTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);

  @Test
  void childAtWalksTheChildrenFirstToLast() {
    final long parent = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    hierarchy.replaceChildren(parent, new long[] {a, b, c});
    assertEquals(a, hierarchy.childAt(parent, 0));
    assertEquals(b, hierarchy.childAt(parent, 1));
    assertEquals(c, hierarchy.childAt(parent, 2));
    assertEquals(Entity.NULL, hierarchy.childAt(parent, 3));
    assertEquals(Entity.NULL, hierarchy.childAt(parent, -1));
    assertEquals(Entity.NULL, hierarchy.childAt(a, 0), "a leaf has no child");
  }

  @Test
  void destroyingTheDescendantsOfAnInvalidEntityIsRefused() {
    final long dead = registry.create();
    registry.destroy(dead);
    final long kept = registry.create();
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> hierarchy.destroyDescendants(dead));
    assertTrue(refused.getMessage().contains("destroy the descendants of"), refused.getMessage());
    assertTrue(registry.valid(kept));
  }

  @Test
  void replacingTheChildrenOfAnInvalidParentIsRefused() {
    final long dead = registry.create();
    registry.destroy(dead);
    final IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class, () -> hierarchy.replaceChildren(dead, new long[0]));
    assertTrue(refused.getMessage().contains("replace the children of"), refused.getMessage());
    assertFalse(hierarchy.nodes().contains(dead));
  }

  @Test
  void reparentingUnderTheSameParentPlacesAmongTheOtherChildren() {
    final long parent = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    hierarchy.replaceChildren(parent, new long[] {a, b});
    // a's siblings without a: just b, so index 2 is past the end.
    assertThrows(IndexOutOfBoundsException.class, () -> hierarchy.reparent(a, parent, 2));
    assertEquals(a, hierarchy.childAt(parent, 0), "a refused reparent changes nothing");
    hierarchy.reparent(a, parent, 1);
    assertEquals(b, hierarchy.childAt(parent, 0));
    assertEquals(a, hierarchy.childAt(parent, 1));
    assertEquals(2, hierarchy.childCount(parent));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aTraversalDetectsADestroyedNodeAlone() {
    final long root = registry.create();
    final long a = registry.create();
    final long doomed = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(doomed, a);
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            hierarchy.eachParentFirst(
                entity -> {
                  if (entity == root) {
                    registry.destroy(doomed);
                  }
                }));
    assertFalse(registry.valid(doomed));
    assertEquals(0, hierarchy.childCount(a));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aNodeListenerFailureReachesTheCallerOfReplaceChildren() {
    final long parent = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final List<Long> constructed = new ArrayList<>();
    final ComponentListener failing =
        (r, e) -> {
          constructed.add(e);
          throw new IllegalStateException("listener failed on " + Entity.toString(e));
        };
    hierarchy.nodes().onConstruct().connect(failing);
    final IllegalStateException thrown =
        assertThrows(
            IllegalStateException.class,
            () -> hierarchy.replaceChildren(parent, new long[] {a, b}));
    assertTrue(thrown.getMessage().startsWith("listener failed"), thrown.getMessage());
    assertEquals(3, constructed.size(), "every new node is announced");
    assertEquals(a, hierarchy.childAt(parent, 0), "the change is made whole");
    assertEquals(b, hierarchy.childAt(parent, 1));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aNodeIsRefusedForAnEntityBeingDestroyedBeforeAnyOtherNodeIsMade() {
    final long parent = registry.create();
    final long other = registry.create();
    final long loose = registry.create();
    final long doomed = registry.create();
    hierarchy.attach(other, parent);
    final List<Class<?>> refusals = new ArrayList<>();
    registry
        .onDestroy()
        .connect(
            (r, e) -> {
              if (e != doomed) {
                return;
              }
              refusals.add(refusal(() -> hierarchy.attach(doomed, parent)));
              refusals.add(refusal(() -> hierarchy.reparent(other, doomed)));
              // The entity without a node would get one first: it is refused before that.
              refusals.add(refusal(() -> hierarchy.attach(loose, doomed)));
              refusals.add(refusal(() -> hierarchy.replaceChildren(loose, new long[] {doomed})));
              refusals.add(refusal(() -> hierarchy.replaceChildren(doomed, new long[] {loose})));
            });
    registry.destroy(doomed);
    assertEquals(Collections.nCopies(5, IllegalStateException.class), refusals);
    assertFalse(hierarchy.nodes().contains(doomed));
    assertFalse(hierarchy.nodes().contains(loose), "a refused call makes no node");
    assertEquals(parent, hierarchy.parent(other), "a refused call changes nothing");
    assertEquals(1, hierarchy.childCount(parent));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aNodeIsRefusedWhileTheRegistryIsCleared() {
    final long a = registry.create();
    final long b = registry.create();
    final List<Class<?>> refusals = new ArrayList<>();
    registry.onDestroy().connect((r, e) -> refusals.add(refusal(() -> hierarchy.attach(a, b))));
    registry.clear();
    assertEquals(List.of(IllegalStateException.class, IllegalStateException.class), refusals);
    assertEquals(0, hierarchy.nodes().size());
  }

  @Test
  void aNodeRefusedUnderAnIterationLinksNothingAndAnnouncesTheNodesMadeSoFar() {
    // Rule: a node whose group upkeep an iteration refuses (the visited entity entering a group
    // that owns the iterated storage) is refused after the checks; the nodes made before it stay,
    // without links, announced, and the refusal reaches the caller.
    final List<Long> tagged = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      tagged.add(e);
    }
    final long loose = registry.create();
    final long parent = registry.create();
    final long child = registry.create();
    final OwningGroup group = registry.owningGroup(types(TA), types(Hierarchy.TYPE), NONE);
    final List<Long> announced = new ArrayList<>();
    hierarchy.nodes().onConstruct().connect((r, e) -> announced.add(e));
    final List<String> refusals = new ArrayList<>();
    final long visited = tagged.get(3);
    registry
        .view(TA)
        .each(
            e -> {
              if (e == visited) {
                refusals.add(refusalMessage(() -> hierarchy.attach(loose, visited)));
                refusals.add(
                    refusalMessage(
                        () -> hierarchy.replaceChildren(parent, new long[] {child, visited})));
              }
            });
    assertEquals(2, refusals.size());
    for (final String refused : refusals) {
      assertTrue(refused.startsWith("ConcurrentModificationException"), refused);
    }
    assertEquals(List.of(loose, child, parent), announced, "last made first");
    assertFalse(hierarchy.nodes().contains(visited));
    assertEquals(Entity.NULL, hierarchy.parent(loose), "nothing is linked");
    assertEquals(Entity.NULL, hierarchy.parent(child));
    assertEquals(0, hierarchy.childCount(parent));
    assertEquals(0, group.size());
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aListenerFailureOnTheNodesMadeBeforeARefusalIsKeptWithTheRefusal() {
    final long first = registry.create();
    registry.emplace(first, TA, new A(0));
    // Visited first, at position 1: entering the group would move it to position 0, still to come.
    final long visited = registry.create();
    registry.emplace(visited, TA, new A(1));
    final long loose = registry.create();
    final long parent = registry.create();
    registry.owningGroup(types(TA), types(Hierarchy.TYPE), NONE);
    hierarchy
        .nodes()
        .onConstruct()
        .connect(
            (r, e) -> {
              throw new IllegalStateException("listener failed on " + Entity.toString(e));
            });
    final List<Throwable> refusals = new ArrayList<>();
    registry
        .view(TA)
        .each(
            e -> {
              if (e != visited) {
                return;
              }
              refusals.add(
                  assertThrows(
                      ConcurrentModificationException.class,
                      () -> hierarchy.attach(loose, visited)));
              refusals.add(
                  assertThrows(
                      ConcurrentModificationException.class,
                      () -> hierarchy.replaceChildren(parent, new long[] {visited})));
            });
    assertEquals(2, refusals.size());
    for (final Throwable refused : refusals) {
      assertEquals(1, refused.getSuppressed().length, refused.toString());
      assertTrue(
          refused.getSuppressed()[0].getMessage().startsWith("listener failed"),
          refused.getSuppressed()[0].toString());
    }
    assertTrue(hierarchy.nodes().contains(loose));
    assertTrue(hierarchy.nodes().contains(parent));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aTraversalDetectsTheNodesARefusedEditLeaves() {
    final long first = registry.create();
    registry.emplace(first, TA, new A(0));
    final long visited = registry.create();
    registry.emplace(visited, TA, new A(1));
    final long root = registry.create();
    final long leaf = registry.create();
    hierarchy.attach(leaf, root);
    final long loose = registry.create();
    final long parent = registry.create();
    final long spares = registry.create();
    final long[] spare = {registry.create(), registry.create()};
    hierarchy.replaceChildren(spares, spare);
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
              for (int i = 0; i < refusedEdits.size(); i++) {
                final Runnable edit = refusedEdits.get(i);
                final long detached = spare[i];
                // The refused edit is a change as the detach after it is: neither hides the other.
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
                                        hierarchy.detach(detached);
                                      }
                                    }))
                        .getMessage());
              }
            });
    assertEquals(2, messages.size());
    for (final String message : messages) {
      assertTrue(message.contains("the hierarchy changed during a traversal"), message);
    }
    assertTrue(hierarchy.nodes().contains(loose));
    assertTrue(hierarchy.nodes().contains(parent));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void eachParentFirstStopsAtTheLastNodeOfAFullStorage() {
    // Rule: the traversal reads the node storage's live part only, even when it fills its array.
    final long root = registry.create();
    hierarchy.attach(registry.create(), root);
    final List<Long> expected = new ArrayList<>(List.of(root, hierarchy.firstChild(root)));
    while (hierarchy.nodes().size() < hierarchy.nodes().packed().length) {
      final long child = registry.create();
      hierarchy.attach(child, root);
      expected.add(child);
    }
    final List<Long> visited = new ArrayList<>();
    hierarchy.eachParentFirst(visited::add);
    assertEquals(root, visited.get(0), "the parent comes first");
    visited.sort(null);
    expected.sort(null);
    assertEquals(expected, visited);
  }

  private static String refusalMessage(final Runnable call) {
    try {
      call.run();
      return "accepted";
    } catch (final RuntimeException refused) {
      return refused.getClass().getSimpleName() + ": " + refused.getMessage();
    }
  }

  private static Class<?> refusal(final Runnable call) {
    try {
      call.run();
      return Void.class;
    } catch (final RuntimeException refused) {
      return refused.getClass();
    }
  }
}
