package dev.phalanx.ecs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.ConcurrentModificationException;

/**
 * A sparse set of entities: a paged sparse array maps an entity's index to a position in a dense
 * (packed) array of entities. It is the base of every component storage.
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>For every contained entity {@code e}: {@code packed[sparse[index(e)]] == e}.
 *   <li>Entries of the sparse array that map to no element hold {@link #ABSENT} ({@code -1}); sparse
 *       pages of {@value #SPARSE_PAGE_SIZE} entries are allocated on first use and never freed.
 *   <li>With {@link DeletionPolicy#SWAP_AND_POP} positions {@code [0, size())} are all live.
 *   <li>With {@link DeletionPolicy#IN_PLACE} a position may hold a tombstone (version
 *       {@link Entity#TOMBSTONE_VERSION}) whose index bits hold the position of the next hole, or
 *       {@code -1}; the first hole is {@link #firstHole()}. {@code size()} counts holes.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>{@code contains}, {@code indexOf}, insertion and removal are O(1): a page lookup and one read of
 * the packed array. Sorting is O(n log n), in place, allocation-free. {@code compact()} is O(n).
 *
 * <h2>Invalidation</h2>
 *
 * <p>Iterations walk positions from {@code size() - 1} down to {@code 0}. Appending never disturbs
 * them (appended elements are not visited) and removing the element being visited with swap-and-pop
 * moves an already visited element into its slot, so nothing is skipped or repeated. Removing any
 * other element from the set being walked is detected (see {@link #checkIteration}) unless the policy
 * is in-place, where nothing ever moves.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe, with one exception: with {@link DeletionPolicy#IN_PLACE}, several threads may
 * {@linkplain #removeEntityAt remove} distinct entities at once, as long as nothing else (insertion,
 * iteration, sorting, compaction, clearing) runs meanwhile. Each removal writes only its own sparse
 * slot, its own packed slot and the head of the free list, which is updated with a CAS.
 */
public class SparseSet {

  /** Sentinel of the sparse array and of {@link #indexOf}: no position. */
  public static final int ABSENT = -1;

  /** Entries per sparse page. */
  public static final int SPARSE_PAGE_SIZE = 4096;

  private static final int SPARSE_SHIFT = 12;
  private static final int SPARSE_MASK = SPARSE_PAGE_SIZE - 1;
  private static final long TOMBSTONE_BITS = Entity.of(0, Entity.TOMBSTONE_VERSION);
  private static final long[] NO_ENTITIES = new long[0];
  private static final int[][] NO_PAGES = new int[0][];
  private static final VarHandle FIRST_HOLE;
  private static final int CHANGE_LOG = 64;
  private static final int REMOVED = -1;
  private static final int REARRANGED = -2;

  static {
    try {
      FIRST_HOLE = MethodHandles.lookup().findVarHandle(SparseSet.class, "firstHole", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final DeletionPolicy policy;
  private int[][] sparse = NO_PAGES;
  private long[] packed = NO_ENTITIES;
  private int size;
  // Head of the free list of holes (IN_PLACE only); updated with a CAS by concurrent removals.
  @SuppressWarnings("unused") // written through FIRST_HOLE
  private volatile int firstHole = ABSENT;
  // Fail-fast support for iterations: bumped by every change that moves elements.
  // Fail-fast support for iterations: a counter of changes that move elements, and a log of the last
  // CHANGE_LOG of them (a position for a swap, REMOVED or REARRANGED), so that a visit costs one
  // counter comparison and only a visit that changed something reads the log.
  private int modifications;
  private final int[] changeKinds = new int[CHANGE_LOG];
  private final long[] changeEntities = new long[CHANGE_LOG];
  // Non-zero while a parallel iteration reads this set: structural changes are refused.
  private int locks;
  // Reused adapter so that sort(EntityComparator) allocates nothing after its first call.
  private EntityOrder entityOrder;

  /**
   * Creates an empty set.
   *
   * @param policy {@link DeletionPolicy#SWAP_AND_POP} or {@link DeletionPolicy#IN_PLACE}
   * @throws IllegalArgumentException for {@link DeletionPolicy#SWAP_ONLY}, which only the entity
   *     storage uses
   */
  public SparseSet(final DeletionPolicy policy) {
    if (DeletionPolicy.SWAP_ONLY == policy) {
      throw new IllegalArgumentException(
          "SWAP_ONLY is the entity storage's policy; a sparse set takes SWAP_AND_POP or IN_PLACE");
    }
    this.policy = policy;
  }

  /** Returns the deletion policy, fixed at construction. */
  public final DeletionPolicy policy() {
    return policy;
  }

  /** Returns the number of positions in use, tombstones included. */
  public final int size() {
    return size;
  }

  /** Returns whether no position is in use. */
  public final boolean isEmpty() {
    return 0 == size;
  }

  /**
   * Returns the packed array of entities. Positions {@code [0, size())} are meaningful; with in-place
   * deletion some of them are tombstones ({@link Entity#isTombstone}). The array is replaced when the
   * set grows: do not keep it across insertions.
   */
  public final long[] packed() {
    return packed;
  }

  /** Returns the position of the most recent hole, or {@link #ABSENT} when there is none. */
  public final int firstHole() {
    return (int) FIRST_HOLE.getVolatile(this);
  }

  /** Returns whether the set has holes (in-place deletion only). */
  public final boolean hasTombstones() {
    return ABSENT != firstHole();
  }

  /** Returns whether {@code entity} (index and version) is in the set. */
  public final boolean contains(final long entity) {
    final int index = (int) entity;
    final int[][] pages = sparse;
    final int page = index >>> SPARSE_SHIFT;
    if (page >= pages.length) {
      return false;
    }
    final int[] sparsePage = pages[page];
    if (null == sparsePage) {
      return false;
    }
    final int position = sparsePage[index & SPARSE_MASK];
    return position >= 0 && packed[position] == entity;
  }

  /**
   * Returns the position of {@code entity} in the packed array, or {@link #ABSENT} if it is not in
   * the set.
   */
  public final int indexOf(final long entity) {
    final int index = (int) entity;
    final int[][] pages = sparse;
    final int page = index >>> SPARSE_SHIFT;
    if (page >= pages.length) {
      return ABSENT;
    }
    final int[] sparsePage = pages[page];
    if (null == sparsePage) {
      return ABSENT;
    }
    final int position = sparsePage[index & SPARSE_MASK];
    return position >= 0 && packed[position] == entity ? position : ABSENT;
  }

  /**
   * Returns the position of {@code entity}.
   *
   * @throws IllegalArgumentException if the entity is not in the set
   */
  public final int index(final long entity) {
    final int position = indexOf(entity);
    if (ABSENT == position) {
      throw new IllegalArgumentException(Entity.toString(entity) + " is not in " + describe());
    }
    return position;
  }

  /**
   * Returns the entity of the set whose index is {@code index}, whatever its version, or
   * {@link Entity#NULL}.
   */
  public final long entityWithIndex(final int index) {
    final int[][] pages = sparse;
    final int page = index >>> SPARSE_SHIFT;
    if (page >= pages.length || null == pages[page]) {
      return Entity.NULL;
    }
    final int position = pages[page][index & SPARSE_MASK];
    return position >= 0 ? packed[position] : Entity.NULL;
  }

  /** Returns the entity at {@code position} (a tombstone for a hole). */
  public final long at(final int position) {
    if (position < 0 || position >= size) {
      throw new IndexOutOfBoundsException("position " + position + " outside [0, " + size + ")");
    }
    return packed[position];
  }

  /**
   * Returns a short description used in exception messages, such as {@code storage of Position}.
   * Storages override it to name their component.
   */
  public String describe() {
    return "sparse set";
  }

  // ---------------------------------------------------------------------------------------------
  // Structural changes. Subclasses wrap them with their payload and their signals.
  // ---------------------------------------------------------------------------------------------

  /**
   * Inserts an entity that is not in the set and returns its position: the most recent hole under
   * in-place deletion, else the end. The caller must have checked {@code !contains(entity)}.
   */
  protected final int insertEntity(final long entity) {
    checkUnlocked("insert");
    final int position;
    final int hole = firstHole();
    if (ABSENT != hole) {
      position = hole;
      FIRST_HOLE.setVolatile(this, (int) packed[hole]);
    } else {
      position = size;
      if (position == packed.length) {
        growPacked(position + 1);
      }
      size = position + 1;
    }
    packed[position] = entity;
    sparsePageFor((int) entity)[((int) entity) & SPARSE_MASK] = position;
    return position;
  }

  /**
   * Appends an entity that is not in the set, ignoring holes (the range insertion rule), and returns
   * its position.
   */
  protected final int appendEntity(final long entity) {
    checkUnlocked("insert");
    final int position = size;
    if (position == packed.length) {
      growPacked(position + 1);
    }
    size = position + 1;
    packed[position] = entity;
    sparsePageFor((int) entity)[((int) entity) & SPARSE_MASK] = position;
    return position;
  }

  /**
   * Removes the entity at {@code position}, which must be live, following the deletion policy:
   * swap-and-pop moves the last element into the slot ({@link #moveElement}) and releases the last
   * slot ({@link #releaseElement}); in-place releases the slot and turns it into a hole.
   *
   * <p>Under in-place deletion this method may run concurrently for distinct entities (see the
   * class's threading note).
   */
  protected final void removeEntityAt(final int position) {
    checkUnlocked("remove");
    final long entity = packed[position];
    final int[] entityPage = sparse[((int) entity) >>> SPARSE_SHIFT];
    if (DeletionPolicy.IN_PLACE == policy) {
      releaseElement(position);
      entityPage[((int) entity) & SPARSE_MASK] = ABSENT;
      int head;
      do {
        head = (int) FIRST_HOLE.getVolatile(this);
        packed[position] = TOMBSTONE_BITS | (head & 0xFFFF_FFFFL);
      } while (!FIRST_HOLE.compareAndSet(this, head, position));
      return;
    }
    final int last = size - 1;
    if (position != last) {
      final long moved = packed[last];
      moveElement(last, position);
      packed[position] = moved;
      sparse[((int) moved) >>> SPARSE_SHIFT][((int) moved) & SPARSE_MASK] = position;
    }
    releaseElement(last);
    entityPage[((int) entity) & SPARSE_MASK] = ABSENT;
    size = last;
    logChange(REMOVED, entity);
  }

  /**
   * Swaps the elements at two live positions: entities, sparse entries and payload
   * ({@link #swapElements}).
   */
  protected final void swapAt(final int left, final int right) {
    if (left == right) {
      return;
    }
    checkUnlocked("move");
    logChange(Math.min(left, right), Entity.NULL);
    final long[] entities = packed;
    final long a = entities[left];
    final long b = entities[right];
    entities[left] = b;
    entities[right] = a;
    sparse[((int) a) >>> SPARSE_SHIFT][((int) a) & SPARSE_MASK] = right;
    sparse[((int) b) >>> SPARSE_SHIFT][((int) b) & SPARSE_MASK] = left;
    swapElements(left, right);
  }

  /** Removes every element (and every hole), releasing their payload. Pages are kept. */
  protected void clearEntities() {
    checkUnlocked("clear");
    final long[] entities = packed;
    for (int position = size - 1; position >= 0; position--) {
      final long entity = entities[position];
      if (!Entity.isTombstone(entity)) {
        sparse[((int) entity) >>> SPARSE_SHIFT][((int) entity) & SPARSE_MASK] = ABSENT;
        releaseElement(position);
      }
    }
    size = 0;
    FIRST_HOLE.setVolatile(this, ABSENT);
    logChange(REARRANGED, Entity.NULL);
  }

  /**
   * Removes every hole by moving live elements from the back into the holes, so that positions
   * {@code [0, size())} are live again. Only elements that were behind a hole move. O(size).
   */
  public void compact() {
    if (!hasTombstones()) {
      return;
    }
    checkUnlocked("compact");
    final long[] entities = packed;
    int left = 0;
    int right = size - 1;
    while (true) {
      while (right >= 0 && Entity.isTombstone(entities[right])) {
        right--;
      }
      while (left < right && !Entity.isTombstone(entities[left])) {
        left++;
      }
      if (left >= right) {
        break;
      }
      final long moved = entities[right];
      moveElement(right, left);
      releaseElement(right);
      entities[left] = moved;
      entities[right] = TOMBSTONE_BITS;
      sparse[((int) moved) >>> SPARSE_SHIFT][((int) moved) & SPARSE_MASK] = left;
      right--;
    }
    size = right + 1;
    FIRST_HOLE.setVolatile(this, ABSENT);
    logChange(REARRANGED, Entity.NULL);
  }

  // ---------------------------------------------------------------------------------------------
  // Payload hooks: a set without payload leaves them empty; storages override them.
  // ---------------------------------------------------------------------------------------------

  /** Moves the payload at {@code from} to {@code to}; the slot at {@code to} is free. */
  protected void moveElement(final int from, final int to) {}

  /** Swaps the payloads at two positions. */
  protected void swapElements(final int left, final int right) {}

  /** Releases the payload at {@code position} (for example clears a reference so it can be GC'd). */
  protected void releaseElement(final int position) {}

  // ---------------------------------------------------------------------------------------------
  // Sorting.
  // ---------------------------------------------------------------------------------------------

  /**
   * Sorts the elements by entity, in place and without allocation (an introsort: quicksort, with
   * heapsort past a depth limit and insertion sort for short ranges). Payloads move with their
   * entities.
   *
   * @throws IllegalStateException if the set has tombstones (call {@link #compact()} first) or may not
   *     be sorted (see {@link #checkSortable()})
   */
  public final void sort(final EntityComparator comparator) {
    checkSortable();
    sortRangeByEntity(0, size, comparator);
  }

  /**
   * Sorts the elements by comparing the elements at two positions; see {@link PositionComparator}.
   *
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void sortByPosition(final PositionComparator comparator) {
    checkSortable();
    sortPositions(0, size, comparator);
  }

  /**
   * Sorts positions {@code [from, to)} only, skipping the ownership rule: groups use it to sort their
   * range of an owned storage.
   *
   * @throws IllegalStateException if the set has tombstones
   */
  protected final void sortRange(final int from, final int to, final PositionComparator comparator) {
    if (hasTombstones()) {
      throw new IllegalStateException("cannot sort " + describe() + ": it has tombstones");
    }
    if (from < 0 || to > size || from > to) {
      throw new IndexOutOfBoundsException("range [" + from + ", " + to + ") outside [0, " + size + ")");
    }
    sortPositions(from, to, comparator);
  }

  /**
   * Sorts positions {@code [from, to)} by entity, skipping the ownership rule (see
   * {@link #sortRange(int, int, PositionComparator)}).
   */
  protected final void sortRangeByEntity(final int from, final int to, final EntityComparator comparator) {
    // One adapter per set, reused: sorting by entity allocates nothing after the first call.
    EntityOrder order = entityOrder;
    if (null == order) {
      order = new EntityOrder();
      entityOrder = order;
    }
    order.comparator = comparator;
    try {
      sortRange(from, to, order);
    } finally {
      order.comparator = null;
    }
  }

  /**
   * Sorts with insertion sort, which is O(n) on almost sorted data and stable.
   *
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void insertionSortByPosition(final PositionComparator comparator) {
    checkSortable();
    insertionSort(0, size, comparator);
    logChange(REARRANGED, Entity.NULL);
  }

  /**
   * Rearranges this set so that the entities it shares with {@code other} come first, in the order
   * they have in {@code other}; the others follow in unspecified order. O(other.size()), in place.
   *
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void sortAs(final SparseSet other) {
    checkSortable();
    final long[] order = other.packed;
    final int count = other.size;
    int next = 0;
    for (int position = 0; position < count; position++) {
      final int current = indexOf(order[position]);
      if (ABSENT != current) {
        swapAt(current, next++);
      }
    }
    logChange(REARRANGED, Entity.NULL);
  }

  /**
   * Checks that the set may be sorted: no tombstones. Subclasses add their own rules (a storage owned
   * by a group may not be sorted on its own).
   *
   * @throws IllegalStateException if it may not
   */
  protected void checkSortable() {
    if (hasTombstones()) {
      throw new IllegalStateException(
          "cannot sort " + describe() + ": it has tombstones (in-place deletion); call compact() first");
    }
  }

  private void sortPositions(final int from, final int to, final PositionComparator comparator) {
    final int length = to - from;
    introSort(from, to - 1, comparator, 2 * (32 - Integer.numberOfLeadingZeros(Math.max(length, 1))));
    logChange(REARRANGED, Entity.NULL);
  }

  private void introSort(int low, int high, final PositionComparator comparator, int depth) {
    while (high - low > 16) {
      if (0 == depth--) {
        heapSort(low, high + 1, comparator);
        return;
      }
      final int pivot = partition(low, high, comparator);
      // Recurse into the smaller half, loop on the larger: the stack stays O(log n).
      if (pivot - low < high - pivot) {
        introSort(low, pivot - 1, comparator, depth);
        low = pivot + 1;
      } else {
        introSort(pivot + 1, high, comparator, depth);
        high = pivot - 1;
      }
    }
    insertionSort(low, high + 1, comparator);
  }

  private int partition(final int low, final int high, final PositionComparator comparator) {
    final int middle = (low + high) >>> 1;
    // Median of three moved to 'high', which then serves as the pivot's position.
    if (comparator.compare(middle, low) < 0) {
      swapAt(middle, low);
    }
    if (comparator.compare(high, low) < 0) {
      swapAt(high, low);
    }
    if (comparator.compare(middle, high) < 0) {
      swapAt(middle, high);
    }
    int store = low;
    for (int position = low; position < high; position++) {
      if (comparator.compare(position, high) < 0) {
        swapAt(position, store++);
      }
    }
    swapAt(store, high);
    return store;
  }

  private void insertionSort(final int from, final int to, final PositionComparator comparator) {
    for (int position = from + 1; position < to; position++) {
      for (int current = position; current > from && comparator.compare(current, current - 1) < 0; current--) {
        swapAt(current, current - 1);
      }
    }
  }

  private void heapSort(final int from, final int to, final PositionComparator comparator) {
    final int length = to - from;
    for (int root = length / 2 - 1; root >= 0; root--) {
      siftDown(from, root, length, comparator);
    }
    for (int end = length - 1; end > 0; end--) {
      swapAt(from, from + end);
      siftDown(from, 0, end, comparator);
    }
  }

  private void siftDown(final int from, int root, final int length, final PositionComparator comparator) {
    while (true) {
      int child = 2 * root + 1;
      if (child >= length) {
        return;
      }
      if (child + 1 < length && comparator.compare(from + child, from + child + 1) < 0) {
        child++;
      }
      if (comparator.compare(from + root, from + child) >= 0) {
        return;
      }
      swapAt(from + root, from + child);
      root = child;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Fail-fast iteration support.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns a counter that changes whenever an element other than a tombstone moves: removals under
   * swap-and-pop, swaps made by groups, sorting, compaction and clearing. Iterations compare it
   * before and after each visit.
   */
  public final int modifications() {
    return modifications;
  }

  /**
   * Starts the visit of one element by an iteration: returns {@link #modifications()}, to pass to
   * {@link #checkIteration(int, long, int)} after the visit. Costs one field read.
   */
  public final int beginVisit() {
    return modifications;
  }

  /**
   * Checks, after the visit of {@code visited} at {@code position}, that the visit broke none of the
   * iteration rules: the only element removed (if any) is {@code visited} itself; the set was not
   * sorted, compacted or cleared; and no element below {@code position} (not yet visited) was moved
   * by a swap, as a group does when an entity enters or leaves it. A visit that changed nothing costs
   * one comparison.
   *
   * @param before the value of {@link #beginVisit()} before the visit
   * @throws ConcurrentModificationException if a rule was broken, or if more than {@value #CHANGE_LOG}
   *     changes happened during one visit (too many to check, refused conservatively)
   */
  public final void checkIteration(final int before, final long visited, final int position) {
    if (modifications != before) {
      checkChanges(before, visited, position);
    }
  }

  /**
   * As {@link #checkIteration(int, long, int)}, ignoring swaps: checks removals and rearrangements only.
   *
   * @throws ConcurrentModificationException if the rule was broken
   */
  public final void checkIteration(final int before, final long visited) {
    if (modifications != before) {
      checkChanges(before, visited, Integer.MIN_VALUE);
    }
  }

  private void logChange(final int kind, final long entity) {
    final int slot = modifications & (CHANGE_LOG - 1);
    changeKinds[slot] = kind;
    changeEntities[slot] = entity;
    modifications++;
  }

  private void checkChanges(final int before, final long visited, final int position) {
    final int count = modifications - before;
    if (count < 0 || count > CHANGE_LOG) {
      throw changed(visited, "more than " + CHANGE_LOG + " elements moved during one visit");
    }
    for (int change = before; change != modifications; change++) {
      final int slot = change & (CHANGE_LOG - 1);
      final int kind = changeKinds[slot];
      if (REARRANGED == kind) {
        throw changed(visited, "it was sorted, compacted or cleared");
      }
      if (REMOVED == kind && changeEntities[slot] != visited) {
        throw changed(visited, Entity.toString(changeEntities[slot]) + " was removed; only the visited"
            + " entity's element may be removed (entities and components may be added)");
      }
      if (kind >= 0 && kind < position) {
        throw changed(visited, "an entity entered or left a group that owns it, moving elements not yet"
            + " visited; do not change group membership of other entities while iterating an owned storage");
      }
    }
  }

  private ConcurrentModificationException changed(final long visited, final String what) {
    return new ConcurrentModificationException(
        describe() + " changed while it was being iterated (visiting " + Entity.toString(visited) + "): " + what);
  }

  /**
   * Forbids structural changes (insertions, removals, moves) until {@link #unlock()}; used by parallel
   * iterations. Locks nest.
   */
  public final void lock() {
    locks++;
  }

  /** Releases one {@link #lock()}. */
  public final void unlock() {
    if (0 == locks) {
      throw new IllegalStateException(describe() + " is not locked");
    }
    locks--;
  }

  /** Returns whether structural changes are currently forbidden. */
  public final boolean isLocked() {
    return 0 != locks;
  }

  private void checkUnlocked(final String operation) {
    if (0 != locks) {
      throw new ConcurrentModificationException(
          "cannot " + operation + " an element of " + describe()
              + ": a parallel iteration is reading it; structural changes are not allowed until it ends");
    }
  }

  /** Compares positions by the entities they hold; one instance per set, reused by every sort. */
  private final class EntityOrder implements PositionComparator {
    EntityComparator comparator;

    @Override
    public int compare(final int left, final int right) {
      return comparator.compare(packed[left], packed[right]);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Internals.
  // ---------------------------------------------------------------------------------------------

  private int[] sparsePageFor(final int index) {
    final int page = index >>> SPARSE_SHIFT;
    int[][] pages = sparse;
    if (page >= pages.length) {
      pages = Arrays.copyOf(pages, Math.max(page + 1, pages.length * 2));
      sparse = pages;
    }
    int[] sparsePage = pages[page];
    if (null == sparsePage) {
      sparsePage = new int[SPARSE_PAGE_SIZE];
      Arrays.fill(sparsePage, ABSENT);
      pages[page] = sparsePage;
    }
    return sparsePage;
  }

  private void growPacked(final int minimum) {
    final int capacity = Math.max(minimum, Math.max(16, packed.length + (packed.length >> 1)));
    packed = Arrays.copyOf(packed, capacity);
  }

  /**
   * Reserves room for {@code capacity} elements in the packed array, so that insertions up to that
   * size do not reallocate it.
   */
  public void reserve(final int capacity) {
    if (capacity > packed.length) {
      packed = Arrays.copyOf(packed, capacity);
    }
  }
}
