package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Storage;
import java.util.Arrays;
import java.util.Objects;

/**
 * Propagation down a relationship forest at chunk speed (flecs's {@code cascade}, a transform from
 * a ship to its turrets): one storage of values, arranged so that every element comes after the
 * element of its target, and handed to a visitor as runs of positions whose targets' elements are
 * either one element or a run of the same length.
 *
 * <pre>{@code
 * Cascade cascade = Cascade.of(Relation.of(registry, Mount_Traits.TYPE), transforms);
 * cascade.each((from, to, parentFrom, oneParent) -> {
 *   float[] child = xPages[from >>> shift], parent = xPages[parentFrom >>> shift];
 *   ... child[i] = local[i] + parent[oneParent ? p : p + (i - from)] for i in [from, to) ...
 * });
 * }</pre>
 *
 * <p>Arranging sorts the storage breadth first (roots, then every level in the order of its
 * targets): siblings are next to each other, and the children of consecutive targets follow each
 * other, so a level's runs are long and a run's loop reads two page arrays with no lookup, which
 * the JIT vectorizes. Both a run and the targets it reads lie within one page of the storage. An
 * element whose target has no element in the storage (or that is on a cycle) is a root: it is not
 * visited.
 *
 * <h2>Costs</h2>
 *
 * <p>{@link #each} arranges again first if the storage's membership or order, or any relationship
 * of the kind, changed since the last arrangement: O(n log n) for the sort and O(n) for the runs,
 * allocating only as the storage grows. Otherwise it costs one call per run. Arranging sorts the
 * storage, so it is refused where a sort is (a storage owned by a group, or locked).
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe. The visitor writes values in place; the storage is locked while it runs, so a
 * structural change of it is refused.
 */
public final class Cascade {

  /**
   * A run of a cascade: the elements at positions {@code [from, to)}, whose targets' elements are
   * at {@code parentFrom} (every one of them, if {@code oneParent}) or at {@code parentFrom + (i -
   * from)} for the element at {@code i}. Runs come in order, so that a target's value is final
   * before its sources are visited.
   */
  @FunctionalInterface
  public interface Run {

    /**
     * Visits one run.
     *
     * @param from the first position of the run
     * @param to the end of the run, exclusive, within the page of {@code from}
     * @param parentFrom the position of the first element's target
     * @param oneParent whether every element of the run has that target
     */
    void visit(int from, int to, int parentFrom, boolean oneParent);
  }

  private static final int ROOT = -1;

  private final Relation<?> relation;
  private final Storage<?> values;
  // The runs of the last arrangement: from, to, parentFrom, oneParent (1 or 0), four ints each.
  private int[] runs = new int[0];
  private int runCount;
  // What the arrangement saw, to notice a change.
  private long arrangedStamp = -1;
  private int arrangedSize = -1;
  private long arrangedChanges = -1;
  // Whether each() is visiting runs: a nested pass is refused.
  private boolean visiting;
  // What holds the storage's lock during a pass, for messages (built once: a pass allocates
  // nothing).
  private final String lockedBy;
  // Scratch: the breadth-first order, each entity index's rank in it, each position's target.
  private long[] order = new long[0];
  private int[] ranks = new int[0];
  private int[] parents = new int[0];

  private Cascade(final Relation<?> relation, final Storage<?> values) {
    this.relation = relation;
    this.values = values;
    this.lockedBy = "a cascade of " + relation.storage().type().name();
  }

  /**
   * {@return a cascade of {@code relation} over the elements of {@code values}} Nothing is arranged
   * before the first {@link #each}.
   *
   * @param relation the relationship kind whose forest the values follow
   * @param values the storage of the values to propagate, in the same registry
   * @throws IllegalArgumentException if the two belong to different registries
   */
  public static Cascade of(final Relation<?> relation, final Storage<?> values) {
    Objects.requireNonNull(relation, "relation");
    Objects.requireNonNull(values, "values");
    if (relation.storage().registry() != values.registry()) {
      throw new IllegalArgumentException(
          "cannot cascade "
              + relation.storage().type().name()
              + " over "
              + values.type().name()
              + ": they belong to different registries");
    }
    return new Cascade(relation, values);
  }

  /**
   * Visits every run, targets' runs before their sources', arranging first if anything changed. The
   * storage is locked while the visitor runs, as during a chunk pass: a structural change of it
   * from the visitor is refused ({@link java.util.ConcurrentModificationException}), and a nested
   * {@code each} of this cascade is refused before it starts. A visitor that throws ends the pass;
   * the lock is released and the next pass is whole.
   *
   * @param visitor receives the runs
   * @throws IllegalStateException if this cascade's {@code each} is already running, or (as {@link
   *     java.util.ConcurrentModificationException}) if the storage must be arranged and cannot be
   *     sorted now
   */
  public void each(final Run visitor) {
    if (visiting) {
      throw new IllegalStateException(
          "the cascade of "
              + relation.storage().type().name()
              + " over "
              + values.type().name()
              + " is already visiting its runs; a visitor may not start another pass of it");
    }
    if (stale()) {
      arrange();
    }
    visiting = true;
    values.lock(lockedBy, this);
    try {
      final int[] all = runs;
      for (int r = 0, end = 4 * runCount; r < end; r += 4) {
        visitor.visit(all[r], all[r + 1], all[r + 2], 1 == all[r + 3]);
      }
    } finally {
      values.unlock();
      visiting = false;
    }
  }

  /** {@return the number of runs of the current arrangement, after arranging if need be} */
  public int runs() {
    if (stale()) {
      arrange();
    }
    return runCount;
  }

  private boolean stale() {
    return values.structureStamp() != arrangedStamp
        || values.size() != arrangedSize
        || relation.changes() != arrangedChanges;
  }

  /** Sorts the values breadth first, then cuts them into runs. */
  private void arrange() {
    final int size = values.size();
    rankBreadthFirst(size);
    final int[] rank = ranks;
    values.sortByLongKey(entity -> rank[Entity.index(entity)]);
    findParents(size);
    cutRuns(size);
    arrangedStamp = values.structureStamp();
    arrangedSize = size;
    arrangedChanges = relation.changes();
  }

  /**
   * Ranks the storage's entities breadth first: the roots (no target with an element here) in
   * position order, then the sources of each ranked entity that have an element here, in link
   * order. Entities on a cycle are never reached and rank last.
   */
  private void rankBreadthFirst(final int size) {
    if (order.length < size) {
      order = new long[size];
    }
    final long[] packed = values.packed();
    int ranked = 0;
    int highest = -1;
    for (int position = 0; position < size; position++) {
      final long entity = packed[position];
      if (Entity.isTombstone(entity)) {
        continue;
      }
      highest = Math.max(highest, Entity.index(entity));
      if (!values.contains(relation.target(entity))) {
        order[ranked++] = entity;
      }
    }
    final SourceLists lists = relation.lists();
    for (int head = 0; head < ranked; head++) {
      for (long s = lists.firstOf(order[head]); !Entity.isNull(s); s = lists.nextOf(s)) {
        if (values.contains(s)) {
          order[ranked++] = s;
        }
      }
    }
    if (ranks.length <= highest) {
      ranks = new int[highest + 1];
    }
    Arrays.fill(ranks, 0, highest + 1, Integer.MAX_VALUE);
    for (int r = 0; r < ranked; r++) {
      ranks[Entity.index(order[r])] = r;
    }
  }

  /** Records, per position, the position of the element's target, or {@link #ROOT}. */
  private void findParents(final int size) {
    if (parents.length < size) {
      parents = new int[size];
    }
    final long[] packed = values.packed();
    for (int position = 0; position < size; position++) {
      final long entity = packed[position];
      final int parent =
          Entity.isTombstone(entity) ? ROOT : values.indexOf(relation.target(entity));
      // A target after its source lies on a cycle: the source counts as a root.
      parents[position] = parent >= 0 && parent < position ? parent : ROOT;
    }
  }

  /** Cuts the positions into runs that stay within one page, for the element and its targets. */
  private void cutRuns(final int size) {
    runCount = 0;
    final int shift = values.pageShift();
    int from = 0;
    while (from < size) {
      final int parent = parents[from];
      if (ROOT == parent) {
        from++;
        continue;
      }
      final int pageEnd = Math.min(size, ((from >>> shift) + 1) << shift);
      int to = from + 1;
      boolean oneParent = true;
      if (to < pageEnd && parents[to] == parent + 1 && parent + 1 < from) {
        oneParent = false;
      }
      while (to < pageEnd) {
        final int next = oneParent ? parent : parent + (to - from);
        // The targets stay in one page, and before the run: a run never reads its own elements.
        if (parents[to] != next || next >>> shift != parent >>> shift || next >= from) {
          break;
        }
        to++;
      }
      addRun(from, to, parent, oneParent);
      from = to;
    }
  }

  private void addRun(final int from, final int to, final int parentFrom, final boolean oneParent) {
    if (4 * runCount == runs.length) {
      runs = Arrays.copyOf(runs, Math.max(64, runs.length * 2));
    }
    final int at = 4 * runCount++;
    runs[at] = from;
    runs[at + 1] = to;
    runs[at + 2] = parentFrom;
    runs[at + 3] = oneParent ? 1 : 0;
  }
}
