package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API a loader of its own uses to write nodes raw: {@link Hierarchy#beginRelink()},
 * {@link Hierarchy#endRelink()}, {@link Hierarchy#relink()}, with the nodes' fields written by a
 * {@link ChangeSet.RowWriter} through {@link Storage#columns}; no reflection, no package access.
 */
class HierarchyRelinkTest {

  /**
   * Writes a node with only its parent link set (the lists left for the rebuild): row {@code r}'s
   * parent is {@code parents[r]}, which may be a staged handle of the set.
   */
  static final class ParentRows implements ChangeSet.RowWriter, ColumnVisitor {
    long[] parents;
    private int row;
    private int page;
    private int offset;

    @Override
    public void write(final Storage<?> storage, final int position, final int row) {
      this.row = row;
      this.page = position >>> storage.pageShift();
      this.offset = position & (storage.pageSize() - 1);
      storage.columns(this);
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      pages[page][offset] = "parent".equals(name) ? parents[row] : Entity.NULL;
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      pages[page][offset] = 0;
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {}

    @Override
    public void bytes(final String name, final byte[][] pages) {}

    @Override
    public void shorts(final String name, final short[][] pages) {}

    @Override
    public void chars(final String name, final char[][] pages) {}

    @Override
    public void floats(final String name, final float[][] pages) {}

    @Override
    public void doubles(final String name, final double[][] pages) {}

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {}
  }

  private static List<Long> children(final Hierarchy tree, final long parent) {
    final List<Long> list = new ArrayList<>();
    for (long c = tree.firstChild(parent); !Entity.isNull(c); c = tree.nextSibling(c)) {
      list.add(c);
    }
    return list;
  }

  /**
   * A loader of its own: one change set creates a root and three children whose nodes hold only
   * their parent link; between {@code beginRelink} and {@code endRelink} the lists and counts are
   * rebuilt from those links, in position order.
   */
  @Test
  void nodesWrittenRawByAChangeSetAreRelinkedFromTheirParents() {
    final Registry registry = new Registry();
    final Hierarchy tree = Hierarchy.of(registry);
    final ChangeSet changes = new ChangeSet(registry);
    final long[] handles = new long[4];
    changes.create(handles, 0, handles.length);
    final ParentRows rows = new ParentRows();
    rows.parents = new long[] {Entity.NULL, handles[0], handles[0], handles[0]};
    for (int i = 0; i < handles.length; i++) {
      changes.emplace(handles[i], Hierarchy.TYPE, rows, i);
    }
    tree.beginRelink();
    assertTrue(tree.isRelinking());
    try {
      changes.commit();
    } finally {
      tree.endRelink();
    }
    assertFalse(tree.isRelinking());
    changes.entitiesOf(handles, 0, handles.length);
    assertEquals(List.of(handles[1], handles[2], handles[3]), children(tree, handles[0]));
    assertEquals(3, tree.childCount(handles[0]));
    assertEquals(handles[0], tree.parent(handles[2]));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * While relinking, removing a node only clears its own links: its children become roots at the
   * rebuild. A written link to an entity without a node is cut.
   */
  @Test
  void aNodeRemovedWhileRelinkingLeavesItsChildrenRootsAtTheRebuild() {
    final Registry registry = new Registry();
    final Hierarchy tree = Hierarchy.of(registry);
    final long root = registry.create();
    final long middle = registry.create();
    final long leaf = registry.create();
    final long other = registry.create();
    tree.attach(middle, root);
    tree.attach(leaf, middle);
    tree.attach(other, root);
    tree.beginRelink();
    registry.destroy(middle);
    assertEquals(middle, tree.parent(leaf), "not unlinked yet");
    tree.endRelink();
    assertEquals(Entity.NULL, tree.parent(leaf));
    assertEquals(List.of(other), children(tree, root));
    assertEquals(List.of(), registry.verify());
  }

  /** Batches nest: the mode ends with the outermost; each end rebuilds what was written. */
  @Test
  void batchesNestAndEachEndRebuilds() {
    final Registry registry = new Registry();
    final Hierarchy tree = Hierarchy.of(registry);
    final long root = registry.create();
    final long child = registry.create();
    final long grandchild = registry.create();
    tree.attach(child, root);
    tree.attach(grandchild, child);
    tree.beginRelink();
    tree.beginRelink();
    registry.destroy(child);
    tree.endRelink();
    assertTrue(tree.isRelinking());
    assertEquals(Entity.NULL, tree.parent(grandchild), "rebuilt by the inner end");
    assertEquals(List.of(), registry.verify());
    tree.endRelink();
    assertFalse(tree.isRelinking());
    assertThrows(IllegalStateException.class, tree::endRelink);
  }

  /**
   * A batch in which nothing was written or removed (a refused change set, say) changes nothing:
   * not even a traversal in progress notices it. {@code relink()} on a whole hierarchy keeps every
   * link, but counts as a change.
   */
  @Test
  void anEmptyBatchChangesNothing() {
    final Registry registry = new Registry();
    final Hierarchy tree = Hierarchy.of(registry);
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    tree.attach(a, root);
    tree.attach(b, root);
    final List<Long> visited = new ArrayList<>();
    tree.depthFirst(
        root,
        e -> {
          visited.add(e);
          tree.beginRelink();
          tree.endRelink();
        });
    assertEquals(3, visited.size());
    final List<Long> before = children(tree, root);
    tree.relink();
    assertEquals(before, children(tree, root));
    assertEquals(2, tree.childCount(root));
    assertEquals(List.of(), registry.verify());
  }
}
