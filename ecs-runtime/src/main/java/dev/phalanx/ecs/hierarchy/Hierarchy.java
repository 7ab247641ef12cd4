package dev.phalanx.ecs.hierarchy;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityRefVisitor;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.internal.IntrusiveLists;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Parent and child relationships between the entities of one registry: a forest kept in a
 * pointer-stable storage of {@link Node}s (in-place deletion, so a node never moves while others
 * are added or removed).
 *
 * <h2>Model</h2>
 *
 * <p>Every entity has at most one parent and any number of children, kept as an intrusive doubly
 * linked list of siblings (the most recently attached child first). An entity without a node is a
 * root with no children, and so is an entity whose node has no links: the two read the same through
 * every query. Cycles are refused. The depth of an entity (a root is 0) is computed from its parent
 * links when asked, so that no change ever rewrites a subtree.
 *
 * <h2>Invariants</h2>
 *
 * <p>{@link #verify()} checks each of them, and so does {@link Registry#verify()}: the hierarchy
 * registers its check with the registry ({@link Registry#addCheck}) when it is created.
 *
 * <ul>
 *   <li>{@code parent(c) == p} if and only if {@code c} is in {@code p}'s list of children; the
 *       list's links are symmetric ({@code previousSibling(nextSibling(c)) == c}) and its length is
 *       {@code childCount(p)}. A root has no siblings.
 *   <li>No entity is its own ancestor: every chain of parents ends at a root.
 *   <li>Every link names a live entity that has a node. Destroying an entity (or removing its node)
 *       unlinks it first: its children become roots, unless the whole subtree is destroyed with
 *       {@link #destroyTree(long)}.
 * </ul>
 *
 * <h2>All or nothing</h2>
 *
 * <p>Every change is checked in full first (validity, cycles, locks) and refused with nothing
 * changed. Then the nodes it needs are created, the links are made, and only then are the nodes'
 * construct signals (and the entries of groups over the node storage) published: a listener sees
 * the finished link, and one that throws cannot leave a change half done; every listener runs, and
 * the first exception is rethrown once the change is complete. The node storage's destroy signal is
 * published after the node is unlinked (the hierarchy's own listener runs first), so a throwing
 * destroy listener cannot stop a detach, a destroy, {@link #destroyTree} or a clear either. One
 * refusal can come after a node was created: when something is iterated, the group upkeep of the
 * second of two new nodes may be refused after the first was inserted; the first then stays, a node
 * without links (which reads as no node), and the link is not made.
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>d = depth, k = number of children</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code parent}, {@code firstChild}, {@code nextSibling}, {@code previousSibling},
 *       {@code childCount}</td>
 *       <td>O(1)</td></tr>
 *   <tr><td>{@code depth}, {@code isAncestor}</td><td>O(d): walks the parents up</td></tr>
 *   <tr><td>{@code attach}, {@code reparent}</td>
 *       <td>O(1) when the child has no children; else O(d of the new parent), the cycle
 *       check</td></tr>
 *   <tr><td>{@code attach}, {@code reparent} at an index</td><td>as above, plus O(index) to find
 *       the place</td></tr>
 *   <tr><td>{@code replaceChildren}</td><td>O(old children + new children), plus the cycle
 *       checks</td></tr>
 *   <tr><td>{@code detach}</td><td>O(1)</td></tr>
 *   <tr><td>destroying a node (destroy, clear)</td><td>O(1 + k): its children become roots; so
 *       clearing or destroying n nodes costs O(n) whatever their shape</td></tr>
 *   <tr><td>{@code destroyTree}, {@code destroyDescendants}</td><td>O(subtree), as a batch
 *       destroy</td></tr>
 *   <tr><td>traversals</td>
 *       <td>O(nodes visited), no recursion at any depth, no allocation (breadth-first reuses one
 *       queue)</td></tr>
 *   <tr><td>{@link #verify()}</td><td>O(nodes), allocating two arrays of that size</td></tr>
 * </table>
 *
 * <p>Measured ({@code benchmarks} {@code HierarchyLinks}, JMH quick mode on a shared 2-core
 * machine, 256 chains; ratios to the stored depths this replaced): {@code depth} of a node at depth
 * 8, 64, 512 takes about 50 ns, 1 us, 8 us (was 6 to 8 ns at any depth: the price of never
 * rewriting a subtree); moving a chain's middle node (half the chain below it) 250 ns, 430 ns, 1.7
 * us (was 170 ns, 1.4 us, 12 us); destroying a chain's root and re-rooting its child about 200 to
 * 400 ns at any depth (was 0.4, 2.9 and 27 us); a leaf's detach and attach about 120 to 200 ns (was
 * 0.4 to 7 us). A system that needs every node's depth gets it in O(nodes) from {@link
 * #eachParentFirst} (parent before child) rather than from {@code depth} per node.
 *
 * <h2>Reordering the node storage</h2>
 *
 * <p>Sorting or compacting {@link #nodes()} is allowed: links are entity handles, not positions,
 * and every node's links move with it. A traversal fails fast if the storage is reordered under it.
 *
 * <h2>Raw writes (loaders)</h2>
 *
 * <p>A loader that mirrors another world copies nodes whole, links included, rather than calling
 * {@code attach}: a stream's links are checked as a whole first (no cycle, no parent without a
 * node), then written raw, through a {@link dev.phalanx.ecs.ChangeSet.RowWriter} or the pages
 * {@link Storage#columns} hands out. It brackets the writes with {@link #beginRelink()} and {@link
 * #endRelink()}: in between a removed node only clears its own links, and at the end every children
 * list and count is rebuilt from the parent links ({@link #relink()}), the lists as written first.
 * {@code dev.phalanx.ecs.snapshot}'s {@code ContinuousLoader} and {@code DeltaLoader} work so,
 * through this public API only.
 *
 * <h2>Changes during a traversal</h2>
 *
 * <p>A traversal checks after each visit that the hierarchy did not change (attach, detach,
 * reparent, a node created, destroyed or moved) and throws {@link ConcurrentModificationException}
 * at once if it did; the change itself is complete and consistent. To change the hierarchy from a
 * traversal, record the changes (for example in a {@link dev.phalanx.ecs.command.CommandBuffer
 * CommandBuffer}) and apply them after it.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe: one thread changes the hierarchy at a time, and readers run only while nobody
 * changes it. Its storage uses in-place deletion but, unlike other in-place storages, does not
 * allow concurrent removal: unlinking a node writes its parent's and siblings' nodes.
 */
public final class Hierarchy {

  /** The key of the hierarchy's storage; every registry has at most one {@link Hierarchy}. */
  public static final ComponentType<Node, NodeStorage> TYPE =
      ComponentType.define(
          Node.class,
          ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE),
          NodeStorage::new);

  private final Registry registry;
  private final NodeStorage nodes;
  // Bumped by every change of the hierarchy's shape, so that traversals fail fast.
  private int changes;
  // The traversals' walks and their reused breadth-first queue.
  private final Traversals traversals = new Traversals(this);
  private final ListRebuild listRebuild = new ListRebuild();
  // The checked link changes: their rules, and the nodes they create.
  private final LinkEdits edits;
  // Open beginRelink() batches: while any is, unlinking is deferred to the rebuild (endRelink).
  private int relinking;
  // cleanStamp() when the outermost batch began or the last rebuild of a batch ended.
  private long cleanAt;

  private Hierarchy(final Registry registry) {
    this.registry = registry;
    this.nodes = registry.storage(TYPE);
    this.edits = new LinkEdits(this, registry, nodes);
    // Unlink a node before it goes, whoever removes it: its links must never name a dead entity.
    nodes.onDestroy().connectFirst((r, entity) -> unlink(entity));
    registry.addCheck("hierarchy", this::verify);
  }

  /**
   * {@return the hierarchy of {@code registry}, creating it on first call}
   *
   * @param registry the registry whose entities the hierarchy links; it keeps the hierarchy in its
   *     context
   */
  public static Hierarchy of(final Registry registry) {
    final Hierarchy existing = registry.context().find(Hierarchy.class);
    return null != existing
        ? existing
        : registry.context().emplace(Hierarchy.class, new Hierarchy(registry));
  }

  /**
   * {@return the storage of the nodes (read it to iterate nodes, or to view them with other types)}
   */
  public NodeStorage nodes() {
    return nodes;
  }

  // ---------------------------------------------------------------------------------------------
  // Queries.
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return the parent of {@code entity}, or {@link Entity#NULL} for a root}
   *
   * @param entity the entity to inspect; one without a node is a root
   */
  public long parent(final long entity) {
    final int position = nodes.indexOf(entity);
    return SparseSet.ABSENT == position ? Entity.NULL : nodes.parentAt(position);
  }

  /**
   * {@return the first child of {@code entity} (the most recently attached), or {@link
   * Entity#NULL}}
   *
   * @param entity the entity to inspect
   */
  public long firstChild(final long entity) {
    final int position = nodes.indexOf(entity);
    return SparseSet.ABSENT == position ? Entity.NULL : nodes.firstAt(position);
  }

  /**
   * {@return the next sibling of {@code entity}, or {@link Entity#NULL}}
   *
   * @param entity the entity to inspect
   */
  public long nextSibling(final long entity) {
    final int position = nodes.indexOf(entity);
    return SparseSet.ABSENT == position ? Entity.NULL : nodes.nextAt(position);
  }

  /**
   * {@return the previous sibling of {@code entity}, or {@link Entity#NULL}}
   *
   * @param entity the entity to inspect
   */
  public long previousSibling(final long entity) {
    final int position = nodes.indexOf(entity);
    return SparseSet.ABSENT == position ? Entity.NULL : nodes.previousAt(position);
  }

  /**
   * {@return the number of children of {@code entity}}
   *
   * @param entity the entity to inspect; 0 if it has no node
   */
  public int childCount(final long entity) {
    final int position = nodes.indexOf(entity);
    return SparseSet.ABSENT == position ? 0 : nodes.countAt(position);
  }

  /**
   * {@return the child of {@code parent} at {@code index} (0 is the first child), or {@link
   * Entity#NULL} if it has no child there} O(index): walks the list of children.
   *
   * @param parent the entity whose children are counted
   * @param index the child's place among its siblings
   */
  public long childAt(final long parent, final int index) {
    if (index < 0) {
      return Entity.NULL;
    }
    long child = firstChild(parent);
    for (int i = 0; i < index && !Entity.isNull(child); i++) {
      child = nextSibling(child);
    }
    return child;
  }

  /**
   * {@return the depth of {@code entity}: 0 for a root, else one more than its parent's} O(depth):
   * the parents are walked up, without recursion.
   *
   * @param entity the entity to inspect
   */
  public int depth(final long entity) {
    final int position = nodes.indexOf(entity);
    return SparseSet.ABSENT == position ? 0 : nodes.depthAt(position);
  }

  /**
   * {@return whether {@code ancestor} is a strict ancestor of {@code entity}} O(depth).
   *
   * @param ancestor the candidate ancestor
   * @param entity the entity whose parents are walked up
   */
  public boolean isAncestor(final long ancestor, final long entity) {
    int steps = 0;
    for (long current = parent(entity); !Entity.isNull(current); current = parent(current)) {
      if (current == ancestor) {
        return true;
      }
      nodes.checkChainLength(++steps, entity);
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Changes.
  // ---------------------------------------------------------------------------------------------

  /**
   * Makes {@code child} a child of {@code parent} (its first child). Everything is checked first;
   * the nodes it needs are created and linked before any listener runs.
   *
   * @param child the entity to attach, a root
   * @param parent its new parent
   * @throws IllegalArgumentException if either entity is not valid, they are the same entity, or
   *     {@code parent} descends from {@code child} (a cycle)
   * @throws IllegalStateException if {@code child} already has a parent (use {@link #reparent}), or
   *     a node is needed for an entity being destroyed or while the registry is cleared
   * @throws ConcurrentModificationException if the node storage is locked, or a node's insertion
   *     would break an iteration
   */
  public void attach(final long child, final long parent) {
    edits.checkLink(child, parent, "attach");
    edits.checkRoot(child, parent);
    edits.move(child, parent, 0);
  }

  /**
   * As {@link #attach(long, long)}, placing {@code child} at {@code index} among the children of
   * {@code parent}: 0 makes it the first child, {@code childCount(parent)} the last. O(index) more,
   * to find the place.
   *
   * @param child the entity to attach, a root
   * @param parent its new parent
   * @param index its place among the children, {@code [0, childCount(parent)]}
   * @throws IndexOutOfBoundsException if {@code index} is outside that range; nothing is changed
   * @throws IllegalArgumentException as {@link #attach(long, long)}
   * @throws IllegalStateException as {@link #attach(long, long)}
   * @throws ConcurrentModificationException as {@link #attach(long, long)}
   */
  public void attach(final long child, final long parent, final int index) {
    edits.checkLink(child, parent, "attach");
    edits.checkRoot(child, parent);
    LinkEdits.checkIndex(index, childCount(parent), child, parent);
    edits.move(child, parent, index);
  }

  /**
   * As {@link #reparent(long, long)}, placing {@code child} at {@code index} among the children of
   * {@code parent} (counted without {@code child}, so that a child may be moved within its own
   * parent's list: {@code reparent(c, parent(c), 0)} makes it the first).
   *
   * @param child the entity to move, with its subtree
   * @param parent its new parent (not {@link Entity#NULL})
   * @param index its place among the other children, {@code [0, number of other children]}
   * @throws IndexOutOfBoundsException if {@code index} is outside that range; nothing is changed
   * @throws IllegalArgumentException as {@link #attach(long, long)}
   * @throws IllegalStateException as {@link #attach(long, long)}, except that the child may have a
   *     parent
   * @throws ConcurrentModificationException as {@link #attach(long, long)}
   */
  public void reparent(final long child, final long parent, final int index) {
    edits.checkLink(child, parent, "reparent");
    final int others = childCount(parent) - (parent(child) == parent ? 1 : 0);
    LinkEdits.checkIndex(index, others, child, parent);
    edits.move(child, parent, index);
  }

  /**
   * Makes {@code children}, in that order, the only children of {@code parent}: its current
   * children not listed become roots (keeping their own subtrees); listed entities are moved from
   * wherever they are. Everything is checked first (validity, repeats, cycles, locks) and a refused
   * call changes nothing; as with {@link #attach(long, long)}, nodes are created and every link
   * made before any listener runs. O(old children + listed entities + the cycle checks).
   *
   * @param parent the entity whose children are replaced
   * @param children its new children, first to last; empty to make every child a root
   * @throws IllegalArgumentException if an entity is not valid, listed twice, the parent itself, or
   *     an ancestor of the parent (a cycle)
   * @throws IllegalStateException if a node is needed for an entity being destroyed or while the
   *     registry is cleared
   * @throws ConcurrentModificationException if the node storage is locked, or a node's insertion
   *     would break an iteration
   */
  public void replaceChildren(final long parent, final long[] children) {
    edits.replaceChildren(parent, children);
  }

  /**
   * Moves {@code child} under {@code parent}, or makes it a root if {@code parent} is {@link
   * Entity#NULL}. Everything is checked first; the nodes it needs are created and the child moved
   * before any listener runs.
   *
   * @param child the entity to move, with its subtree
   * @param parent its new parent, or {@link Entity#NULL}
   * @throws IllegalArgumentException as {@link #attach}
   * @throws IllegalStateException as {@link #attach}, except that the child may have a parent
   * @throws ConcurrentModificationException as {@link #attach}
   */
  public void reparent(final long child, final long parent) {
    if (Entity.isNull(parent)) {
      detach(child);
      return;
    }
    edits.checkLink(child, parent, "reparent");
    if (parent(child) == parent) {
      return;
    }
    edits.move(child, parent, 0);
  }

  /**
   * Makes {@code child} a root, keeping its own children. A root is left as it is. O(1).
   *
   * @param child the entity to detach
   * @throws IllegalArgumentException if {@code child} is not valid
   * @throws ConcurrentModificationException if the node storage is locked
   */
  public void detach(final long child) {
    edits.checkValid(child, "detach");
    final int position = nodes.indexOf(child);
    if (SparseSet.ABSENT == position || Entity.isNull(nodes.parentAt(position))) {
      return;
    }
    nodes.checkUnlockedFor(child);
    nodes.links().cut(child);
    changes++;
  }

  /**
   * Destroys {@code root} and every descendant, children before parents. Every entity is checked
   * first, as {@link Registry#destroy(long[], int, int)} does: a refused destroy changes nothing.
   * O(subtree), without recursion.
   *
   * @param root the root of the subtree to destroy (it need not be a root of the forest)
   * @throws IllegalArgumentException if {@code root} is not valid
   * @throws ConcurrentModificationException if an entity of the subtree is held by a locked storage
   *     (one a parallel pass reads, say), or its removal would break an iteration; nothing is
   *     destroyed
   */
  public void destroyTree(final long root) {
    edits.checkValid(root, "destroy the subtree of");
    final long[] order = traversals.childrenFirst(root);
    registry.destroy(order, 0, order.length);
  }

  /**
   * Destroys every descendant of {@code root}, children before parents, and keeps {@code root}
   * (with no children afterwards). Checked first as {@link #destroyTree} is; a refused destroy
   * changes nothing. O(subtree), without recursion.
   *
   * @param root the entity whose descendants are destroyed
   * @throws IllegalArgumentException if {@code root} is not valid
   * @throws ConcurrentModificationException as {@link #destroyTree}
   */
  public void destroyDescendants(final long root) {
    edits.checkValid(root, "destroy the descendants of");
    final long[] order = traversals.childrenFirst(root);
    // The root comes last: every entity before it is a descendant.
    registry.destroy(order, 0, order.length - 1);
  }

  // ---------------------------------------------------------------------------------------------
  // Traversals.
  // ---------------------------------------------------------------------------------------------

  /**
   * Calls {@code action} for each child of {@code parent}, most recently attached first.
   *
   * @param parent the entity whose children are visited
   * @param action called with each child
   */
  public void eachChild(final long parent, final LongConsumer action) {
    traversals.eachChild(parent, action);
  }

  /**
   * Calls {@code action} for {@code root} and every descendant, depth first, each parent before its
   * children. No allocation, no recursion.
   *
   * @param root the root of the subtree to visit
   * @param action called with each entity of the subtree
   */
  public void depthFirst(final long root, final LongConsumer action) {
    traversals.depthFirst(root, action);
  }

  /**
   * Calls {@code action} for {@code root} and every descendant, level by level. Reuses one queue:
   * no allocation once it has grown to the widest subtree.
   *
   * @param root the root of the subtree to visit
   * @param action called with each entity of the subtree
   */
  public void breadthFirst(final long root, final LongConsumer action) {
    traversals.breadthFirst(root, action);
  }

  /**
   * Calls {@code action} for every entity that has a node, each parent before its children: every
   * root (an entity with a node and no parent) depth first. The order a transform propagation
   * needs.
   *
   * @param action called with each entity that has a node
   */
  public void eachParentFirst(final LongConsumer action) {
    traversals.eachParentFirst(action);
  }

  // ---------------------------------------------------------------------------------------------
  // Consistency.
  // ---------------------------------------------------------------------------------------------

  /**
   * Checks every invariant of the hierarchy (see the class comment) and returns the broken ones in
   * words (empty when consistent): every node belongs to a live entity; every link names an entity
   * that has a node; parent and child links agree, sibling links are symmetric, child counts match
   * the lists; no entity is its own ancestor. {@link Registry#verify()} runs the same check.
   * O(nodes), without recursion, whatever the links hold.
   *
   * @return the broken invariants, each described in words; empty if the hierarchy is consistent
   */
  public List<String> verify() {
    final List<String> problems = new ArrayList<>();
    verify(problems);
    return problems;
  }

  /** Appends the broken invariants to {@code problems}; see {@link #verify()}. */
  private void verify(final List<String> problems) {
    HierarchyCheck.verify(registry, nodes, problems);
  }

  // ---------------------------------------------------------------------------------------------
  // Internals.
  // ---------------------------------------------------------------------------------------------

  /**
   * Called before {@code entity}'s node is removed: unlinks it and makes its children roots. O(1 +
   * children): nothing below the children is touched.
   */
  private void unlink(final long entity) {
    final int position = nodes.indexOf(entity);
    if (0 != relinking) {
      // Node values are being written raw (beginRelink): the lists are rebuilt from the parent
      // links when it ends.
      nodes.links().clearMember(position);
      nodes.links().clearOwner(position);
      changes++;
      return;
    }
    if (!Entity.isNull(nodes.parentAt(position))) {
      nodes.links().cut(entity);
    }
    nodes.links().orphanAt(position);
    changes++;
  }

  /** Counts a change of the hierarchy's shape: traversals under way fail fast. */
  void changed() {
    changes++;
  }

  /**
   * The hierarchy's changes and the node storage's moves, in one number: either one changing
   * changes it (both only grow).
   */
  long stamp() {
    return changes + nodes.stamp();
  }

  /** Throws if the hierarchy changed since {@link #stamp()} returned {@code before}. */
  void checkUnchanged(final long before) {
    if (stamp() != before) {
      throw new ConcurrentModificationException(
          "the hierarchy changed during a traversal (attach, detach, reparent, or a node created,"
              + " destroyed or moved); record such changes and apply them after the traversal");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Raw writes of node values: loaders.
  // ---------------------------------------------------------------------------------------------

  /**
   * Starts a batch of raw writes of node values: a loader that copies nodes, links included, from
   * another world (through a {@link dev.phalanx.ecs.ChangeSet.RowWriter}, or the pages {@link
   * Storage#columns} hands out) calls it first, then {@link #endRelink()} once the nodes are
   * written. In between, the lists and counts may disagree with the parent links, so a node that is
   * removed (its entity destroyed, its node removed, by the loader or by a listener) only clears
   * its own links instead of unlinking itself from lists that are being overwritten; {@link
   * #endRelink()} then rebuilds every list and count from the parent links. Listeners that run
   * meanwhile see the links as they are being written: they must neither read nor change the
   * hierarchy (record such work for after, in a {@link dev.phalanx.ecs.command.CommandBuffer
   * CommandBuffer} say). Calls nest: the mode lasts until the outermost batch ends. O(1).
   *
   * <pre>{@code
   * hierarchy.beginRelink();
   * try {
   *   changes.commit(); // writes nodes raw, removes some
   * } finally {
   *   hierarchy.endRelink(); // lists and counts rebuilt from the parent links
   * }
   * }</pre>
   */
  public void beginRelink() {
    if (0 == relinking++) {
      cleanAt = cleanStamp();
    }
  }

  /**
   * Ends a batch started by {@link #beginRelink()}: if a node was written (stamped through {@link
   * Storage#patch(long)}, or a {@link dev.phalanx.ecs.ChangeSet} row change, which stamp it),
   * removed or relinked since the batch began or the hierarchy was last rebuilt, rebuilds the lists
   * and counts from the parent links as {@link #relink()} does; else (a change set refused, say)
   * changes nothing. The deferred unlinking ends with the outermost batch. O(1) when nothing was
   * written, else O(nodes).
   *
   * @throws IllegalStateException if no batch is open
   */
  public void endRelink() {
    if (0 == relinking) {
      throw new IllegalStateException("no beginRelink() to end: the hierarchy is not relinking");
    }
    relinking--;
    if (cleanStamp() != cleanAt) {
      relink();
    }
    cleanAt = cleanStamp();
  }

  /** {@return whether a batch of raw writes is open ({@link #beginRelink()})} */
  public boolean isRelinking() {
    return 0 != relinking;
  }

  /**
   * Rebuilds every children list and count from the parent links, which raw writes of node values
   * (a loader's) left as they wanted: a node's children are first those of its list as written, in
   * that order, as long as they name it as parent and are listed nowhere else before, then every
   * other node that names it as parent (a local child attached to a mirrored node, a child the
   * written list did not carry), in position order. A parent link that names the node itself or an
   * entity without a node becomes {@link Entity#NULL}, as do a root's sibling links. Cycles of
   * parent links are not broken: a loader checks there are none first ({@link #verify()} names
   * them). Links that already agree are left as they are. O(nodes); the two scratch arrays of that
   * size are kept, so a relink allocates nothing once they have grown.
   */
  public void relink() {
    listRebuild.rebuild(nodes);
    changes++;
  }

  /** What raw writes, removals and relinks change: compared by {@link #endRelink()}. */
  private long cleanStamp() {
    return changes + nodes.writes();
  }

  /**
   * The node of one entity, as {@link Storage#get} returns it: a snapshot of its links. Only the
   * hierarchy creates nodes.
   *
   * @param parent the parent, or {@link Entity#NULL}
   * @param firstChild the first child, or {@link Entity#NULL}
   * @param previousSibling the previous sibling, or {@link Entity#NULL}
   * @param nextSibling the next sibling, or {@link Entity#NULL}
   * @param childCount the number of children
   * @param depth the depth, 0 for a root (computed from the parent links when the node is read)
   */
  public record Node(
      long parent,
      long firstChild,
      long previousSibling,
      long nextSibling,
      int childCount,
      int depth) {}

  /**
   * The storage of the hierarchy's nodes: one primitive page array per link, in-place deletion. Its
   * typed accessors are read-only for users; only {@link Hierarchy} changes links, but for the raw
   * writes of a loader between {@link Hierarchy#beginRelink()} and {@link Hierarchy#endRelink()}.
   * Adding a node with {@code emplace} is refused (there is no instance to write): attach entities
   * through the hierarchy, or write the node's fields with a {@link
   * dev.phalanx.ecs.ChangeSet.RowWriter}. Sorting and compacting move every node's links with it
   * (they are entity handles, so they stay right).
   */
  public static final class NodeStorage extends Storage<Node> {
    // The sibling lists, at node positions: the shared kernel of intrusive lists.
    private final NodeLinks links;
    // Raw writes of node values announced through markWritten (a change set's row changes, patch).
    private long writes;

    NodeStorage(final ComponentType<Node, NodeStorage> type) {
      super(type);
      links = new NodeLinks(this);
    }

    /**
     * Counts a raw write of the node at {@code position}, so that {@link Hierarchy#endRelink()}
     * knows to rebuild the lists. Node storages keep no change ticks.
     *
     * @param position the node's position
     */
    @Override
    protected void markWritten(final int position) {
      writes++;
    }

    /** {@return the number of raw writes of node values so far} */
    long writes() {
      return writes;
    }

    /** {@return the sibling lists, kept at node positions} */
    IntrusiveLists links() {
      return links;
    }

    /**
     * {@return the parent of the node at {@code position}, or {@link Entity#NULL}} O(1).
     *
     * @param position a position of this storage that holds a node
     */
    public long parentAt(final int position) {
      return links.ownerAt(position);
    }

    /**
     * {@return the first child of the node at {@code position}, or {@link Entity#NULL}} O(1).
     *
     * @param position a position of this storage that holds a node
     */
    public long firstAt(final int position) {
      return links.firstAt(position);
    }

    /**
     * {@return the previous sibling of the node at {@code position}, or {@link Entity#NULL}} O(1).
     *
     * @param position a position of this storage that holds a node
     */
    public long previousAt(final int position) {
      return links.previousAt(position);
    }

    /**
     * {@return the next sibling of the node at {@code position}, or {@link Entity#NULL}} O(1).
     *
     * @param position a position of this storage that holds a node
     */
    public long nextAt(final int position) {
      return links.nextAt(position);
    }

    /**
     * {@return the number of children of the node at {@code position}} O(1).
     *
     * @param position a position of this storage that holds a node
     */
    public int countAt(final int position) {
      return links.countAt(position);
    }

    /**
     * {@return the depth of the node at {@code position}: 0 for a root} O(depth): the parent links
     * are walked up, without recursion.
     *
     * @param position a position of the node storage that holds a node
     * @throws IllegalStateException if the parent links form a cycle (a corrupted hierarchy, which
     *     {@link Registry#verify()} reports)
     */
    public int depthAt(final int position) {
      int depth = 0;
      for (int at = position; ; ) {
        final long parent = parentAt(at);
        if (Entity.isNull(parent)) {
          return depth;
        }
        at = indexOf(parent);
        if (ABSENT == at) {
          // A dangling parent (a corrupted hierarchy): the chain ends there.
          return depth + 1;
        }
        checkChainLength(++depth, packed()[position]);
      }
    }

    /** Throws if a walk up the parents of {@code entity} took more steps than there are nodes. */
    void checkChainLength(final int steps, final long entity) {
      if (steps > size()) {
        throw new IllegalStateException(
            "the parent links above "
                + Entity.toString(entity)
                + " form a cycle: the hierarchy is corrupted (registry.verify() names it)");
      }
    }

    /** Refuses a change of {@code entity}'s links while the node storage is locked. */
    void checkUnlockedFor(final long entity) {
      checkUnlocked(false, this, entity);
    }

    /** Refuses a node for {@code entity}, which has none, that the registry's state forbids. */
    void checkNodeInsertable(final long entity) {
      checkInsertable(entity);
    }

    /** {@return the storage's structure stamp: it changes when a node moves or leaves} */
    long stamp() {
      return structureStamp();
    }

    /**
     * Inserts a root node with no links for {@code entity}, announcing nothing yet: returns the
     * mark to pass to {@link #announce} once the change that needed it is complete.
     */
    int insertRoot(final long entity) {
      final int position = prepareInsert(entity);
      writeRoot(position);
      return commitUnannounced(entity, position);
    }

    /** Announces a node inserted by {@link #insertRoot}; returns the first listener exception. */
    Throwable announce(final long entity, final int mark, final Throwable failure) {
      return announceInsert(entity, mark, failure);
    }

    private void writeRoot(final int position) {
      links.clearMember(position);
      links.clearOwner(position);
    }

    @Override
    protected void allocatePage(final int page) {
      links.ensurePage(page);
    }

    @Override
    protected Node getAt(final int position) {
      return new Node(
          parentAt(position),
          firstAt(position),
          previousAt(position),
          nextAt(position),
          countAt(position),
          depthAt(position));
    }

    @Override
    protected void setAt(final int position, final Node value) {
      throw new IllegalStateException(
          "the hierarchy's nodes are written by Hierarchy only: use attach, detach and reparent");
    }

    /** Moves a node's links with it (compaction): they name entities, not positions. */
    @Override
    protected void moveElement(final int from, final int to) {
      links.move(from, to);
    }

    /** Swaps two nodes' links (sorting). */
    @Override
    protected void swapElements(final int left, final int right) {
      links.swap(left, right);
    }

    /** Clears a vacated slot's links, so that no stale handle lingers in a hole. */
    @Override
    protected void releaseElement(final int position) {
      writeRoot(position);
    }

    @Override
    public void eachEntityRef(final EntityRefVisitor visitor) {
      final long[] entities = packed();
      for (int position = 0; position < size(); position++) {
        final long entity = entities[position];
        if (!Entity.isTombstone(entity)) {
          visitor.visit(entity, "parent", parentAt(position));
          visitor.visit(entity, "firstChild", firstAt(position));
          visitor.visit(entity, "previousSibling", previousAt(position));
          visitor.visit(entity, "nextSibling", nextAt(position));
        }
      }
    }

    @Override
    public String describe() {
      return "storage of the hierarchy's nodes";
    }

    /** {@return true: the nodes are parent links, streamed with the entities they link} */
    @Override
    public boolean isRelationship() {
      return true;
    }

    /**
     * Hands {@code visitor} the node's fields: the four links (entity references, remapped by
     * loaders) and the child count. The depth is not a field: it is computed from the parents.
     */
    @Override
    protected void eachColumn(final ColumnVisitor visitor) {
      visitor.longs("parent", links.ownerPages(), true);
      visitor.longs("firstChild", links.firstPages(), true);
      visitor.longs("previousSibling", links.previousPages(), true);
      visitor.longs("nextSibling", links.nextPages(), true);
      visitor.ints("childCount", links.countPages());
    }

    /**
     * The kernel's lists at node positions. Lasts are not kept: a loader writes the other links'
     * pages raw, and a list's last would go stale.
     */
    private static final class NodeLinks extends IntrusiveLists {
      private final NodeStorage nodes;

      NodeLinks(final NodeStorage nodes) {
        super(nodes.pageShift(), false);
        this.nodes = nodes;
      }

      @Override
      protected int slot(final long entity) {
        return nodes.indexOf(entity);
      }
    }
  }
}
