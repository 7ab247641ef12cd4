package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * The sorting of one sparse set: computes the order of its positions on a permutation, then moves
 * its elements (and, for a group, those of every owned storage) into that order. {@link
 * SparseSet}'s public sorts are its entry points; {@link OwningGroup} uses the same two steps for
 * its owned storages.
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>Comparators see a set that does not change: {@link #computeOrder} locks the set while it
 *       compares, so a comparator that tries a structural change gets a {@link
 *       java.util.ConcurrentModificationException}, and one that throws leaves the set as it was
 *       (nothing has moved yet).
 *   <li>{@code order[i]} is the position of the element that belongs at {@code i}: a permutation of
 *       {@code [0, count)} from {@link #computeOrder} and {@link #orderAs} until {@link
 *       #applyOrder} consumes it.
 *   <li>The entity adapter's comparator is cleared after every sort, so a sorter keeps no reference
 *       to user code.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>Key-based sorts ({@link #computeKeyOrder}) call the key function once per element, then sort
 * the {@code long} keys with the positions alongside: an LSD radix sort of one pass per byte of the
 * keys' range ({@code max - min}), passes where every key shares the byte skipped, so O(n) per pass
 * and at most eight passes; insertion sort for 32 elements or fewer, or when asked (O(n + number of
 * inversions), the right choice for almost sorted keys). Both are stable: equal keys keep their
 * current order. Memory: two {@code long} and two {@code int} arrays of the set's size, kept for
 * the next sort, and 8 KiB of digit counts.
 *
 * <p>An introsort (quicksort with a median of three, heapsort past a depth of {@code 2 log2 n},
 * insertion sort for ranges of 16 or fewer): O(n log n) comparisons, stack O(log n); already sorted
 * input splits evenly (the median of three is the middle element, and each part stays sorted),
 * under n log2 n comparisons. The insertion sort alone is O(n) on almost sorted data and stable.
 * Applying an order follows the permutation's cycles: at most n swaps. No allocation once the set
 * has been sorted at its current size (the permutation and the entity adapter are reused). One
 * sorter per set, not thread-safe, as the set.
 */
final class SetSorter {

  private static final int[] NO_POSITIONS = new int[0];
  private static final long[] NO_KEYS = new long[0];
  // Key-based sorts of at most this many elements use insertion sort rather than radix passes.
  private static final int SMALL_KEY_SORT = 32;
  private static final int RADIX_BITS = 8;
  private static final int BUCKETS = 1 << RADIX_BITS;

  private final SparseSet set;
  // The permutation being sorted, reused by every sort; grows, never shrinks.
  private int[] permutation = NO_POSITIONS;
  // The adapter of entity comparators, made by the first sort by entity.
  private EntityOrder entityOrder;
  // Key-based sorts: the keys, the radix sort's second buffers and its digit counts (one row of
  // BUCKETS per byte of a key); made by the first key sort, grow, never shrink.
  private long[] keys = NO_KEYS;
  private long[] keysSwap = NO_KEYS;
  private int[] permutationSwap = NO_POSITIONS;
  private int[] digitCounts = NO_POSITIONS;

  SetSorter(final SparseSet set) {
    this.set = set;
  }

  /**
   * Returns the set's reused adapter comparing positions by their entities: sorting by entity
   * allocates nothing after the first call. {@link #computeOrder} clears it.
   */
  PositionComparator entityOrder(final EntityComparator comparator) {
    EntityOrder order = entityOrder;
    if (null == order) {
      order = new EntityOrder(set);
      entityOrder = order;
    }
    order.comparator = comparator;
    return order;
  }

  /** Compares positions by the entities they hold; one instance per set, reused by every sort. */
  private static final class EntityOrder implements PositionComparator {
    private final SparseSet set;
    EntityComparator comparator;

    EntityOrder(final SparseSet set) {
      this.set = set;
    }

    @Override
    public int compare(final int left, final int right) {
      final long[] packed = set.packed();
      return comparator.compare(packed[left], packed[right]);
    }
  }

  /**
   * Computes the sorted order of positions {@code [0, count)}: {@code order[i]} is the position of
   * the element that belongs at {@code i}. The set is locked meanwhile, so the comparator sees it
   * unchanged and cannot change it.
   */
  int[] computeOrder(
      final int count, final PositionComparator comparator, final boolean insertion) {
    final int[] order = permutationOf(count);
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    set.lock("the comparator of a sort of", set);
    try {
      if (insertion) {
        insertionSort(order, 0, count, comparator);
      } else {
        introSort(
            order,
            0,
            count - 1,
            comparator,
            2 * (32 - Integer.numberOfLeadingZeros(Math.max(count, 1))));
      }
    } finally {
      set.unlock();
      if (null != entityOrder) {
        entityOrder.comparator = null;
      }
    }
    return order;
  }

  /**
   * Computes the order of positions {@code [0, count)} by ascending {@code long} key, equal keys in
   * position order: calls {@code key} once per element, the set locked, then sorts the keys (radix,
   * or insertion sort if {@code insertion}). A key function that throws has moved nothing.
   */
  int[] computeKeyOrder(final int count, final EntityLongKey key, final boolean insertion) {
    final long[] values = keysOf(count);
    final long[] packed = set.packed();
    set.lock("the key function of a sort of", set);
    try {
      for (int i = 0; i < count; i++) {
        values[i] = key.key(packed[i]);
      }
    } finally {
      set.unlock();
    }
    return sortKeys(count, values, insertion);
  }

  /** As {@link #computeKeyOrder(int, EntityLongKey, boolean)}, keys ordered as Float.compare. */
  int[] computeFloatKeyOrder(final int count, final EntityFloatKey key, final boolean insertion) {
    final long[] values = keysOf(count);
    final long[] packed = set.packed();
    set.lock("the key function of a sort of", set);
    try {
      for (int i = 0; i < count; i++) {
        values[i] = sortable(key.key(packed[i]));
      }
    } finally {
      set.unlock();
    }
    return sortKeys(count, values, insertion);
  }

  /**
   * {@return a {@code long} that orders as {@link Float#compare} orders {@code value}}: the bits of
   * a negative float (NaN canonical) have their magnitude bits flipped, so that a larger magnitude
   * gives a smaller signed number.
   */
  static long sortable(final float value) {
    final int bits = Float.floatToIntBits(value);
    return bits ^ ((bits >> 31) & 0x7fff_ffff);
  }

  private long[] keysOf(final int count) {
    if (keys.length < count) {
      keys = new long[Math.max(count, keys.length + (keys.length >> 1))];
    }
    return keys;
  }

  /** Sorts {@code values[0, count)} with a permutation of positions alongside; returns it. */
  private int[] sortKeys(final int count, final long[] values, final boolean insertion) {
    final int[] order = permutationOf(count);
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    if (insertion || count <= SMALL_KEY_SORT) {
      insertionSortKeys(values, order, count);
      return order;
    }
    return radixSort(values, order, count);
  }

  /** Stable insertion sort of signed keys, positions alongside: O(n + inversions). */
  private static void insertionSortKeys(final long[] values, final int[] order, final int count) {
    for (int i = 1; i < count; i++) {
      final long key = values[i];
      if (values[i - 1] <= key) {
        continue;
      }
      final int moving = order[i];
      int j = i;
      do {
        values[j] = values[j - 1];
        order[j] = order[j - 1];
        j--;
      } while (j > 0 && values[j - 1] > key);
      values[j] = key;
      order[j] = moving;
    }
  }

  /**
   * LSD radix sort of {@code values[0, count)}, positions alongside, one pass per byte of the keys'
   * range: the keys become offsets from the minimum (compared unsigned, which never overflows), so
   * narrow keys take few passes; a pass whose byte every key shares is skipped. Stable. Returns the
   * array that holds the order (the permutation or its second buffer).
   */
  private int[] radixSort(final long[] values, final int[] order, final int count) {
    long min = values[0];
    long max = values[0];
    for (int i = 1; i < count; i++) {
      min = Math.min(min, values[i]);
      max = Math.max(max, values[i]);
    }
    if (min == max) {
      return order;
    }
    final int passes = (64 - Long.numberOfLeadingZeros(max - min) + RADIX_BITS - 1) / RADIX_BITS;
    if (digitCounts.length == 0) {
      digitCounts = new int[(Long.SIZE / RADIX_BITS) * BUCKETS];
    }
    final int[] counts = digitCounts;
    Arrays.fill(counts, 0, passes * BUCKETS, 0);
    for (int i = 0; i < count; i++) {
      final long offset = values[i] - min;
      values[i] = offset;
      for (int pass = 0; pass < passes; pass++) {
        counts[pass * BUCKETS + (int) ((offset >>> (pass * RADIX_BITS)) & (BUCKETS - 1))]++;
      }
    }
    if (keysSwap.length < count) {
      keysSwap = new long[keys.length];
    }
    if (permutationSwap.length < count) {
      permutationSwap = new int[permutation.length];
    }
    long[] fromKeys = values;
    int[] fromOrder = order;
    long[] toKeys = keysSwap;
    int[] toOrder = permutationSwap;
    for (int pass = 0; pass < passes; pass++) {
      final int base = pass * BUCKETS;
      // Every pass holds the minimum's offset, 0, in its bucket 0: the keys share this pass's byte
      // when that bucket holds them all.
      if (count == counts[base]) {
        continue;
      }
      // Bucket starts: the prefix sums of the counts.
      int start = 0;
      for (int bucket = 0; bucket < BUCKETS; bucket++) {
        final int size = counts[base + bucket];
        counts[base + bucket] = start;
        start += size;
      }
      final int shift = pass * RADIX_BITS;
      for (int i = 0; i < count; i++) {
        final long key = fromKeys[i];
        final int at = counts[base + (int) ((key >>> shift) & (BUCKETS - 1))]++;
        toKeys[at] = key;
        toOrder[at] = fromOrder[i];
      }
      final long[] keysNow = toKeys;
      toKeys = fromKeys;
      fromKeys = keysNow;
      final int[] orderNow = toOrder;
      toOrder = fromOrder;
      fromOrder = orderNow;
    }
    return fromOrder;
  }

  /**
   * Computes the order that puts the entities the set shares with {@code other} first, in the order
   * they have in {@code other}, and the others after them in their current order. O(size +
   * other.size()).
   */
  int[] orderAs(final SparseSet other) {
    final int count = set.size();
    final long[] mine = set.packed();
    final int[] order = permutationOf(count);
    final long[] theirs = other.packed();
    final int theirSize = other.size();
    int next = 0;
    for (int position = 0; position < theirSize; position++) {
      final int at = set.indexOf(theirs[position]);
      if (SparseSet.ABSENT != at) {
        order[next++] = at;
      }
    }
    // The others, in their current order: mark the taken positions by their sparse lookups.
    for (int position = 0; position < count && next < count; position++) {
      if (SparseSet.ABSENT == other.indexOf(mine[position])) {
        order[next++] = position;
      }
    }
    return order;
  }

  /**
   * Rearranges positions {@code [0, count)} of {@code set} so that the element at {@code order[i]}
   * lands at {@code i}, following the permutation's cycles: at most {@code count} swaps. {@code
   * order} is consumed.
   */
  static void applyOrder(final SparseSet set, final int count, final int[] order) {
    for (int start = 0; start < count; start++) {
      int current = start;
      while (order[current] != start) {
        final int source = order[current];
        set.swapUnlogged(current, source);
        order[current] = current;
        current = source;
      }
      order[current] = current;
    }
    set.logRearranged();
  }

  /**
   * As {@link #applyOrder(SparseSet, int, int[])} on several aligned sets at once (the owned
   * storages of a group): the same permutation moves every one of them.
   */
  static void applyOrder(final SparseSet[] sets, final int count, final int[] order) {
    for (int start = 0; start < count; start++) {
      int current = start;
      while (order[current] != start) {
        final int source = order[current];
        for (final SparseSet set : sets) {
          set.swapUnlogged(current, source);
        }
        order[current] = current;
        current = source;
      }
      order[current] = current;
    }
    for (final SparseSet set : sets) {
      set.logRearranged();
    }
  }

  private int[] permutationOf(final int count) {
    if (permutation.length < count) {
      permutation = new int[Math.max(count, permutation.length + (permutation.length >> 1))];
    }
    return permutation;
  }

  private static void introSort(
      final int[] order, int low, int high, final PositionComparator comparator, int depth) {
    while (high - low > 16) {
      if (0 == depth--) {
        heapSort(order, low, high + 1, comparator);
        return;
      }
      final int pivot = partition(order, low, high, comparator);
      // Recurse into the smaller half, loop on the larger: the stack stays O(log n).
      if (pivot - low < high - pivot) {
        introSort(order, low, pivot - 1, comparator, depth);
        low = pivot + 1;
      } else {
        introSort(order, pivot + 1, high, comparator, depth);
        high = pivot - 1;
      }
    }
    insertionSort(order, low, high + 1, comparator);
  }

  private static int partition(
      final int[] order, final int low, final int high, final PositionComparator comparator) {
    final int middle = (low + high) >>> 1;
    // Median of three moved to 'high', which then serves as the pivot's slot.
    if (comparator.compare(order[middle], order[low]) < 0) {
      swap(order, middle, low);
    }
    if (comparator.compare(order[high], order[low]) < 0) {
      swap(order, high, low);
    }
    if (comparator.compare(order[middle], order[high]) < 0) {
      swap(order, middle, high);
    }
    final int pivot = order[high];
    int store = low;
    for (int i = low; i < high; i++) {
      if (comparator.compare(order[i], pivot) < 0) {
        swap(order, i, store++);
      }
    }
    swap(order, store, high);
    return store;
  }

  private static void insertionSort(
      final int[] order, final int from, final int to, final PositionComparator comparator) {
    for (int i = from + 1; i < to; i++) {
      final int moving = order[i];
      int j = i;
      while (j > from && comparator.compare(moving, order[j - 1]) < 0) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = moving;
    }
  }

  private static void heapSort(
      final int[] order, final int from, final int to, final PositionComparator comparator) {
    final int length = to - from;
    for (int root = length / 2 - 1; root >= 0; root--) {
      siftDown(order, from, root, length, comparator);
    }
    for (int end = length - 1; end > 0; end--) {
      swap(order, from, from + end);
      siftDown(order, from, 0, end, comparator);
    }
  }

  private static void siftDown(
      final int[] order,
      final int from,
      int root,
      final int length,
      final PositionComparator comparator) {
    while (true) {
      int child = 2 * root + 1;
      if (child >= length) {
        return;
      }
      if (child + 1 < length
          && comparator.compare(order[from + child], order[from + child + 1]) < 0) {
        child++;
      }
      if (comparator.compare(order[from + root], order[from + child]) >= 0) {
        return;
      }
      swap(order, from + root, from + child);
      root = child;
    }
  }

  private static void swap(final int[] order, final int left, final int right) {
    final int value = order[left];
    order[left] = order[right];
    order[right] = value;
  }
}
