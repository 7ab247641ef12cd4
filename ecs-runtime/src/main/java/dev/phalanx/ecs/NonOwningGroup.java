package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Guards;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A group that owns no storage: it keeps its members in a sparse set of its own, so it never moves
 * components and any type (in-place storages included) may take part. Iteration walks the member
 * set and looks components up, like a view, but without testing each entity.
 *
 * <h2>Costs</h2>
 *
 * <p>{@code each}, {@code eachInOrder}: O(n) over members, no allocation. Membership changes: O(get
 * + excluded). Memory: one sparse set (a sparse entry and a packed {@code long} per member). Sorts:
 * {@code sort} O(n log n) comparator calls; {@code sortByLongKey}/{@code sortByFloatKey} n key
 * calls and O(n) per byte of the keys' range, plus 24 bytes per member kept for the next sort; the
 * insertion forms O(n) on almost sorted members.
 *
 * <h2>Order</h2>
 *
 * <p>Members sit at positions {@code [0, size())} of the member set. Entering appends; leaving
 * moves the last member into the leaver's position. A sort arranges the positions by ascending key
 * (or comparator order); {@link #eachInOrder} walks them from position 0, {@link #each} from the
 * last.
 */
public final class NonOwningGroup extends Group {

  private final MemberSet members = new MemberSet();

  NonOwningGroup(final Storage<?>[] get, final Storage<?>[] exclude, final Guards guards) {
    super(new Storage<?>[0], get, exclude);
    members.guards = guards;
    final SparseSet[] observed = Arrays.copyOf(get, get.length + exclude.length, SparseSet[].class);
    System.arraycopy(exclude, 0, observed, get.length, exclude.length);
    members.follows = observed;
  }

  /**
   * {@return the member set (positions {@code [0, size())}), for reading and for iterating with the
   * guard protocol of {@link SparseSet}; it changes only through the group's upkeep}
   */
  public SparseSet members() {
    return members;
  }

  SparseSet memberSet() {
    return members;
  }

  @Override
  public int size() {
    return members.size();
  }

  @Override
  public boolean contains(final long entity) {
    return members.contains(entity);
  }

  @Override
  boolean containsLive(final long entity) {
    return members.positionOfLive(entity) >= 0;
  }

  @Override
  public long entityAt(final int position) {
    return members.at(position);
  }

  @Override
  public void each(final LongConsumer action) {
    final SparseSet set = members;
    set.beginIteration();
    try {
      // A counted loop: the guard keeps the member set at least as large as the visited position.
      for (int position = set.size() - 1; position >= 0; position--) {
        final long entity = set.packed()[position];
        set.visit(position);
        action.accept(entity);
      }
    } finally {
      set.endIteration();
    }
  }

  /**
   * Calls {@code action} for each member, position 0 first: after a sort, in the sort's order
   * (smallest key first), the reverse of {@link #each}. The observed storages and the member set
   * are locked meanwhile, as during a chunk pass: the body may read and write components but every
   * structural change to an observed storage (and a sort of the group) is refused with a {@link
   * java.util.ConcurrentModificationException} before it changes anything; record such changes in a
   * {@link dev.phalanx.ecs.command.CommandBuffer CommandBuffer}. If the body throws, the walk stops
   * and the locks are released. O(n), no allocation.
   *
   * @param action called with each member
   */
  @Override
  public void eachInOrder(final LongConsumer action) {
    lockAll("an in-order iteration of");
    members.lock("an in-order iteration of", this);
    try {
      // Locked: neither the packed array nor the size can change while the members are visited.
      final long[] packed = members.packed();
      final int end = members.size();
      for (int position = 0; position < end; position++) {
        action.accept(packed[position]);
      }
    } finally {
      members.unlock();
      unlockAll();
    }
  }

  /**
   * Sorts the members (not the storages) by entity with an introsort: O(n log n) comparator calls,
   * each usually looking components up. The observed storages and the member set are locked while
   * the comparator runs: if it throws nothing has moved; if it tries a structural change it gets a
   * {@link java.util.ConcurrentModificationException}. For keys that can be computed once per
   * member, {@link #sortByFloatKey} and {@link #sortByLongKey} call user code n times instead.
   *
   * @param comparator orders two members
   */
  public void sort(final EntityComparator comparator) {
    lockAll("the comparator of a sort of");
    try {
      members.sort(comparator);
    } finally {
      unlockAll();
    }
  }

  /**
   * As {@link #sort(EntityComparator)}, with insertion sort: O(n) comparator calls when the members
   * are almost in order (a draw order between two frames), O(n²) on random data. Stable.
   *
   * @param comparator orders two members
   */
  public void insertionSort(final EntityComparator comparator) {
    lockAll("the comparator of a sort of");
    try {
      members.insertionSort(comparator);
    } finally {
      unlockAll();
    }
  }

  /**
   * Sorts the members by ascending {@code long} key, each member's key computed once (see {@link
   * SparseSet#sortByLongKey}): n calls of {@code key}, then an O(n) radix pass per byte of the
   * keys' range, then at most n swaps of the member set; no boxing, no call per comparison. Stable:
   * members with equal keys keep their current order. The observed storages and the member set are
   * locked while {@code key} runs: if it throws, nothing has moved (the old order stays); a
   * structural change from it is refused with a {@link java.util.ConcurrentModificationException}.
   * No allocation once the group has been sorted by key at its current size.
   *
   * <p>After the sort, {@link #entityAt entityAt(0)} holds the smallest key, {@link #eachInOrder}
   * visits the members by ascending key and {@link #each} by descending key.
   *
   * @param key the key of each member; an {@code int} key widens to {@code long}
   */
  public void sortByLongKey(final EntityLongKey key) {
    lockAll("the key function of a sort of");
    try {
      members.sortByLongKey(key);
    } finally {
      unlockAll();
    }
  }

  /**
   * As {@link #sortByLongKey}, with {@code float} keys (a depth, a distance) ordered as {@link
   * Float#compare} orders them.
   *
   * @param key the key of each member
   */
  public void sortByFloatKey(final EntityFloatKey key) {
    lockAll("the key function of a sort of");
    try {
      members.sortByFloatKey(key);
    } finally {
      unlockAll();
    }
  }

  /**
   * As {@link #sortByLongKey}, sorting the computed keys with insertion sort: the key function is
   * still called once per member, and the keys move O(n + number of inversions) times, so O(n) on
   * almost sorted members. Stable.
   *
   * @param key the key of each member
   */
  public void insertionSortByLongKey(final EntityLongKey key) {
    lockAll("the key function of a sort of");
    try {
      members.insertionSortByLongKey(key);
    } finally {
      unlockAll();
    }
  }

  /**
   * As {@link #insertionSortByLongKey}, with {@code float} keys ordered as {@link Float#compare}.
   *
   * @param key the key of each member
   */
  public void insertionSortByFloatKey(final EntityFloatKey key) {
    lockAll("the key function of a sort of");
    try {
      members.insertionSortByFloatKey(key);
    } finally {
      unlockAll();
    }
  }

  @Override
  void enter(final long entity) {
    members.append(entity);
  }

  @Override
  void leave(final long entity) {
    members.removeAt(members.positionOfLive(entity));
  }

  @Override
  void reset() {
    members.removeAll();
  }

  @Override
  void verify(final List<String> problems) {
    members.verify(problems);
    verifyMembership(problems);
  }

  /** The member set: a plain swap-and-pop sparse set. */
  private static final class MemberSet extends SparseSet {
    MemberSet() {
      super(DeletionPolicy.SWAP_AND_POP);
    }

    @Override
    public String describe() {
      return "member set of a non-owning group";
    }
  }
}
