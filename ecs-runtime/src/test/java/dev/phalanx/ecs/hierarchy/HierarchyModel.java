package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plain reference model of a hierarchy: a parent per live entity, nothing else. What the
 * documented rules say each operation does, written as simply as possible; {@link #check} compares
 * a real hierarchy with it (parent, children as a set, child count, depth) and asks both verifies.
 */
final class HierarchyModel {

  /** The parent of every live entity the model knows ({@link Entity#NULL} for a root). */
  final Map<Long, Long> parents = new HashMap<>();

  void create(final long entity) {
    parents.put(entity, Entity.NULL);
  }

  boolean live(final long entity) {
    return parents.containsKey(entity);
  }

  /** Whether {@code ancestor} is a strict ancestor of {@code entity}. */
  boolean isAncestor(final long ancestor, final long entity) {
    for (long p = parents.get(entity); !Entity.isNull(p); p = parents.get(p)) {
      if (p == ancestor) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code child} may be moved under {@code parent}: both live, no cycle. */
  boolean mayLink(final long child, final long parent) {
    return live(child) && live(parent) && child != parent && !isAncestor(child, parent);
  }

  void link(final long child, final long parent) {
    parents.put(child, parent);
  }

  /** Destroys one entity: its children become roots. */
  void destroy(final long entity) {
    parents.remove(entity);
    parents.replaceAll((e, p) -> p == entity ? Entity.NULL : p);
  }

  /** The subtree of {@code root}, root included. */
  Set<Long> subtree(final long root) {
    final Set<Long> into = new HashSet<>();
    into.add(root);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (final Map.Entry<Long, Long> entry : parents.entrySet()) {
        if (into.contains(entry.getValue()) && into.add(entry.getKey())) {
          grew = true;
        }
      }
    }
    return into;
  }

  void destroyTree(final long root) {
    for (final long entity : subtree(root)) {
      parents.remove(entity);
    }
  }

  /** Every node removed (a storage clear): every entity lives on, a root. */
  void clearLinks() {
    parents.replaceAll((e, p) -> Entity.NULL);
  }

  List<Long> children(final long entity) {
    final List<Long> children = new ArrayList<>();
    for (final Map.Entry<Long, Long> entry : parents.entrySet()) {
      if (entry.getValue() == entity) {
        children.add(entry.getKey());
      }
    }
    return children;
  }

  int depth(final long entity) {
    int depth = 0;
    for (long p = parents.get(entity); !Entity.isNull(p); p = parents.get(p)) {
      depth++;
    }
    return depth;
  }

  /** Compares the real hierarchy with the model and asks both verifies. */
  void check(final Registry registry, final Hierarchy hierarchy, final String where) {
    assertEquals(List.of(), registry.verify(), where);
    assertEquals(List.of(), hierarchy.verify(), where);
    assertEquals(List.of(), registry.danglingReferences(), where);
    final Map<Long, List<Long>> children = new HashMap<>();
    for (final Map.Entry<Long, Long> entry : parents.entrySet()) {
      children.computeIfAbsent(entry.getValue(), e -> new ArrayList<>()).add(entry.getKey());
    }
    for (final Map.Entry<Long, Long> entry : parents.entrySet()) {
      final long entity = entry.getKey();
      final String name = where + ": " + Entity.toString(entity);
      assertEquals(true, registry.valid(entity), name);
      assertEquals(entry.getValue(), hierarchy.parent(entity), name);
      final Set<Long> expected = new HashSet<>(children.getOrDefault(entity, List.of()));
      final Set<Long> actual = new HashSet<>();
      hierarchy.eachChild(entity, actual::add);
      assertEquals(expected, actual, name);
      assertEquals(expected.size(), hierarchy.childCount(entity), name);
    }
    for (final long entity : parents.keySet()) {
      assertEquals(depth(entity), hierarchy.depth(entity), where);
    }
  }
}
