package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.hierarchy.Hierarchy.NodeStorage;
import dev.phalanx.ecs.internal.LongLongMap;
import dev.phalanx.ecs.internal.ParentCycles;
import java.util.Arrays;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * The hierarchy section of a snapshot or delta, checked before a loader changes anything: the
 * parent links must form a forest over the nodes the stream and the replica hold, and the lists a
 * stream carries whole must agree with them. Loaders then write the node values raw and have the
 * {@link Hierarchy} rebuild its lists and counts from the parent links (its public {@link
 * Hierarchy#beginRelink()} and {@link Hierarchy#endRelink()}). Every check is O(nodes); a
 * snapshot's allocates a few arrays of the section's size, a delta's reuses its loader's ({@link
 * DeltaCheck}).
 */
final class HierarchySection {

  private HierarchySection() {}

  /**
   * Checks the hierarchy a staged snapshot holds, before a loader changes anything; nothing is
   * changed. The parent links are the truth, and they must form a forest: a parent link names
   * {@link Entity#NULL} or an entity the snapshot gives a node, and no entity is its own ancestor.
   * A full snapshot must also hold consistent lists: each node's children list (first child, then
   * next siblings) holds exactly the nodes that name it as parent, with symmetric previous links,
   * and its child count is the list's length; a root has no siblings. A snapshot of chosen entities
   * ({@link SnapshotWriter#entities}) may name a parent it does not carry: that link is cut (the
   * entity arrives as a root, as every reference to an entity not sent becomes {@code NULL}), and
   * its lists and counts are not read, as {@link Hierarchy#endRelink()} rebuilds them. O(nodes).
   *
   * @param staged the staged snapshot
   * @throws SnapshotFormatException naming the storage, the entity and the rule broken
   */
  static void checkStaged(final StagedSnapshot staged) throws SnapshotFormatException {
    StagedSnapshot.StagedStorage source = null;
    for (final StagedSnapshot.StagedStorage storage : staged.storages) {
      if (Hierarchy.TYPE == storage.type) {
        source = storage;
      }
    }
    if (null == source) {
      return;
    }
    final NodeColumns columns = StagedNodes.columns(source);
    final LongLongMap listed = staged.full ? null : StagedNodes.listedEntities(staged);
    // A parent the snapshot does not list (a snapshot of chosen entities) is cut, not refused.
    columns.checkParents(null == listed ? parent -> false : parent -> !listed.containsKey(parent));
    columns.checkAcyclic();
    if (staged.full) {
      columns.checkLists(null, columns.size);
    }
  }

  /**
   * The node columns of a hierarchy to be loaded, flat and in one handle space ({@code packed}),
   * with the checks of {@link #checkStaged} and {@link DeltaCheck}. {@code names} are the handles
   * the messages give (the stream's), {@code parentNames} those of the parents.
   */
  private static final class NodeColumns {
    int size;
    String source;
    long[] packed;
    long[] names;
    long[] parentNames;
    long[] parents;
    long[] firsts;
    long[] previouses;
    long[] nexts;
    int[] counts;
    private LongLongMap positions = new LongLongMap(16);
    private final ParentCycles.Walk cycles = new ParentCycles.Walk();
    private final IntUnaryOperator parentAt = this::parentAt;
    private boolean[] listed = new boolean[0];

    /**
     * Takes the columns (kept, not copied; each at least {@code size} long, the list links at least
     * as long as the entries whose lists are read) and indexes the nodes by handle.
     */
    NodeColumns of(
        final int size,
        final String source,
        final long[] packed,
        final long[] names,
        final long[] parentNames,
        final long[] parents,
        final long[] firsts,
        final long[] previouses,
        final long[] nexts,
        final int[] counts) {
      this.size = size;
      this.source = source;
      this.packed = packed;
      this.names = names;
      this.parentNames = parentNames;
      this.parents = parents;
      this.firsts = firsts;
      this.previouses = previouses;
      this.nexts = nexts;
      this.counts = counts;
      if (positions.capacity() < 2L * size) {
        // Sized once for all the nodes: growing while indexing would rehash again and again.
        positions = new LongLongMap(size);
      } else {
        positions.clear();
      }
      for (int at = 0; at < size; at++) {
        if (!Entity.isTombstone(packed[at])) {
          positions.put(packed[at], at);
        }
      }
      return this;
    }

    /** The position of the parent of the node at {@code at}, or ABSENT. */
    private int parentAt(final int at) {
      return Entity.isTombstone(packed[at]) ? SparseSet.ABSENT : at(parents[at]);
    }

    int at(final long entity) {
      return Entity.isNull(entity) ? SparseSet.ABSENT : (int) positions.get(entity, -1L);
    }

    /** A parent link must name a node of these columns, unless {@code cut} lets it go. */
    void checkParents(final LongPredicate cut) throws SnapshotFormatException {
      for (int at = 0; at < size; at++) {
        if (Entity.isTombstone(packed[at]) || Entity.isNull(parents[at])) {
          continue;
        }
        if (SparseSet.ABSENT == at(parents[at]) && !cut.test(parents[at])) {
          throw refused(
              names[at],
              "names "
                  + Entity.toString(parentNames[at])
                  + " as parent, which has no node in "
                  + source);
        }
      }
    }

    void checkAcyclic() throws SnapshotFormatException {
      final int cycle = cycles.firstOnCycle(size, parentAt);
      if (cycle >= 0) {
        throw refused(names[cycle], "is its own ancestor (the parent links form a cycle)");
      }
    }

    /**
     * Checks the children lists of the nodes {@code read} marks (every node if {@code null}): each
     * lists exactly the nodes that name it as parent, symmetric, of its count; and every node
     * before {@code checked} is listed by its parent if that list is read, and has no siblings if
     * it is a root.
     */
    void checkLists(final boolean[] read, final int checked) throws SnapshotFormatException {
      if (listed.length < size) {
        listed = new boolean[Math.max(size, listed.length * 2)];
      } else {
        Arrays.fill(listed, 0, size, false);
      }
      for (int at = 0; at < size; at++) {
        final long entity = packed[at];
        if (Entity.isTombstone(entity) || (null != read && !read[at])) {
          continue;
        }
        int count = 0;
        long previous = Entity.NULL;
        for (long child = firsts[at]; !Entity.isNull(child); ) {
          final int childAt = at(child);
          if (SparseSet.ABSENT == childAt
              || parents[childAt] != entity
              || previouses[childAt] != previous
              || listed[childAt]) {
            throw refused(
                names[at],
                "lists "
                    + Entity.toString(SparseSet.ABSENT == childAt ? child : names[childAt])
                    + " as a child, wrongly");
          }
          listed[childAt] = true;
          count++;
          previous = child;
          child = nexts[childAt];
        }
        if (count != counts[at]) {
          throw refused(names[at], "counts " + counts[at] + " children but lists " + count);
        }
      }
      for (int at = 0; at < checked; at++) {
        if (Entity.isTombstone(packed[at])) {
          continue;
        }
        if (Entity.isNull(parentNames[at])) {
          if (!Entity.isNull(previouses[at]) || !Entity.isNull(nexts[at])) {
            throw refused(names[at], "is a root but has sibling links");
          }
        } else if (!listed[at] && (null == read || isRead(read, at(parents[at])))) {
          throw refused(
              names[at],
              "is not among the children of its parent, " + Entity.toString(parentNames[at]));
        }
      }
    }

    private static boolean isRead(final boolean[] read, final int at) {
      return at >= 0 && read[at];
    }

    private static SnapshotFormatException refused(final long entity, final String rule) {
      return new SnapshotFormatException(
          -1,
          "storage of the hierarchy's nodes: "
              + Entity.toString(entity)
              + " "
              + rule
              + "; the hierarchy would be broken, nothing was loaded");
    }
  }

  /** Reads a staged snapshot's node storage into {@link NodeColumns}. */
  private static final class StagedNodes {
    private StagedNodes() {}

    static NodeColumns columns(final StagedSnapshot.StagedStorage source) {
      final long[] parents = links(source, "parent");
      final StagedSnapshot.StagedColumn column = source.columns.get("childCount");
      return new NodeColumns()
          .of(
              source.size,
              "the snapshot",
              source.packed,
              source.packed,
              parents,
              parents,
              links(source, "firstChild"),
              links(source, "previousSibling"),
              links(source, "nextSibling"),
              null == column ? new int[source.size] : (int[]) column.flat(source.size));
    }

    private static long[] links(final StagedSnapshot.StagedStorage source, final String name) {
      final StagedSnapshot.StagedColumn column = source.columns.get(name);
      if (null != column) {
        return (long[]) column.flat(source.size);
      }
      final long[] none = new long[source.size];
      Arrays.fill(none, Entity.NULL);
      return none;
    }

    static LongLongMap listedEntities(final StagedSnapshot staged) {
      final LongLongMap listed = new LongLongMap(staged.entityCount);
      for (int i = 0; i < staged.entityCount; i++) {
        listed.put(staged.entities[i], i);
      }
      return listed;
    }
  }

  /**
   * Checks the hierarchy a {@link DeltaLoader} would leave, before it changes anything; nothing is
   * changed. The links are those of the nodes the delta writes ({@code sent}, remote handles, with
   * their staged columns) together with the replica's nodes that stay as they are (not {@code
   * dropped}, not written again). A parent link that names a remote entity the replica will not
   * hold is cut (the node arrives as a root); one that names an entity the replica will hold must
   * name one that has a node after the delta; no entity may be its own ancestor. A node whose
   * children list the delta carries whole (every child is sent too) must list exactly the sent
   * nodes that name it as parent, with symmetric links and its child count; a root sent must have
   * no siblings. Lists that reach an entity not sent are not read, as {@link Hierarchy#endRelink()}
   * rebuilds them. O(nodes of the replica + sent).
   *
   * <p>The check lays the hierarchy out as {@link NodeColumns} in a space of its own: the node at
   * {@code i} has the key {@code Entity.of(i, 0)}; the nodes the delta sends come first (their
   * links as sent, translated), then the replica's nodes that stay (their parent links only, as
   * their lists are rebuilt and not read). A link to an entity the replica will hold without a
   * node, or to one not sent (for lists), gets the key {@code outside}, which names no node. One
   * loader keeps one check and its arrays, grown to the largest delta and replica seen: a check
   * allocates nothing once they have.
   */
  static final class DeltaCheck {
    private final NodeColumns columns = new NodeColumns();
    private final LongLongMap sentAt = new LongLongMap(16);
    private final LongLongMap localAt = new LongLongMap(16);
    private final LongLongMap rewritten = new LongLongMap(16);
    private long[] packed = new long[0];
    private long[] names = new long[0];
    private long[] parentNames = new long[0];
    private long[] parents = new long[0];
    private int[] counts = new int[0];
    private boolean[] read = new boolean[0];
    private long[] firsts = new long[0];
    private long[] previouses = new long[0];
    private long[] nexts = new long[0];
    private long[] none = new long[0];
    // The call's arguments, for the helpers.
    private long[] sent;
    private int sentCount;
    private Map<String, Object> values;
    private LongUnaryOperator localOf;
    private LongPredicate held;
    private LongPredicate dropped;
    private int size;
    private long outside;

    /**
     * Checks the delta's hierarchy against the replica's; see the class comment.
     *
     * @param registry the replica
     * @param sent the remote entities whose nodes the delta writes, in {@code [0, sentCount)}
     * @param sentCount how many
     * @param values their staged columns by name ({@code long[]} links, {@code int[]} counts)
     * @param localOf the local handle of a remote entity the replica holds before and after the
     *     delta, or {@link Entity#NULL}
     * @param held whether the replica holds a remote entity after the delta
     * @param dropped whether a local entity loses its node in the delta (destroyed or removed)
     * @throws SnapshotFormatException naming the entity and the rule broken
     */
    void check(
        final Registry registry,
        final long[] sent,
        final int sentCount,
        final Map<String, Object> values,
        final LongUnaryOperator localOf,
        final LongPredicate held,
        final LongPredicate dropped)
        throws SnapshotFormatException {
      this.sent = sent;
      this.sentCount = sentCount;
      this.values = values;
      this.localOf = localOf;
      this.held = held;
      this.dropped = dropped;
      try {
        final Storage<?> existing = registry.findStorage(Hierarchy.TYPE);
        check(existing instanceof NodeStorage nodes ? nodes : null);
      } finally {
        this.sent = null;
        this.values = null;
        this.localOf = null;
        this.held = null;
        this.dropped = null;
      }
    }

    private void check(final NodeStorage local) throws SnapshotFormatException {
      sentAt.clear();
      rewritten.clear();
      localAt.clear();
      for (int i = 0; i < sentCount; i++) {
        sentAt.put(sent[i], i);
        // The replica's nodes that the delta writes again take their sent key.
        final long mine = localOf.applyAsLong(sent[i]);
        if (!Entity.isNull(mine)) {
          rewritten.put(mine, i);
        }
      }
      size = sentCount;
      final int localSize = null == local ? 0 : local.size();
      final long[] localPacked = null == local ? packed : local.packed();
      for (int p = 0; p < localSize; p++) {
        final long entity = localPacked[p];
        if (Entity.isTombstone(entity) || dropped.test(entity)) {
          continue;
        }
        localAt.put(entity, rewritten.containsKey(entity) ? rewritten.get(entity, 0) : size++);
      }
      outside = Entity.of(size, 0);
      reserve();
      layOutSent();
      for (int p = 0; p < localSize; p++) {
        final long entity = localPacked[p];
        final int i = (int) localAt.get(entity, -1L);
        if (i < sentCount) {
          continue; // a tombstone, dropped, or written again by the delta
        }
        packed[i] = Entity.of(i, 0);
        names[i] = entity;
        parentNames[i] = local.parentAt(p);
        parents[i] = Entity.isNull(parentNames[i]) ? Entity.NULL : localKey(parentNames[i]);
      }
      Arrays.fill(counts, 0, size, 0);
      if (values.get("childCount") instanceof int[] sentCounts) {
        System.arraycopy(sentCounts, 0, counts, 0, sentCount);
      }
      columns.of(
          size,
          "the delta or the replica",
          packed,
          names,
          parentNames,
          parents,
          firsts,
          previouses,
          nexts,
          counts);
      columns.checkParents(parent -> false);
      columns.checkAcyclic();
      columns.checkLists(whole(), sentCount);
    }

    /** Grows the arrays to the call's sizes. */
    private void reserve() {
      if (packed.length < size) {
        final int grown = Math.max(size, packed.length * 2);
        packed = new long[grown];
        names = new long[grown];
        parentNames = new long[grown];
        parents = new long[grown];
        counts = new int[grown];
        read = new boolean[grown];
      }
      if (firsts.length < sentCount) {
        final int grown = Math.max(sentCount, firsts.length * 2);
        firsts = new long[grown];
        previouses = new long[grown];
        nexts = new long[grown];
        none = new long[grown];
        Arrays.fill(none, Entity.NULL);
      }
    }

    /**
     * The sent nodes' entries; their list links only: the lists read are those of sent nodes, made
     * of sent nodes (a link to any other is outside, where a walk stops), so no other is read.
     */
    private void layOutSent() {
      final long[] sentParents = sentLinks("parent");
      final long[] sentFirsts = sentLinks("firstChild");
      final long[] sentPreviouses = sentLinks("previousSibling");
      final long[] sentNexts = sentLinks("nextSibling");
      for (int i = 0; i < sentCount; i++) {
        packed[i] = Entity.of(i, 0);
        names[i] = sent[i];
        parentNames[i] = sentParents[i];
        parents[i] = parentKey(sentParents[i]);
        firsts[i] = listKey(sentFirsts[i]);
        previouses[i] = listKey(sentPreviouses[i]);
        nexts[i] = listKey(sentNexts[i]);
      }
    }

    private long[] sentLinks(final String name) {
      return values.get(name) instanceof long[] links ? links : none;
    }

    /** The key of a sent parent link: cut if the replica will not hold it. */
    private long parentKey(final long remote) {
      if (Entity.isNull(remote) || !held.test(remote)) {
        return Entity.NULL;
      }
      if (sentAt.containsKey(remote)) {
        return Entity.of((int) sentAt.get(remote, 0), 0);
      }
      final long mine = localOf.applyAsLong(remote);
      return Entity.isNull(mine) || dropped.test(mine) ? outside : localKey(mine);
    }

    /** The key of a sent list link: a sent node, or outside. */
    private long listKey(final long remote) {
      if (Entity.isNull(remote)) {
        return Entity.NULL;
      }
      return sentAt.containsKey(remote) ? Entity.of((int) sentAt.get(remote, 0), 0) : outside;
    }

    /** The key of a local entity: its node's, or NULL if it loses its node (it unlinks). */
    private long localKey(final long entity) {
      final int i = (int) localAt.get(entity, -1L);
      return i < 0 ? (dropped.test(entity) ? Entity.NULL : outside) : Entity.of(i, 0);
    }

    /** Which sent nodes have their whole children list in the delta (every child sent). */
    private boolean[] whole() {
      Arrays.fill(read, 0, size, false);
      for (int i = 0; i < sentCount; i++) {
        boolean complete = true;
        long child = firsts[i];
        for (int steps = 0; !Entity.isNull(child) && steps <= sentCount; steps++) {
          // A list link is NULL, a sent node's key or outside (listKey).
          if (child == outside) {
            complete = false;
            break;
          }
          child = nexts[Entity.index(child)];
        }
        read[i] = complete;
      }
      return read;
    }
  }
}
