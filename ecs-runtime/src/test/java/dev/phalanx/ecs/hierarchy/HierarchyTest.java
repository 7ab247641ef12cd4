package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in hierarchy: a model test against a plain parent map, cycles, traversals, destruction.
 */
class HierarchyTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);

  @Test
  void oneHierarchyPerRegistry() {
    assertTrue(hierarchy == Hierarchy.of(registry));
    assertFalse(hierarchy == Hierarchy.of(new Registry()));
  }

  @Test
  void attachDetachAndQueries() {
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    hierarchy.attach(c, b);
    assertEquals(root, hierarchy.parent(a));
    assertEquals(b, hierarchy.firstChild(root), "the most recently attached child comes first");
    assertEquals(a, hierarchy.nextSibling(b));
    assertEquals(b, hierarchy.previousSibling(a));
    assertEquals(2, hierarchy.childCount(root));
    assertEquals(2, hierarchy.depth(c));
    assertTrue(hierarchy.isAncestor(root, c));
    hierarchy.detach(b);
    assertEquals(Entity.NULL, hierarchy.parent(b));
    assertEquals(1, hierarchy.depth(c), "the subtree moved with b");
    assertEquals(1, hierarchy.childCount(root));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void cyclesAndBadInputAreRefusedUnchanged() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    hierarchy.attach(b, a);
    hierarchy.attach(c, b);
    final IllegalArgumentException cycle =
        assertThrows(IllegalArgumentException.class, () -> hierarchy.reparent(a, c));
    assertTrue(cycle.getMessage().contains("cycle"), cycle.getMessage());
    assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(a, a));
    final IllegalStateException twice =
        assertThrows(IllegalStateException.class, () -> hierarchy.attach(c, a));
    assertTrue(twice.getMessage().contains("reparent"), twice.getMessage());
    final long dead = registry.create();
    registry.destroy(dead);
    assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(dead, a));
    assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(a, dead));
    assertEquals(Entity.NULL, hierarchy.parent(a));
    assertEquals(b, hierarchy.parent(c));
    assertEquals(List.of(), hierarchy.verify());
    final long loose = registry.create();
    assertThrows(
        IllegalStateException.class,
        () ->
            registry.emplace(
                loose,
                Hierarchy.TYPE,
                new Hierarchy.Node(Entity.NULL, c, Entity.NULL, Entity.NULL, 1, 0)),
        "nodes are written by the hierarchy only");
    assertFalse(registry.has(loose, Hierarchy.TYPE));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void traversalsVisitParentsFirstWithoutAllocatingAndFailFastOnChanges() {
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final long a1 = registry.create();
    final long a2 = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    hierarchy.attach(a1, a);
    hierarchy.attach(a2, a);
    final List<Long> depthFirst = new ArrayList<>();
    hierarchy.depthFirst(root, depthFirst::add);
    assertEquals(List.of(root, b, a, a2, a1), depthFirst);
    final List<Long> breadthFirst = new ArrayList<>();
    hierarchy.breadthFirst(root, breadthFirst::add);
    assertEquals(List.of(root, b, a, a2, a1), breadthFirst);
    final List<Long> subtree = new ArrayList<>();
    hierarchy.depthFirst(a, subtree::add);
    assertEquals(List.of(a, a2, a1), subtree, "a traversal stays inside the subtree");
    final List<Long> children = new ArrayList<>();
    hierarchy.eachChild(a, children::add);
    assertEquals(List.of(a2, a1), children);
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            hierarchy.depthFirst(
                root,
                e -> {
                  if (e == a) {
                    hierarchy.detach(a1);
                  }
                }));
    assertEquals(List.of(), hierarchy.verify(), "the change itself is complete");
  }

  @Test
  void traversalsAllocateNothingOnceWarm() {
    final long root = registry.create();
    long parent = root;
    for (int i = 0; i < 300; i++) {
      final long child = registry.create();
      hierarchy.attach(child, 0 == i % 3 ? root : parent);
      parent = child;
    }
    final long[] sum = {0};
    final java.util.function.LongConsumer add = e -> sum[0] += e;
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long allocated = -1;
    for (int round = 0; round < 200; round++) {
      final long start = threads.getThreadAllocatedBytes(id);
      hierarchy.depthFirst(root, add);
      hierarchy.breadthFirst(root, add);
      hierarchy.eachParentFirst(add);
      hierarchy.eachChild(root, add);
      allocated = threads.getThreadAllocatedBytes(id) - start;
    }
    assertEquals(0, allocated);
    assertTrue(sum[0] != 0);
  }

  @Test
  void destroyingANodeMakesItsChildrenRootsAndDestroyTreeTakesTheSubtree() {
    final long root = registry.create();
    final long mid = registry.create();
    final long leaf = registry.create();
    final long other = registry.create();
    hierarchy.attach(mid, root);
    hierarchy.attach(leaf, mid);
    hierarchy.attach(other, root);
    registry.destroy(mid);
    assertEquals(Entity.NULL, hierarchy.parent(leaf));
    assertEquals(0, hierarchy.depth(leaf));
    assertEquals(1, hierarchy.childCount(root));
    assertEquals(List.of(), hierarchy.verify());
    hierarchy.attach(leaf, other);
    hierarchy.destroyTree(root);
    assertFalse(registry.valid(root));
    assertFalse(registry.valid(other));
    assertFalse(registry.valid(leaf));
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void registryClearLeavesNoLink() {
    final long root = registry.create();
    for (int i = 0; i < 10; i++) {
      hierarchy.attach(registry.create(), root);
    }
    registry.clear();
    assertEquals(0, hierarchy.nodes().size());
    assertEquals(List.of(), registry.verify());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void randomProgramsMatchAParentMap(final long seed) {
    final Random random = new Random(seed);
    final Map<Long, Long> parents = new HashMap<>();
    final List<Long> live = new ArrayList<>();
    for (int step = 0; step < 20_000; step++) {
      final int op = random.nextInt(10);
      if (live.size() < 5 || op == 0) {
        final long e = registry.create();
        live.add(e);
        parents.put(e, Entity.NULL);
        continue;
      }
      final long child = live.get(random.nextInt(live.size()));
      final long parent = live.get(random.nextInt(live.size()));
      switch (op) {
        case 1, 2, 3 -> {
          final boolean cycle = child == parent || isAncestor(parents, child, parent);
          final boolean hasParent = !Entity.isNull(parents.get(child));
          if (cycle) {
            assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(child, parent));
          } else if (hasParent) {
            assertThrows(IllegalStateException.class, () -> hierarchy.attach(child, parent));
          } else {
            hierarchy.attach(child, parent);
            parents.put(child, parent);
          }
        }
        case 4, 5 -> {
          if (child == parent || isAncestor(parents, child, parent)) {
            assertThrows(IllegalArgumentException.class, () -> hierarchy.reparent(child, parent));
          } else {
            hierarchy.reparent(child, parent);
            parents.put(child, parent);
          }
        }
        case 6 -> {
          hierarchy.detach(child);
          parents.put(child, Entity.NULL);
        }
        case 7, 8 -> {
          registry.destroy(child);
          live.remove(child);
          parents.remove(child);
          parents.replaceAll((e, p) -> p == child ? Entity.NULL : p);
        }
        default -> {
          final Set<Long> subtree = new HashSet<>();
          collect(parents, child, subtree);
          hierarchy.destroyTree(child);
          live.removeAll(subtree);
          parents.keySet().removeAll(subtree);
        }
      }
      if (0 == step % 500) {
        check(parents);
      }
    }
    check(parents);
  }

  private void check(final Map<Long, Long> parents) {
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(List.of(), registry.verify());
    assertEquals(List.of(), registry.danglingReferences());
    for (final Map.Entry<Long, Long> entry : parents.entrySet()) {
      final long entity = entry.getKey();
      assertEquals(entry.getValue(), hierarchy.parent(entity), Entity.toString(entity));
      int depth = 0;
      for (long p = entry.getValue(); !Entity.isNull(p); p = parents.get(p)) {
        depth++;
      }
      assertEquals(depth, hierarchy.depth(entity));
      final Set<Long> expected = new HashSet<>();
      collect(parents, entity, expected);
      final Set<Long> visited = new HashSet<>();
      hierarchy.depthFirst(
          entity,
          e -> {
            assertTrue(e == entity || visited.contains(hierarchy.parent(e)), "parents come first");
            assertTrue(visited.add(e), "visited once");
          });
      assertEquals(expected, visited);
    }
  }

  private static boolean isAncestor(
      final Map<Long, Long> parents, final long ancestor, final long entity) {
    for (long p = parents.get(entity); !Entity.isNull(p); p = parents.get(p)) {
      if (p == ancestor) {
        return true;
      }
    }
    return false;
  }

  private static void collect(
      final Map<Long, Long> parents, final long root, final Set<Long> into) {
    into.add(root);
    for (final Map.Entry<Long, Long> entry : parents.entrySet()) {
      if (entry.getValue() == root) {
        collect(parents, entry.getKey(), into);
      }
    }
  }

  @Test
  void everyOperationNamesTheInvalidEntityItRefuses() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long live = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    final String invalid = ": the entity is not valid (destroyed or never created)";
    assertEquals(
        "cannot attach " + Entity.toString(dead) + invalid,
        assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(dead, live))
            .getMessage());
    assertEquals(
        "cannot attach to " + Entity.toString(dead) + invalid,
        assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(live, dead))
            .getMessage());
    assertEquals(
        "cannot detach " + Entity.toString(dead) + invalid,
        assertThrows(IllegalArgumentException.class, () -> hierarchy.detach(dead)).getMessage());
    assertEquals(
        "cannot destroy the subtree of " + Entity.toString(dead) + invalid,
        assertThrows(IllegalArgumentException.class, () -> hierarchy.destroyTree(dead))
            .getMessage());
    assertEquals(List.of(), hierarchy.verify());
    assertEquals(0, hierarchy.nodes().size());
  }

  @Test
  void eachParentFirstVisitsEveryNodeOnceParentsFirstPastHoles() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long[] e = new long[8];
    for (int i = 0; i < e.length; i++) {
      e[i] = registry.create();
    }
    hierarchy.attach(e[1], e[0]);
    hierarchy.attach(e[2], e[0]);
    hierarchy.attach(e[3], e[1]);
    hierarchy.attach(e[5], e[4]);
    hierarchy.attach(e[7], e[6]);
    registry.destroy(e[6]); // a node destroyed: e[7] becomes a root
    hierarchy.attach(e[0], e[4]); // e[0]'s tree moves under e[4]
    final List<Long> order = new ArrayList<>();
    hierarchy.eachParentFirst(order::add);
    assertEquals(Set.of(e[0], e[1], e[2], e[3], e[4], e[5], e[7]), new HashSet<>(order));
    assertEquals(7, order.size());
    for (final long entity : order) {
      final long parent = hierarchy.parent(entity);
      if (!Entity.isNull(parent)) {
        assertTrue(order.indexOf(parent) < order.indexOf(entity), order.toString());
      }
    }
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void everyTraversalFailsFastOnAChange() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final long child = registry.create();
    final long other = registry.create();
    hierarchy.attach(child, root);
    assertThrows(
        ConcurrentModificationException.class,
        () -> hierarchy.eachChild(root, entity -> hierarchy.attach(other, root)));
    hierarchy.detach(other);
    assertThrows(
        ConcurrentModificationException.class,
        () -> hierarchy.breadthFirst(root, entity -> hierarchy.attach(other, child)));
    hierarchy.detach(other);
    assertThrows(
        ConcurrentModificationException.class,
        () -> hierarchy.eachParentFirst(entity -> hierarchy.detach(child)));
    assertEquals(List.of(), hierarchy.verify());
  }
}
