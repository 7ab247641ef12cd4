package dev.phalanx.ecs.hierarchy;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy.Node;
import dev.phalanx.ecs.hierarchy.Hierarchy.NodeStorage;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hierarchy's nodes: unlinking when a node goes, change detection of traversals, what verify
 * reports, and what the node storage shows to readers (nodes, entity references, columns).
 */
class HierarchyNodeRulesTest {

  private final Registry registry = new Registry();
  private final Hierarchy hierarchy = Hierarchy.of(registry);
  private final NodeStorage nodes = hierarchy.nodes();

  @Test
  void reparentingToNullMakesARootKeepingTheSubtree() {
    // Rule: reparent(child, NULL) detaches the child; its subtree moves with it.
    final long root = registry.create();
    final long child = registry.create();
    final long grandchild = registry.create();
    hierarchy.attach(child, root);
    hierarchy.attach(grandchild, child);
    hierarchy.reparent(child, Entity.NULL);
    assertEquals(Entity.NULL, hierarchy.parent(child));
    assertEquals(0, hierarchy.childCount(root));
    assertEquals(0, hierarchy.depth(child));
    assertEquals(1, hierarchy.depth(grandchild));
    assertEquals(child, hierarchy.parent(grandchild));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aTraversalDetectsADetachFollowedByAnAttach() {
    // Rule: any change during a traversal is detected, also two changes that undo each other's
    // count (a detach then an attach of existing nodes).
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    hierarchy.detach(b);
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            hierarchy.eachChild(
                root,
                child -> {
                  hierarchy.detach(a);
                  hierarchy.attach(b, root);
                }));
    assertEquals(b, hierarchy.firstChild(root));
    assertEquals(1, hierarchy.childCount(root));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void aTraversalDetectsADestroyedNodeFollowedByAnAttach() {
    // Rule: destroying an entity that has a node is a change too, whatever follows it.
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final long doomed = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    hierarchy.attach(doomed, b);
    hierarchy.detach(b);
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            hierarchy.eachChild(
                root,
                child -> {
                  registry.destroy(doomed);
                  hierarchy.reparent(b, root);
                }));
    assertFalse(registry.valid(doomed));
    assertEquals(2, hierarchy.childCount(root));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void otherListenersSeeADestroyedNodeAlreadyUnlinked() {
    // Rule: a node is unlinked before any other destroy listener runs: they see a root without
    // children, and its former children as roots.
    final long root = registry.create();
    final long middle = registry.create();
    final long leaf = registry.create();
    final long leaf2 = registry.create();
    hierarchy.attach(middle, root);
    hierarchy.attach(leaf, middle);
    hierarchy.attach(leaf2, middle);
    final List<Node> seen = new ArrayList<>();
    final List<Integer> childDepths = new ArrayList<>();
    nodes
        .onDestroy()
        .connect(
            (r, e) -> {
              seen.add(nodes.get(e));
              childDepths.add(hierarchy.depth(leaf));
              childDepths.add(hierarchy.depth(leaf2));
            });
    registry.destroy(middle);
    assertEquals(List.of(new Node(Entity.NULL, Entity.NULL, Entity.NULL, Entity.NULL, 0, 0)), seen);
    assertEquals(List.of(0, 0), childDepths);
    assertEquals(Entity.NULL, hierarchy.parent(leaf));
    assertEquals(0, hierarchy.childCount(root));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void nodesReadAsSnapshotsOfTheirLinks() {
    // Rule: the node storage's get returns the entity's links, count and depth.
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    assertEquals(new Node(Entity.NULL, b, Entity.NULL, Entity.NULL, 2, 0), nodes.get(root));
    assertEquals(new Node(root, Entity.NULL, Entity.NULL, a, 0, 1), nodes.get(b));
    assertEquals(
        new Node(root, Entity.NULL, b, Entity.NULL, 0, 1), registry.get(a, Hierarchy.TYPE));
  }

  @Test
  void destroyTreeTakesALargeSubtree() {
    // Rule: destroyTree destroys the whole subtree, however large, and nothing else.
    final long keep = registry.create();
    final long root = registry.create();
    hierarchy.attach(root, keep);
    long parent = root;
    final List<Long> subtree = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      final long e = registry.create();
      hierarchy.attach(e, i % 3 == 0 ? root : parent);
      subtree.add(e);
      parent = e;
    }
    hierarchy.destroyTree(root);
    assertFalse(registry.valid(root));
    for (final long e : subtree) {
      assertFalse(registry.valid(e));
    }
    assertTrue(registry.valid(keep));
    assertEquals(1, registry.alive());
    assertEquals(0, hierarchy.childCount(keep));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void eachParentFirstAfterCompactionVisitsEveryNodeOnce() {
    // Rule: after the node storage is compacted (holes filled by moving nodes), each node is
    // visited once.
    final long p0 = registry.create();
    final long c0 = registry.create();
    final long p1 = registry.create();
    final long c1 = registry.create();
    hierarchy.attach(c0, p0);
    hierarchy.attach(c1, p1);
    hierarchy.detach(c1); // c1 keeps its node, as a root, at the last position
    registry.destroy(c0);
    nodes.compact();
    final List<Long> visited = new ArrayList<>();
    hierarchy.eachParentFirst(visited::add);
    visited.sort(null);
    final List<Long> expected = new ArrayList<>(List.of(p0, p1, c1));
    expected.sort(null);
    assertEquals(expected, visited);
  }

  @Test
  void eachParentFirstVisitsNothingOnceEveryNodeIsGone() {
    // Rule: after the node storage is cleared, or its last node destroyed, no entity is visited.
    final long root = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, root);
    nodes.clear();
    final List<Long> visited = new ArrayList<>();
    hierarchy.eachParentFirst(visited::add);
    assertEquals(List.of(), visited);
    final long lone = registry.create();
    final long other = registry.create();
    hierarchy.attach(lone, other);
    registry.destroy(lone);
    registry.destroy(other);
    hierarchy.eachParentFirst(visited::add);
    assertEquals(List.of(), visited);
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void relinkingIsRefusedWhileTheNodeStorageIsLocked() {
    // Rule: while the node storage is locked (here as a get type of a chunk iteration), moving
    // an entity between nodes is refused, naming the storage, and changes nothing.
    final long p1 = registry.create();
    final long p2 = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, p1);
    hierarchy.attach(p1, p2);
    hierarchy.detach(p1);
    registry.emplace(child, TA, new A(0));
    final OwningGroup group = registry.owningGroup(types(TA), types(Hierarchy.TYPE), NONE);
    final List<String> messages = new ArrayList<>();
    group.eachChunk(
        (from, to) ->
            messages.add(
                assertThrows(
                        ConcurrentModificationException.class, () -> hierarchy.reparent(child, p2))
                    .getMessage()));
    assertEquals(1, messages.size());
    assertTrue(messages.get(0).contains("storage of the hierarchy's nodes"), messages.get(0));
    assertEquals(p1, hierarchy.parent(child));
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void verifyReportsBrokenCountsAndListsAndRegistryVerifyToo() {
    // Rule: verify reports, in words, a node whose child count disagrees with its list, or whose
    // parent does not list it (here written behind the hierarchy's back); the registry's verify
    // reports the same, through the check the hierarchy registered.
    final long root = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, root);
    assertEquals(List.of(), hierarchy.verify());
    final int rootPosition = nodes.indexOf(root);
    nodes.links().setCount(rootPosition, 3);
    final String r = Entity.toString(root);
    final String c = Entity.toString(child);
    assertEquals(List.of(r + " counts 3 children but lists 1"), hierarchy.verify());
    assertEquals(List.of(r + " counts 3 children but lists 1"), registry.verify());
    nodes.links().setCount(rootPosition, 0);
    nodes.links().setFirst(rootPosition, Entity.NULL);
    assertEquals(
        List.of(c + " names " + r + " as parent but is not among its children"),
        hierarchy.verify());
    assertEquals(hierarchy.verify(), registry.verify());
  }

  private static List<String> sorted(final List<String> problems) {
    final List<String> copy = new ArrayList<>(problems);
    copy.sort(null);
    return copy;
  }

  @Test
  void entityReferencesAreTheFourLinksOfEveryLiveNode() {
    // Rule: the node storage hands every live node's parent, first child and sibling links to an
    // entity-reference visitor (what dangling-reference checks and loaders remap); holes are
    // skipped.
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final long gone = registry.create();
    hierarchy.attach(a, root);
    hierarchy.attach(b, root);
    hierarchy.attach(gone, b);
    registry.destroy(gone); // leaves a hole in the in-place node storage
    final List<String> refs = new ArrayList<>();
    nodes.eachEntityRef(
        (owner, field, reference) ->
            refs.add(Entity.toString(owner) + "." + field + "=" + Entity.toString(reference)));
    final String n = Entity.toString(Entity.NULL);
    final String sr = Entity.toString(root);
    final String sa = Entity.toString(a);
    final String sb = Entity.toString(b);
    assertEquals(
        sorted(
            List.of(
                sr + ".parent=" + n,
                sr + ".firstChild=" + sb,
                sr + ".previousSibling=" + n,
                sr + ".nextSibling=" + n,
                sa + ".parent=" + sr,
                sa + ".firstChild=" + n,
                sa + ".previousSibling=" + sb,
                sa + ".nextSibling=" + n,
                sb + ".parent=" + sr,
                sb + ".firstChild=" + n,
                sb + ".previousSibling=" + n,
                sb + ".nextSibling=" + sa)),
        sorted(refs));
    assertEquals(List.of(), registry.danglingReferences());
  }

  @Test
  void theNodeStorageShowsItsFiveColumnsLinksAsEntityReferences() {
    // Rule: snapshot writers see the four links (flagged as entity references) and the child
    // count, with their values by position; the depth is computed, not stored.
    final long root = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, root);
    final List<String> columns = columnsAt(nodes.indexOf(child));
    final String n = Entity.toString(Entity.NULL);
    assertEquals(
        List.of(
            "parent ref=" + Entity.toString(root),
            "firstChild ref=" + n,
            "previousSibling ref=" + n,
            "nextSibling ref=" + n,
            "childCount=0"),
        columns);
  }

  /**
   * A destroyed node leaves a hole (in-place deletion) whose columns, which snapshot writers save,
   * hold no link: no stale handle of the node's parent, siblings or children lingers there.
   */
  @Test
  void aDestroyedNodesHoleKeepsNoLinks() {
    final long root = registry.create();
    final long first = registry.create();
    final long middle = registry.create();
    final long last = registry.create();
    final long grandchild = registry.create();
    hierarchy.attach(last, root);
    hierarchy.attach(middle, root);
    hierarchy.attach(first, root);
    hierarchy.attach(grandchild, middle);
    final int hole = nodes.indexOf(middle);
    registry.destroy(middle);
    assertTrue(Entity.isTombstone(nodes.packed()[hole]), "in-place deletion leaves a hole");
    final String n = Entity.toString(Entity.NULL);
    assertEquals(
        List.of(
            "parent ref=" + n,
            "firstChild ref=" + n,
            "previousSibling ref=" + n,
            "nextSibling ref=" + n,
            "childCount=0"),
        columnsAt(hole));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * The nodes one change creates enter a group over the node storage each under its own entity: a
   * group listener is told of every new node once, with that node's entity, then its construct.
   */
  @Test
  void eachNewNodeEntersAGroupUnderItsOwnEntity() {
    final List<String> events = new ArrayList<>();
    registry
        .nonOwningGroup(types(Hierarchy.TYPE), NONE)
        .onEnter()
        .connect((r, e) -> events.add("enter " + Entity.toString(e)));
    nodes.onConstruct().connect((r, e) -> events.add("construct " + Entity.toString(e)));
    final long parent = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, parent);
    final String p = Entity.toString(parent);
    final String c = Entity.toString(child);
    assertEquals(List.of("enter " + p, "construct " + p, "enter " + c, "construct " + c), events);
    events.clear();
    final long other = registry.create();
    final long first = registry.create();
    final long second = registry.create();
    hierarchy.replaceChildren(other, new long[] {first, second});
    final String o = Entity.toString(other);
    final String f = Entity.toString(first);
    final String s = Entity.toString(second);
    assertEquals(
        List.of(
            "enter " + s,
            "construct " + s,
            "enter " + f,
            "construct " + f,
            "enter " + o,
            "construct " + o),
        events);
    assertEquals(List.of(), registry.verify());
  }

  /** {@return what a snapshot writer sees of the node columns at {@code position}} */
  private List<String> columnsAt(final int position) {
    final int page = position >>> nodes.pageShift();
    final int offset = position & (nodes.pageSize() - 1);
    final List<String> columns = new ArrayList<>();
    nodes.eachColumn(
        new ColumnVisitor() {
          @Override
          public void booleans(final String name, final boolean[][] pages) {
            columns.add(name);
          }

          @Override
          public void bytes(final String name, final byte[][] pages) {
            columns.add(name);
          }

          @Override
          public void shorts(final String name, final short[][] pages) {
            columns.add(name);
          }

          @Override
          public void chars(final String name, final char[][] pages) {
            columns.add(name);
          }

          @Override
          public void ints(final String name, final int[][] pages) {
            columns.add(name + "=" + pages[page][offset]);
          }

          @Override
          public void longs(final String name, final long[][] pages, final boolean entityRef) {
            columns.add(name + (entityRef ? " ref=" : "=") + Entity.toString(pages[page][offset]));
          }

          @Override
          public void floats(final String name, final float[][] pages) {
            columns.add(name);
          }

          @Override
          public void doubles(final String name, final double[][] pages) {
            columns.add(name);
          }

          @Override
          public void objects(final String name, final Class<?> type, final Object[][] pages) {
            columns.add(name);
          }
        });
    return columns;
  }
}
