package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.Arrays;
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
 * root with no children. Cycles are refused. Each node also records its depth (a root is 0), so
 * that systems can order work parents first.
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>{@code parent(c) == p} if and only if {@code c} is in {@code p}'s list of children; the
 *       list's links are symmetric and its length is {@code childCount(p)}.
 *   <li>{@code depth(c) == depth(parent(c)) + 1}; a root has depth 0. No entity is its own
 *       ancestor.
 *   <li>Every link names a live entity that has a node. Destroying an entity (or removing its node)
 *       unlinks it first: its children become roots, unless the whole subtree is destroyed with
 *       {@link #destroyTree(long)}.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>d = depth, s = size of the subtree moved</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code parent}, {@code firstChild}, {@code nextSibling}, {@code childCount},
 *       {@code depth}</td>
 *       <td>O(1)</td></tr>
 *   <tr><td>{@code attach}, {@code reparent}</td>
 *       <td>O(d + s): the cycle check walks up, the depths of
 *       the subtree are rewritten</td></tr>
 *   <tr><td>{@code detach}, destroying a node</td><td>O(s)</td></tr>
 *   <tr><td>traversals</td>
 *       <td>O(nodes visited), no allocation (breadth-first reuses one queue)</td></tr>
 * </table>
 *
 * <h2>Changes during a traversal</h2>
 *
 * <p>A traversal checks after each visit that the hierarchy did not change (attach, detach,
 * reparent, a node created or destroyed) and throws {@link ConcurrentModificationException} at once
 * if it did; the change itself is complete and consistent. To change the hierarchy from a
 * traversal, record the changes (for example in a {@link CommandBuffer}) and apply them after it.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe. Its storage uses in-place deletion but, unlike other in-place storages, does
 * not allow concurrent removal: unlinking a node writes its parent's and siblings' nodes.
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
  // Reused by breadth-first traversals (a nested one gets its own).
  private long[] queue = new long[16];
  private boolean breadthFirstActive;

  private Hierarchy(final Registry registry) {
    this.registry = registry;
    this.nodes = registry.storage(TYPE);
    // Unlink a node before it goes, whoever removes it: its links must never name a dead entity.
    nodes.onDestroy().connectFirst((r, entity) -> unlink(entity));
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
   * {@return the depth of {@code entity}: 0 for a root}
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
    for (long current = parent(entity); !Entity.isNull(current); current = parent(current)) {
      if (current == ancestor) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Changes.
  // ---------------------------------------------------------------------------------------------

  /**
   * Makes {@code child} a child of {@code parent} (its first child). Everything is checked first.
   *
   * @param child the entity to attach, a root
   * @param parent its new parent
   * @throws IllegalArgumentException if either entity is not valid, they are the same entity, or
   *     {@code parent} descends from {@code child} (a cycle)
   * @throws IllegalStateException if {@code child} already has a parent (use {@link #reparent})
   */
  public void attach(final long child, final long parent) {
    checkLink(child, parent, "attach");
    if (!Entity.isNull(parent(child))) {
      throw new IllegalStateException(
          "cannot attach "
              + Entity.toString(child)
              + " to "
              + Entity.toString(parent)
              + ": it already has"
              + " a parent, "
              + Entity.toString(parent(child))
              + "; use reparent to move it");
    }
    link(child, parent);
  }

  /**
   * Moves {@code child} under {@code parent}, or makes it a root if {@code parent} is {@link
   * Entity#NULL}. Everything is checked first.
   *
   * @param child the entity to move, with its subtree
   * @param parent its new parent, or {@link Entity#NULL}
   * @throws IllegalArgumentException as {@link #attach}
   */
  public void reparent(final long child, final long parent) {
    if (Entity.isNull(parent)) {
      detach(child);
      return;
    }
    checkLink(child, parent, "reparent");
    if (parent(child) == parent) {
      return;
    }
    detach(child);
    link(child, parent);
  }

  /**
   * Makes {@code child} a root, keeping its own children. A root is left as it is.
   *
   * @param child the entity to detach
   * @throws IllegalArgumentException if {@code child} is not valid
   */
  public void detach(final long child) {
    checkValid(child, "detach");
    final int position = nodes.indexOf(child);
    if (SparseSet.ABSENT == position || Entity.isNull(nodes.parentAt(position))) {
      return;
    }
    cut(position);
    shiftDepths(child, -nodes.depthAt(position));
    changes++;
  }

  /**
   * Destroys {@code root} and every descendant, children before parents. Every entity is checked
   * first, as {@link Registry#destroy(long[], int, int)} does: a refused destroy changes nothing.
   *
   * @param root the root of the subtree to destroy (it need not be a root of the forest)
   * @throws IllegalArgumentException if {@code root} is not valid
   */
  public void destroyTree(final long root) {
    checkValid(root, "destroy the subtree of");
    final long[] order = collect(root);
    final int count = order.length;
    // Reverse pre-order: every descendant before its ancestors.
    for (int i = 0, j = count - 1; i < j; i++, j--) {
      final long swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    registry.destroy(order, 0, count);
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
    final int before = changes;
    for (long child = firstChild(parent); !Entity.isNull(child); ) {
      final long next = nextSibling(child);
      action.accept(child);
      checkUnchanged(before);
      child = next;
    }
  }

  /**
   * Calls {@code action} for {@code root} and every descendant, depth first, each parent before its
   * children. No allocation.
   *
   * @param root the root of the subtree to visit
   * @param action called with each entity of the subtree
   */
  public void depthFirst(final long root, final LongConsumer action) {
    final int before = changes;
    long current = root;
    while (true) {
      action.accept(current);
      checkUnchanged(before);
      final long first = firstChild(current);
      if (!Entity.isNull(first)) {
        current = first;
        continue;
      }
      // Climb until a node has a next sibling, without leaving the subtree.
      while (current != root && Entity.isNull(nextSibling(current))) {
        current = parent(current);
      }
      if (current == root) {
        return;
      }
      current = nextSibling(current);
    }
  }

  /**
   * Calls {@code action} for {@code root} and every descendant, level by level. Reuses one queue:
   * no allocation once it has grown to the widest subtree.
   *
   * @param root the root of the subtree to visit
   * @param action called with each entity of the subtree
   */
  public void breadthFirst(final long root, final LongConsumer action) {
    // A breadth-first traversal nested in another gets a queue of its own.
    final long[] shared = queue;
    if (breadthFirstActive) {
      queue = new long[16];
    }
    final long[] order;
    final int count;
    try {
      count = collectBreadthFirst(root);
      order = queue;
    } finally {
      if (breadthFirstActive) {
        queue = shared;
      }
    }
    final boolean outer = !breadthFirstActive;
    breadthFirstActive = true;
    try {
      final int before = changes;
      for (int i = 0; i < count; i++) {
        action.accept(order[i]);
        checkUnchanged(before);
      }
    } finally {
      if (outer) {
        breadthFirstActive = false;
      }
    }
  }

  /**
   * Calls {@code action} for every entity that has a node, each parent before its children: every
   * root (an entity with a node and no parent) depth first. The order a transform propagation
   * needs.
   *
   * @param action called with each entity that has a node
   */
  public void eachParentFirst(final LongConsumer action) {
    final long[] packed = nodes.packed();
    for (int position = 0; position < nodes.size(); position++) {
      final long entity = packed[position];
      if (!Entity.isTombstone(entity) && Entity.isNull(nodes.parentAt(position))) {
        // depthFirst checks after every visit that nothing changed: a change stops it there.
        depthFirst(entity, action);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Consistency.
  // ---------------------------------------------------------------------------------------------

  /**
   * Checks every invariant of the hierarchy and returns the broken ones in words (empty when
   * consistent). O(nodes x depth).
   *
   * @return the broken invariants, each described in words; empty if the hierarchy is consistent
   */
  public List<String> verify() {
    final List<String> problems = new ArrayList<>();
    final long[] packed = nodes.packed();
    for (int position = 0; position < nodes.size(); position++) {
      final long entity = packed[position];
      if (Entity.isTombstone(entity)) {
        continue;
      }
      final String name = Entity.toString(entity);
      if (!registry.valid(entity)) {
        problems.add(name + " has a node but is not a live entity");
      }
      final long parent = nodes.parentAt(position);
      if (Entity.isNull(parent)) {
        if (0 != nodes.depthAt(position)) {
          problems.add(name + " is a root of depth " + nodes.depthAt(position));
        }
      } else {
        if (!nodes.contains(parent)) {
          problems.add(
              name + " names " + Entity.toString(parent) + " as parent, which has no node");
          continue;
        }
        if (nodes.depthAt(position) != depth(parent) + 1) {
          problems.add(
              name
                  + " has depth "
                  + nodes.depthAt(position)
                  + " under a parent of depth "
                  + depth(parent));
        }
        boolean listed = false;
        for (long child = firstChild(parent);
            !Entity.isNull(child) && !listed;
            child = nextSibling(child)) {
          listed = child == entity;
        }
        if (!listed) {
          problems.add(
              name
                  + " names "
                  + Entity.toString(parent)
                  + " as parent but is not among its children");
        }
        if (isAncestor(entity, entity)) {
          problems.add(name + " is its own ancestor");
          continue;
        }
      }
      int count = 0;
      long previous = Entity.NULL;
      for (long child = nodes.firstAt(position);
          !Entity.isNull(child) && count <= nodes.size();
          child = nextSibling(child)) {
        count++;
        if (!nodes.contains(child)
            || parent(child) != entity
            || previousSibling(child) != previous) {
          problems.add(name + ": child list broken at " + Entity.toString(child));
          break;
        }
        previous = child;
      }
      if (count != nodes.countAt(position)) {
        problems.add(name + " counts " + nodes.countAt(position) + " children but lists " + count);
      }
    }
    return problems;
  }

  // ---------------------------------------------------------------------------------------------
  // Internals.
  // ---------------------------------------------------------------------------------------------

  private void checkLink(final long child, final long parent, final String verb) {
    checkValid(child, verb);
    checkValid(parent, verb + " to");
    if (child == parent) {
      throw new IllegalArgumentException(
          "cannot "
              + verb
              + " "
              + Entity.toString(child)
              + " to itself: the hierarchy has no cycles");
    }
    if (isAncestor(child, parent)) {
      throw new IllegalArgumentException(
          "cannot "
              + verb
              + " "
              + Entity.toString(child)
              + " to "
              + Entity.toString(parent)
              + ": "
              + Entity.toString(parent)
              + " descends from it, and the hierarchy has no cycles");
    }
    nodes.checkUnlocked(false, nodes, child);
  }

  private void checkValid(final long entity, final String verb) {
    if (!registry.valid(entity)) {
      throw new IllegalArgumentException(
          "cannot "
              + verb
              + " "
              + Entity.toString(entity)
              + ": the entity is not valid (destroyed or never created)");
    }
  }

  /** Links {@code child} (a root) under {@code parent}; both checked. */
  private void link(final long child, final long parent) {
    final int parentPosition = ensureNode(parent);
    final int childPosition = ensureNode(child);
    final long oldFirst = nodes.firstAt(parentPosition);
    nodes.setLinks(childPosition, parent, Entity.NULL, oldFirst);
    if (!Entity.isNull(oldFirst)) {
      nodes.setPreviousAt(nodes.indexOf(oldFirst), child);
    }
    nodes.setFirstAt(parentPosition, child);
    nodes.setCountAt(parentPosition, nodes.countAt(parentPosition) + 1);
    shiftDepths(child, nodes.depthAt(parentPosition) + 1 - nodes.depthAt(childPosition));
    changes++;
  }

  private int ensureNode(final long entity) {
    int position = nodes.indexOf(entity);
    if (SparseSet.ABSENT == position) {
      nodes.emplaceRoot(entity);
      position = nodes.indexOf(entity);
      changes++;
    }
    return position;
  }

  /** Removes the child at {@code position} from its parent's list of children. */
  private void cut(final int position) {
    final long parent = nodes.parentAt(position);
    final long previous = nodes.previousAt(position);
    final long next = nodes.nextAt(position);
    final int parentPosition = nodes.indexOf(parent);
    if (Entity.isNull(previous)) {
      nodes.setFirstAt(parentPosition, next);
    } else {
      nodes.setNextAt(nodes.indexOf(previous), next);
    }
    if (!Entity.isNull(next)) {
      nodes.setPreviousAt(nodes.indexOf(next), previous);
    }
    nodes.setCountAt(parentPosition, nodes.countAt(parentPosition) - 1);
    nodes.setLinks(position, Entity.NULL, Entity.NULL, Entity.NULL);
  }

  /** Called before {@code entity}'s node is removed: unlinks it and makes its children roots. */
  private void unlink(final long entity) {
    final int position = nodes.indexOf(entity);
    if (!Entity.isNull(nodes.parentAt(position))) {
      cut(position);
    }
    for (long child = nodes.firstAt(position); !Entity.isNull(child); ) {
      final int childPosition = nodes.indexOf(child);
      final long next = nodes.nextAt(childPosition);
      nodes.setLinks(childPosition, Entity.NULL, Entity.NULL, Entity.NULL);
      shiftDepths(child, -nodes.depthAt(childPosition));
      child = next;
    }
    nodes.setFirstAt(position, Entity.NULL);
    nodes.setCountAt(position, 0);
    nodes.setDepthAt(position, 0);
    changes++;
  }

  /** Adds {@code delta} to the depth of {@code root} and of every descendant. */
  private void shiftDepths(final long root, final int delta) {
    if (0 == delta) {
      return;
    }
    long current = root;
    while (true) {
      final int position = nodes.indexOf(current);
      nodes.setDepthAt(position, nodes.depthAt(position) + delta);
      final long first = nodes.firstAt(position);
      if (!Entity.isNull(first)) {
        current = first;
        continue;
      }
      while (current != root && Entity.isNull(nextSibling(current))) {
        current = parent(current);
      }
      if (current == root) {
        return;
      }
      current = nextSibling(current);
    }
  }

  /** Returns {@code root} and its descendants in pre-order. */
  private long[] collect(final long root) {
    final long[][] order = {new long[16]};
    final int[] count = {0};
    depthFirst(
        root,
        entity -> {
          if (count[0] == order[0].length) {
            order[0] = Arrays.copyOf(order[0], count[0] * 2);
          }
          order[0][count[0]++] = entity;
        });
    return Arrays.copyOf(order[0], count[0]);
  }

  private int collectBreadthFirst(final long root) {
    long[] order = queue;
    order[0] = root;
    int count = 1;
    for (int head = 0; head < count; head++) {
      for (long child = firstChild(order[head]);
          !Entity.isNull(child);
          child = nextSibling(child)) {
        if (count == order.length) {
          order = Arrays.copyOf(order, count * 2);
          queue = order;
        }
        order[count++] = child;
      }
    }
    return count;
  }

  private void checkUnchanged(final int before) {
    if (changes != before) {
      throw new ConcurrentModificationException(
          "the hierarchy changed during a traversal (attach, detach, reparent or a node created or"
              + " destroyed); record such changes and apply them after the traversal");
    }
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
   * @param depth the depth, 0 for a root
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
   * typed accessors are read-only for users; only {@link Hierarchy} changes links. Adding a node
   * with {@code emplace} is refused: attach entities through the hierarchy.
   */
  public static final class NodeStorage extends Storage<Node> {
    private long[][] parents = new long[0][];
    private long[][] firsts = new long[0][];
    private long[][] previouses = new long[0][];
    private long[][] nexts = new long[0][];
    private int[][] counts = new int[0][];
    private int[][] depths = new int[0][];
    // Set while the hierarchy adds a node: the only way a node is inserted.
    private boolean linking;

    NodeStorage(final ComponentType<Node, NodeStorage> type) {
      super(type);
    }

    long parentAt(final int position) {
      return parents[position >>> pageShift()][position & (pageSize() - 1)];
    }

    long firstAt(final int position) {
      return firsts[position >>> pageShift()][position & (pageSize() - 1)];
    }

    long previousAt(final int position) {
      return previouses[position >>> pageShift()][position & (pageSize() - 1)];
    }

    long nextAt(final int position) {
      return nexts[position >>> pageShift()][position & (pageSize() - 1)];
    }

    int countAt(final int position) {
      return counts[position >>> pageShift()][position & (pageSize() - 1)];
    }

    /**
     * {@return the depth of the node at {@code position}: 0 for a root}
     *
     * @param position a position of the node storage that holds a node
     */
    public int depthAt(final int position) {
      return depths[position >>> pageShift()][position & (pageSize() - 1)];
    }

    void setLinks(final int position, final long parent, final long previous, final long next) {
      final int page = position >>> pageShift();
      final int offset = position & (pageSize() - 1);
      parents[page][offset] = parent;
      previouses[page][offset] = previous;
      nexts[page][offset] = next;
    }

    void setFirstAt(final int position, final long first) {
      firsts[position >>> pageShift()][position & (pageSize() - 1)] = first;
    }

    void setPreviousAt(final int position, final long previous) {
      previouses[position >>> pageShift()][position & (pageSize() - 1)] = previous;
    }

    void setNextAt(final int position, final long next) {
      nexts[position >>> pageShift()][position & (pageSize() - 1)] = next;
    }

    void setCountAt(final int position, final int count) {
      counts[position >>> pageShift()][position & (pageSize() - 1)] = count;
    }

    void setDepthAt(final int position, final int depth) {
      depths[position >>> pageShift()][position & (pageSize() - 1)] = depth;
    }

    /** Adds a root node with no links for {@code entity}. */
    void emplaceRoot(final long entity) {
      linking = true;
      try {
        emplace(entity, ROOT);
      } finally {
        linking = false;
      }
    }

    private static final Node ROOT =
        new Node(Entity.NULL, Entity.NULL, Entity.NULL, Entity.NULL, 0, 0);

    @Override
    protected void allocatePage(final int page) {
      if (page >= parents.length) {
        final int capacity = Math.max(page + 1, parents.length * 2);
        parents = Arrays.copyOf(parents, capacity);
        firsts = Arrays.copyOf(firsts, capacity);
        previouses = Arrays.copyOf(previouses, capacity);
        nexts = Arrays.copyOf(nexts, capacity);
        counts = Arrays.copyOf(counts, capacity);
        depths = Arrays.copyOf(depths, capacity);
      }
      if (null == parents[page]) {
        parents[page] = new long[pageSize()];
      }
      if (null == firsts[page]) {
        firsts[page] = new long[pageSize()];
      }
      if (null == previouses[page]) {
        previouses[page] = new long[pageSize()];
      }
      if (null == nexts[page]) {
        nexts[page] = new long[pageSize()];
      }
      if (null == counts[page]) {
        counts[page] = new int[pageSize()];
      }
      if (null == depths[page]) {
        depths[page] = new int[pageSize()];
      }
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
      if (!linking) {
        throw new IllegalStateException(
            "the hierarchy's nodes are written by Hierarchy only: use attach, detach and reparent");
      }
      final int page = position >>> pageShift();
      final int offset = position & (pageSize() - 1);
      parents[page][offset] = value.parent();
      firsts[page][offset] = value.firstChild();
      previouses[page][offset] = value.previousSibling();
      nexts[page][offset] = value.nextSibling();
      counts[page][offset] = value.childCount();
      depths[page][offset] = value.depth();
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

    /**
     * Hands {@code visitor} the node's fields: the four links (entity references, remapped by
     * loaders), the child count and the depth.
     */
    @Override
    protected void eachColumn(final ColumnVisitor visitor) {
      visitor.longs("parent", parents, true);
      visitor.longs("firstChild", firsts, true);
      visitor.longs("previousSibling", previouses, true);
      visitor.longs("nextSibling", nexts, true);
      visitor.ints("childCount", counts);
      visitor.ints("depth", depths);
    }
  }
}
