package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
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

  private static Class<?> refusal(final Runnable call) {
    try {
      call.run();
      return Void.class;
    } catch (final RuntimeException refused) {
      return refused.getClass();
    }
  }
}
