package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy.NodeStorage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Hierarchy#relink()} against a model: nodes whose parent links form a forest (with some
 * naming the node itself or an entity without a node) and whose list links and counts are garbage
 * get, after the rebuild, the lists {@code relink}'s contract gives: first the written list's
 * prefix of children that name the node and are listed nowhere before, then the other nodes that
 * name it, in position order.
 */
class HierarchyRelinkModelTest {

  @Test
  void relinkRebuildsTheDocumentedListsFromGarbage() {
    for (int seed = 0; seed < 200; seed++) {
      final Random random = new Random(seed);
      final Registry registry = new Registry();
      final Hierarchy hierarchy = Hierarchy.of(registry);
      final NodeStorage nodes = hierarchy.nodes();
      final long outsider = registry.create();
      final int n = 1 + random.nextInt(40);
      final long[] entities = new long[n];
      for (int i = 0; i < n; i++) {
        entities[i] = registry.create();
        hierarchy.attach(entities[i], outsider);
        hierarchy.detach(entities[i]);
      }
      // Some nodes destroyed: tombstones or moved positions, whatever the storage does.
      runRelink(random, registry, hierarchy, nodes, "seed " + seed);
    }
  }

  @Test
  void relinkReadsEveryPositionOfAFullNodeStorage() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final NodeStorage nodes = hierarchy.nodes();
    final long root = registry.create();
    hierarchy.attach(registry.create(), root);
    while (nodes.size() < nodes.packed().length) {
      hierarchy.attach(registry.create(), root);
    }
    runRelink(new Random(3), registry, hierarchy, nodes, "full");
  }

  private static void runRelink(
      final Random random,
      final Registry registry,
      final Hierarchy hierarchy,
      final NodeStorage nodes,
      final String where) {
    final int size = nodes.size();
    final long[] packed = nodes.packed();
    final long stranger = registry.create();
    // Parent links: an earlier position in a random order (a forest), the node itself, an entity
    // without a node, or none.
    final int[] order = new int[size];
    for (int i = 0; i < size; i++) {
      order[i] = i;
    }
    for (int i = size - 1; i > 0; i--) {
      final int j = random.nextInt(i + 1);
      final int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (int k = 0; k < size; k++) {
      final int at = order[k];
      final int kind = random.nextInt(8);
      final long parent;
      if (0 == kind) {
        parent = Entity.NULL;
      } else if (1 == kind) {
        parent = packed[at];
      } else if (2 == kind) {
        parent = stranger;
      } else if (0 == k) {
        parent = Entity.NULL;
      } else {
        parent = packed[order[random.nextInt(k)]];
      }
      nodes
          .links()
          .setMember(at, parent, garbage(random, packed, size), garbage(random, packed, size));
      nodes.links().setFirst(at, garbage(random, packed, size));
      nodes.links().setCount(at, random.nextInt(5));
    }
    // Sometimes, a written list that is right, so that the prefix kept is long.
    for (int at = 0; at < size; at++) {
      if (random.nextInt(3) == 0) {
        long previous = Entity.NULL;
        int previousAt = -1;
        for (int c = 0; c < size; c++) {
          if (nodes.parentAt(c) == packed[at] && random.nextInt(4) != 0) {
            if (previousAt < 0) {
              nodes.links().setFirst(at, packed[c]);
            } else {
              nodes.links().setNext(previousAt, packed[c]);
            }
            nodes.links().setPrevious(c, previous);
            previous = packed[c];
            previousAt = c;
          }
        }
      }
    }
    // The model, from the links as written.
    final long[] parents = new long[size];
    for (int at = 0; at < size; at++) {
      final long parent = nodes.parentAt(at);
      parents[at] = parent == packed[at] || !nodes.contains(parent) ? Entity.NULL : parent;
    }
    final boolean[] taken = new boolean[size];
    final List<List<Long>> expected = new ArrayList<>();
    for (int at = 0; at < size; at++) {
      final List<Long> list = new ArrayList<>();
      final Set<Long> seen = new HashSet<>();
      for (long child = nodes.firstAt(at); !Entity.isNull(child) && seen.add(child); ) {
        final int childAt = nodes.indexOf(child);
        if (childAt < 0 || taken[childAt] || parents[childAt] != packed[at]) {
          break;
        }
        taken[childAt] = true;
        list.add(child);
        child = nodes.nextAt(childAt);
      }
      expected.add(list);
    }
    for (int at = 0; at < size; at++) {
      if (!taken[at] && !Entity.isNull(parents[at])) {
        expected.get(nodes.indexOf(parents[at])).add(packed[at]);
      }
    }
    hierarchy.relink();
    assertEquals(List.of(), hierarchy.verify(), where);
    for (int at = 0; at < size; at++) {
      assertEquals(parents[at], hierarchy.parent(packed[at]), where + " parent of " + at);
      final List<Long> actual = new ArrayList<>();
      for (long c = hierarchy.firstChild(packed[at]);
          !Entity.isNull(c);
          c = hierarchy.nextSibling(c)) {
        actual.add(c);
      }
      assertEquals(expected.get(at), actual, where + " children of " + at);
      assertEquals(actual.size(), hierarchy.childCount(packed[at]), where);
    }
  }

  private static long garbage(final Random random, final long[] packed, final int size) {
    return random.nextInt(3) == 0 ? Entity.NULL : packed[random.nextInt(size)];
  }
}
