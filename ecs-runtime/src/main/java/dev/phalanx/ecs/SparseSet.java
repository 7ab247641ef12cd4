package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Guards;
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
 *   <li>For every contained entity {@code e}: {@code packed[~sparse[index(e)]] == e}. An entry
 *       holds the complement of its element's position, so that an entry mapping to no element
 *       holds {@code ~ABSENT}, that is {@code 0}: sparse pages of {@value #SPARSE_PAGE_SIZE}
 *       entries are allocated on first use (zeroed by the JVM, with nothing to fill) and never
 *       freed.
 *   <li>With {@link DeletionPolicy#SWAP_AND_POP} positions {@code [0, size())} are all live.
 *   <li>With {@link DeletionPolicy#IN_PLACE} a position may hold a tombstone (version {@link
 *       Entity#TOMBSTONE_VERSION}) whose index bits hold the position of the next hole, or {@code
 *       -1}; the first hole is {@link #firstHole()}. {@code size()} counts holes.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>{@code contains}, {@code indexOf}, insertion and removal are O(1): a page lookup and one read
 * of the packed array. Sorting is O(n log n) comparisons on a permutation, then O(n) moves, without
 * allocation once the set has been sorted at its current size. {@code compact()} is O(n).
 *
 * <h2>Iteration guards</h2>
 *
 * <p>Iterations walk positions from the last down to {@code 0}. While one runs, the set knows its
 * <em>floor</em>: the position being visited; positions at or above it are visited (or were
 * appended after the iteration began and are not visited), positions below it are still to come.
 * Every change is checked against the floors of all iterations in progress <em>before</em> it is
 * made: a change that would move an element across a floor (so that it would be visited twice or
 * never) is refused with a {@link ConcurrentModificationException} and changes nothing. Removing
 * the visited element, or any element above the floor, moves the last element (also above the
 * floor) and is allowed; appending is always allowed; a removal that would leave the set smaller
 * than its floor is refused (the walk steps down one position at a time); sorting, compacting and
 * clearing are refused while any iteration runs. The callback iterations of views and groups keep
 * floors; external iterators ({@link EntityIterator}) cannot (an abandoned iterator must not block
 * the set) and check a log of the last {@value #CHANGE_LOG} moves at every step instead.
 *
 * <p>A set may also be <em>locked</em> (by chunk iterations, parallel iterations, sorts and
 * schedules): while it is, every structural change is refused.
 *
 * <h2>Shared reads</h2>
 *
 * <p>A set that is locked and that no thread is {@linkplain #permit permitted} to change is
 * <em>frozen</em>: nothing can move in it, so an iteration needs no floor (a non-owning group's
 * member set is also frozen while every storage it observes is). A callback iteration that begins
 * on a frozen set is a <em>shared read</em>: it counts itself atomically and keeps no floor, so any
 * number of threads may iterate the set at once (as a schedule's read-only systems do in one wave).
 * While shared reads run, the set stays frozen: releasing its last lock, or permitting a thread to
 * change it, is refused. Floors are kept by one thread at a time (the thread whose iteration began
 * first on an unfrozen set, and its nested iterations); another thread that begins an iteration of
 * a set that is not frozen while that one runs, or of a set that another thread is permitted to
 * change, is refused with a {@link ConcurrentModificationException} (a data race caught, not a
 * promise to catch every one).
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe, with two exceptions: any number of threads may iterate a frozen set and
 * {@linkplain #lock lock} and unlock it (locks are counted atomically), and with {@link
 * DeletionPolicy#IN_PLACE}, several threads may remove distinct entities at once, as long as
 * nothing else (insertion, iteration, sorting, compaction, clearing) runs meanwhile. Each removal
 * writes only its own sparse slot, its own packed slot and the head of the free list, which is
 * updated with a CAS.
 */
public class SparseSet {

  /** Sentinel of the sparse array and of {@link #indexOf}: no position. */
  public static final int ABSENT = -1;

  /** Entries per sparse page. */
  public static final int SPARSE_PAGE_SIZE = 4096;

  static final int SPARSE_SHIFT = 12;
  static final int SPARSE_MASK = SPARSE_PAGE_SIZE - 1;

  /** The largest packed array the core allocates (the JVM's array limit, with its header room). */
  static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

  /** A sparse entry that maps to no element: the complement of {@link #ABSENT}, {@code 0}. */
  static final int NO_ENTRY = ~ABSENT;

  private static final long TOMBSTONE_BITS = Entity.of(0, Entity.TOMBSTONE_VERSION);
  private static final long[] NO_ENTITIES = new long[0];
  private static final int[][] NO_PAGES = new int[0][];
  private static final int[] NO_FLOORS = new int[0];
  private static final VarHandle FIRST_HOLE;
  private static final VarHandle LOCKS;
  private static final VarHandle SHARED_READS;
  private static final int CHANGE_LOG = 64;
  private static final int REARRANGED = -1;

  static {
    try {
      final MethodHandles.Lookup lookup = MethodHandles.lookup();
      FIRST_HOLE = lookup.findVarHandle(SparseSet.class, "firstHole", int.class);
      LOCKS = lookup.findVarHandle(SparseSet.class, "locks", int.class);
      SHARED_READS = lookup.findVarHandle(SparseSet.class, "sharedReads", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final DeletionPolicy policy;
  // Whether every removal first calls elementRemoving (see removalsAnnounced): one field test for
  // the sets that keep no index beside their elements.
  private boolean announcesRemovals;
  private int[][] sparse = NO_PAGES;
  private long[] packed = NO_ENTITIES;
  private int size;

  // Head of the free list of holes (IN_PLACE only); updated with a CAS by concurrent removals.
  @SuppressWarnings("unused") // written through FIRST_HOLE
  private volatile int firstHole = ABSENT;

  // The guard count of the registry this set belongs to (null when standalone): how many iterations
  // and locks are active over all its sets, so that changes skip their checks when there are none.
  Guards guards;

  // Callback iterations in progress that keep floors: their number, the innermost one's floor, the
  // outer ones' floors, and the one thread that runs them.
  private int iterations;
  private int floor;
  private int[] outerFloors = NO_FLOORS;
  private Thread tracker;

  // The sets whose changes alone change this one (a non-owning group's member set follows the
  // storages it observes), or null: while they are all frozen, so is this set.
  SparseSet[] follows;

  // Shared reads in progress: iterations of the set while it is frozen, from any thread. Changed
  // through SHARED_READS; while it is not zero the set stays frozen (see beginIteration).
  private int sharedReads;

  // Locks (chunk iterations, sorts, schedules): their number, changed through LOCKS, and what took
  // the outermost, for messages.
  private int locks;
  private String lockedBy;
  private Object lockedOf;
  // The thread whose structural changes the one lock lets through (see permit), or null.
  private Thread permitted;

  // For external iterators: a counter of moves and a log of the last CHANGE_LOG of them, each the
  // two positions of a swap (low, high) or REARRANGED. Kept only once an external iterator has
  // read the counter (logMoves): an iterator needs the moves made after it was created, so a set
  // that never had one skips the log, which is a fifth of a one-entity destroy.
  private int modifications;
  private boolean logMoves;
  // Bumped by every move, removal and filled hole (not by appends): see structureStamp(). A long,
  // so that a value kept across passes (Query.Alignment) cannot come round again.
  private long edits;
  private final int[] changeLow = new int[CHANGE_LOG];
  private final int[] changeHigh = new int[CHANGE_LOG];

  // Sorts this set: the reused permutation and entity adapter, and the algorithms.
  private final SetSorter sorter = new SetSorter(this);

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

  /** {@return the deletion policy, fixed at construction} */
  public final DeletionPolicy policy() {
    return policy;
  }

  /** {@return the number of positions in use, tombstones included} */
  public final int size() {
    return size;
  }

  /** {@return whether no position is in use} */
  public final boolean isEmpty() {
    return 0 == size;
  }

  /**
   * {@return the packed array of entities, for reading} Positions {@code [0, size())} are
   * meaningful; with in-place deletion some of them are tombstones ({@link Entity#isTombstone}).
   * The array is replaced when the set grows: do not keep it across insertions, and never write to
   * it.
   */
  public final long[] packed() {
    return packed;
  }

  /** {@return the position of the most recent hole, or {@link #ABSENT} when there is none} */
  public final int firstHole() {
    return (int) FIRST_HOLE.getVolatile(this);
  }

  /** {@return whether the set has holes (in-place deletion only)} */
  public final boolean hasTombstones() {
    return ABSENT != firstHole();
  }

  /**
   * {@return whether {@code entity} (index and version) is in the set}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public final boolean contains(final long entity) {
    return ABSENT != indexOf(entity);
  }

  /**
   * {@return the position of {@code entity} in the packed array, or {@link #ABSENT} if it is not in
   * the set}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
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
    final int position = ~sparsePage[index & SPARSE_MASK];
    return position >= 0 && packed[position] == entity ? position : ABSENT;
  }

  /**
   * {@return the position of {@code entity}}
   *
   * @param entity an entity of the set
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
   * As {@link #indexOf}, for an entity known to be live in the registry that owns this set (group
   * upkeep): a registry never holds two versions of one index, and removal resets the sparse entry,
   * so the entry alone answers and the packed array is not read (a cache miss saved when positions
   * are scattered). Not for handles that may be stale.
   */
  final int positionOfLive(final long entity) {
    final int index = (int) entity;
    final int[][] pages = sparse;
    final int page = index >>> SPARSE_SHIFT;
    if (page >= pages.length) {
      return ABSENT;
    }
    final int[] sparsePage = pages[page];
    final int position = null == sparsePage ? ABSENT : ~sparsePage[index & SPARSE_MASK];
    assert position == indexOf(entity) : Entity.toString(entity) + " is not live in " + describe();
    return position;
  }

  /**
   * {@return the entity of the set whose index is {@code index}, whatever its version, or {@link
   * Entity#NULL}}
   *
   * @param index an entity index ({@link Entity#index})
   */
  public final long entityWithIndex(final int index) {
    final int[][] pages = sparse;
    final int page = index >>> SPARSE_SHIFT;
    if (index < 0 || page >= pages.length || null == pages[page]) {
      return Entity.NULL;
    }
    final int position = ~pages[page][index & SPARSE_MASK];
    return position >= 0 ? packed[position] : Entity.NULL;
  }

  /**
   * {@return the entity at {@code position} (a tombstone for a hole)}
   *
   * @param position a position in {@code [0, size())}
   */
  public final long at(final int position) {
    if (position < 0 || position >= size) {
      throw new IndexOutOfBoundsException("position " + position + " outside [0, " + size + ")");
    }
    return packed[position];
  }

  /**
   * Returns whether {@code entity} sits at {@code position}: the O(1) test, with no sparse lookup,
   * that lets a loop over another set in the same order reach this set's element by position.
   *
   * @param position any position
   * @param entity an entity
   * @return whether {@code position} is in {@code [0, size())} and holds {@code entity}
   */
  final boolean holdsAt(final int position, final long entity) {
    return position >= 0 && position < size && packed[position] == entity;
  }

  /**
   * Returns whether this set and {@code other} hold the same entities at positions {@code [from,
   * to)}, both sets holding that range: one vectorized comparison of their packed arrays. A loop
   * over this set can then reach {@code other}'s elements of the range by position, for as long as
   * {@code other}'s {@link #structureStamp()} stays the same. For generated code, through {@link
   * Query}.
   *
   * @param other another set
   * @param from the first position, inclusive
   * @param to the last position, exclusive
   * @return whether both sets hold the range and agree on it
   */
  final boolean samePositions(final SparseSet other, final int from, final int to) {
    if (other == this) {
      return 0 <= from && from <= to && to <= size;
    }
    return 0 <= from
        && from <= to
        && to <= size
        && to <= other.size
        && Arrays.mismatch(packed, from, to, other.packed, from, to) < 0;
  }

  /**
   * Returns a number that changes whenever an element of this set moves or is removed or a hole is
   * filled, and stays the same when an element is appended: while it stays the same, every position
   * below the size it had still holds the same entity or hole. It only counts up, one per change,
   * and is a {@code long}: it does not come back to a value it had (2^64 changes). For generated
   * code (through {@link Query}), storages that cache positions, and anyone who wants to know
   * whether the set's membership or order changed since a look (a schedule's change conditions).
   *
   * @return the current stamp
   */
  public final long structureStamp() {
    return edits;
  }

  /**
   * {@return a short description used in exception messages, such as {@code storage of Position}}
   * Storages override it to name their component.
   */
  public String describe() {
    return "sparse set";
  }

  /**
   * {@return what one element of this set is called in exception messages, such as {@code
   * Position}} A set without payload holds "an element"; storages override it to name their
   * component.
   */
  String elementName() {
    return "an element";
  }

  /** {@return whether structural changes are currently refused because the set is locked} */
  public final boolean isLocked() {
    return 0 != locks;
  }

  /**
   * {@return whether a callback iteration (a view's or a group's {@code each}) walks the set now,
   * shared reads included}
   */
  public final boolean isIterated() {
    return 0 != iterations || 0 != sharedReads;
  }

  /**
   * {@return whether the set is frozen: locked, and no thread is {@linkplain #permit permitted} to
   * change it} Iterations of a frozen set are shared reads (see the class comment).
   */
  public final boolean isFrozen() {
    return (0 != locks && null == permitted) || (null != follows && allFrozen(follows));
  }

  private static boolean allFrozen(final SparseSet[] sets) {
    for (final SparseSet set : sets) {
      if (!set.isFrozen()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reserves room for {@code capacity} elements in the packed array, so that insertions up to that
   * size do not reallocate it; a storage also allocates its payload pages for positions {@code [0,
   * capacity)} (EnTT's {@code storage.reserve(n)}). Sparse pages depend on the entities' indices
   * and are otherwise allocated on first use; reserving allocates those of indices {@code [0,
   * capacity)}, the ones the first {@code capacity} entities of a fresh registry get, so that
   * filling a fresh world of that size allocates nothing more. O(capacity) when it grows.
   *
   * @param capacity the number of elements to make room for
   * @throws IllegalArgumentException if {@code capacity} is negative
   */
  public final void reserve(final int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException(
          "cannot reserve room for " + capacity + " elements in " + describe());
    }
    if (capacity > packed.length) {
      packed = Arrays.copyOf(packed, capacity);
    }
    final int pages =
        (int) ((Math.min(capacity, Entity.MAX_INDEX + 1L) + SPARSE_MASK) >>> SPARSE_SHIFT);
    for (int page = 0; page < pages; page++) {
      sparsePageFor(page << SPARSE_SHIFT);
    }
    reservePayload(capacity);
  }

  /**
   * Called by {@link #reserve} after the packed array: a storage allocates its payload pages for
   * positions {@code [0, capacity)} too. The set has no payload.
   */
  void reservePayload(final int capacity) {}

  // ---------------------------------------------------------------------------------------------
  // The iteration guard protocol. A callback iteration over this set calls beginIteration() once,
  // visit(position) before handing each element to user code, and endIteration() in a finally
  // block. Calls must nest. Generated loops reach these through Query's protected helpers.
  // ---------------------------------------------------------------------------------------------

  /**
   * Starts a callback iteration over this set: until {@link #endIteration()}, changes that would
   * move an element across the iteration's floor are refused. The floor starts at {@link #size()}.
   * On a frozen set (locked, no thread permitted to change it) the iteration is a shared read
   * instead (see the class comment). For generated code, through {@link Query}.
   *
   * @throws ConcurrentModificationException if another thread keeps the set's floors, or is
   *     permitted to change the set
   */
  final void beginIteration() {
    final Thread self = Thread.currentThread();
    final int depth = iterations;
    if (0 != depth && tracker == self) {
      nestIteration(depth);
    } else if (isFrozen()) {
      SHARED_READS.getAndAdd(this, 1);
    } else {
      if (0 != depth || (0 != locks && permitted != self)) {
        throw SetRefusals.iteratedElsewhere(this, 0 != depth ? tracker : permitted, 0 != depth);
      }
      tracker = self;
      floor = size;
      iterations = 1;
    }
    if (null != guards) {
      guards.enter();
    }
  }

  // An iteration nested in one of the tracker's: the outer floor is kept for when it ends.
  private void nestIteration(final int depth) {
    if (depth > outerFloors.length) {
      outerFloors = Arrays.copyOf(outerFloors, Math.max(4, depth * 2));
    }
    outerFloors[depth - 1] = floor;
    floor = size;
    iterations = depth + 1;
  }

  /**
   * Records that the innermost iteration now visits {@code position}. A shared read keeps no floor:
   * while one runs, the set is frozen and no floor is consulted. For generated code, through {@link
   * Query}.
   *
   * @param position the position being visited
   */
  final void visit(final int position) {
    if (0 == sharedReads) {
      floor = position;
    }
  }

  /**
   * Ends the innermost callback iteration of the calling thread. For generated code.
   *
   * @throws IllegalStateException if the calling thread has no iteration of this set to end
   */
  final void endIteration() {
    final int depth = iterations - 1;
    if (depth >= 0 && tracker == Thread.currentThread()) {
      iterations = depth;
      if (depth > 0) {
        floor = outerFloors[depth - 1];
      } else {
        tracker = null;
      }
    } else if (0 != sharedReads) {
      SHARED_READS.getAndAdd(this, -1);
    } else {
      throw new IllegalStateException("no iteration of " + describe() + " to end");
    }
    if (null != guards) {
      guards.leave();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Checks. Every structural change calls them before it changes anything.
  // ---------------------------------------------------------------------------------------------

  /** Throws if the set is locked; {@code operation} names what was refused. */
  final void checkUnlocked(final String operation) {
    if (0 != locks && !permits()) {
      throw SetRefusals.locked(this, operation);
    }
  }

  /**
   * Throws if the set is locked, for an insertion into ({@code removal} false) or a removal from
   * {@code target} of {@code entity}'s component, which would change this set. No allocation unless
   * it throws. For storages that check a change before making it.
   *
   * @param removal whether the change is a removal
   * @param target the storage whose component the change adds or removes, for the message
   * @param entity the entity the change concerns, for the message
   * @throws ConcurrentModificationException if the set is locked
   */
  protected final void checkUnlocked(
      final boolean removal, final SparseSet target, final long entity) {
    if (0 != locks && !permits()) {
      throw SetRefusals.lockedChange(this, removal, target, entity);
    }
  }

  // Whether the calling thread is the permitted one and the lock that permits it the only one.
  private boolean permits() {
    return 1 == locks && null != permitted && permitted == Thread.currentThread();
  }

  /**
   * Lets {@code thread} make the structural changes this set's lock refuses, while that lock is the
   * only one held; {@code null} takes the permission back. A schedule locks every storage while a
   * wave of systems runs ({@link Registry#lockAll}) and permits, on each storage a system declared
   * it changes, the thread that runs that system: another thread is refused, and so is the
   * permitted thread once a second lock (a parallel pass it starts) is taken. Set it while the lock
   * is held, from the thread that took the lock or from the permitted thread itself; releasing the
   * last lock clears it. O(1); the unlocked path never reads it.
   *
   * @param thread the thread the lock lets through, or {@code null} for none
   */
  public final void permit(final Thread thread) {
    if (null != thread && 0 != sharedReads) {
      throw SetRefusals.permittedWhileShared(this, thread);
    }
    permitted = thread;
  }

  /**
   * Throws unless moves between positions within {@code [low, high]} are allowed: the set is
   * unlocked and no floor of an iteration in progress lies in {@code (low, high]}.
   */
  final void checkMoves(
      final int low,
      final int high,
      final boolean removal,
      final SparseSet target,
      final long entity) {
    checkUnlocked(removal, target, entity);
    if (0 != iterations && low < high && crossesFloor(low, high)) {
      throw SetRefusals.crossesFloor(this, low, high, removal, target, entity);
    }
  }

  /**
   * Throws unless the set may be rearranged (sorted, compacted, cleared): unlocked, not iterated.
   */
  final void checkRearrange(final String operation) {
    checkUnlocked(operation);
    if (0 != iterations) {
      throw SetRefusals.rearrangeIterated(this, operation);
    }
  }

  /**
   * Throws unless {@code entity}'s element at {@code position} may be removed: unlocked, and under
   * swap-and-pop the move of the last element into its slot crosses no floor. {@code target} is the
   * storage whose component is removed, for the message ({@code null}: this set).
   */
  final void checkRemoveAt(final int position, final long entity, final SparseSet target) {
    if (DeletionPolicy.IN_PLACE == policy) {
      checkUnlocked(true, target, entity);
    } else {
      checkMoves(position, size - 1, true, target, entity);
      if (0 != iterations && size - 1 < lowestFloor()) {
        // The walk's next position would lie past the end: the loop steps down one position at a
        // time (a counted loop the JIT unrolls), so the set may not shrink below what was visited.
        throw SetRefusals.shrinksBelowFloor(this, target, entity);
      }
    }
  }

  private int lowestFloor() {
    int lowest = floor;
    for (int i = 0; i < iterations - 1; i++) {
      lowest = Math.min(lowest, outerFloors[i]);
    }
    return lowest;
  }

  /**
   * {@return what holds the set's lock, as its holder named itself to {@link #lock}: {@code by}
   * followed by {@code of} ("a parallel chunk iteration of" and the group, say), or {@code null}
   * while the set is unlocked} For messages: code that refuses a change because the set {@link
   * #isLocked() is locked} can say by what. Locks nest; the holder named is the outermost one's.
   */
  public final String lockDescription() {
    return null == lockedOf ? lockedBy : lockedBy + " " + lockedOf;
  }

  private boolean crossesFloor(final int low, final int high) {
    if (low < floor && floor <= high) {
      return true;
    }
    for (int i = 0; i < iterations - 1; i++) {
      final int outer = outerFloors[i];
      if (low < outer && outer <= high) {
        return true;
      }
    }
    return false;
  }

  /**
   * Forbids structural changes of this set until {@link #unlock()}: while locked, every insertion,
   * removal, sort or move that would change it is refused with a {@link
   * ConcurrentModificationException} before anything changes, and reading stays allowed. Parallel
   * iterations lock the sets they read; a scheduler locks the storages a wave of systems shares
   * among threads. {@code by} and {@code of} name the holder in refusal messages ("a chunk
   * iteration of", a group; joined with a space). Locks nest: the set is unlocked when every lock
   * is released. Release each lock in a {@code finally} block, from the thread that took it.
   *
   * @param by what holds the lock, for messages
   * @param of what it holds it for, or {@code null}
   */
  public final void lock(final String by, final Object of) {
    if (0 == (int) LOCKS.getAndAdd(this, 1)) {
      lockedBy = by;
      lockedOf = of;
    }
    if (null != guards) {
      guards.enter();
    }
  }

  /**
   * Releases one {@link #lock}.
   *
   * @throws IllegalStateException if the set is not locked, or if this is its last lock and shared
   *     reads of it still run (they began because the lock froze it)
   */
  public final void unlock() {
    int held;
    do {
      held = locks;
      if (0 == held) {
        throw new IllegalStateException(describe() + " is not locked");
      }
      if (1 == held && 0 != sharedReads) {
        throw new IllegalStateException(
            "cannot release the last lock of " + describe() + ": shared reads of it still run");
      }
    } while (!LOCKS.compareAndSet(this, held, held - 1));
    if (1 == held) {
      lockedBy = null;
      lockedOf = null;
      permitted = null;
    }
    if (null != guards) {
      guards.leave();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Raw structural changes: no checks, no signals. Callers have checked what they need.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the position the next {@link #insertAt} would use: the most recent hole under in-place
   * deletion, else the end.
   */
  final int nextPosition() {
    if (DeletionPolicy.IN_PLACE != policy) {
      // Only in-place deletion makes holes: skip the volatile read that would find none.
      return size;
    }
    final int hole = firstHole();
    return ABSENT != hole ? hole : size;
  }

  /**
   * Makes room for an insertion at {@link #nextPosition()} of an entity with {@code index}: grows
   * the packed array and allocates the sparse page, so that {@link #insertAt} cannot fail.
   */
  final void prepareSlot(final int index) {
    if (size == packed.length && (DeletionPolicy.IN_PLACE != policy || ABSENT == firstHole())) {
      growPacked(size + 1);
    }
    sparsePageFor(index);
  }

  /**
   * Inserts {@code entity} at {@code position}, which {@link #nextPosition()} returned and {@link
   * #prepareSlot} prepared.
   */
  final void insertAt(final long entity, final int position) {
    if (position == size) {
      size = position + 1;
    } else {
      edits++;
      FIRST_HOLE.setVolatile(this, (int) packed[position]);
    }
    packed[position] = entity;
    sparse[((int) entity) >>> SPARSE_SHIFT][((int) entity) & SPARSE_MASK] = ~position;
  }

  /**
   * Makes room to append {@code entities[from, to)} (bulk insertion): grows the packed array to
   * hold them and allocates their sparse pages, so that {@link #appendAll} cannot fail. Returns the
   * offset in {@code entities} of the first entity listed twice in the range, or {@code -1}. It
   * changes nothing visible: the check marks each entity's sparse entry with the position it would
   * get (past {@code size()}, where no element's entry points) and then clears the marks. Every
   * entity must be absent from the set. O(count), no allocation once the arrays are large enough.
   */
  final int prepareAppend(final long[] entities, final int from, final int to) {
    final int count = to - from;
    if (count > packed.length - size) {
      growPacked((int) Math.min(MAX_CAPACITY, (long) size + count));
    }
    final int first = size;
    int duplicate = -1;
    int marked = from;
    for (; marked < to; marked++) {
      final int index = (int) entities[marked];
      final int[] page = sparsePageFor(index);
      if (~page[index & SPARSE_MASK] >= first) {
        duplicate = marked;
        break;
      }
      page[index & SPARSE_MASK] = ~(first + marked - from);
    }
    for (int i = from; i < marked; i++) {
      final int index = (int) entities[i];
      sparse[index >>> SPARSE_SHIFT][index & SPARSE_MASK] = NO_ENTRY;
    }
    return duplicate;
  }

  /**
   * Appends {@code entities[from, to)}, none of them in the set, at positions {@code [size(),
   * size() + (to - from))} in that order, ignoring holes (as EnTT's range insertion does); {@link
   * #prepareAppend} made room. No check, no payload hook.
   */
  final void appendAll(final long[] entities, final int from, final int to) {
    final int first = size;
    final long[] dense = packed;
    System.arraycopy(entities, from, dense, first, to - from);
    final int[][] pages = sparse;
    for (int i = from, position = first; i < to; i++, position++) {
      final int index = (int) entities[i];
      pages[index >>> SPARSE_SHIFT][index & SPARSE_MASK] = ~position;
    }
    size = first + (to - from);
  }

  /** Appends an entity that is not in the set, ignoring holes, and returns its position. */
  final int append(final long entity) {
    final int position = size;
    if (position == packed.length) {
      growPacked(position + 1);
    }
    final int[] page = sparsePageFor((int) entity);
    size = position + 1;
    packed[position] = entity;
    page[((int) entity) & SPARSE_MASK] = ~position;
    return position;
  }

  /**
   * Removes the live entity at {@code position} following the deletion policy: swap-and-pop moves
   * the last element into the slot ({@link #moveElement}) and releases the last slot ({@link
   * #releaseElement}); in-place releases the slot and turns it into a hole. Under in-place deletion
   * it may run concurrently for distinct entities.
   */
  final void removeAt(final int position) {
    final int index = (int) packed[position];
    if (announcesRemovals) {
      elementRemoving(packed[position], position);
    }
    final int[] entityPage = sparse[index >>> SPARSE_SHIFT];
    if (DeletionPolicy.IN_PLACE == policy) {
      removeInPlace(position, entityPage, index & SPARSE_MASK);
    } else {
      swapAndPop(position, entityPage, index & SPARSE_MASK);
    }
  }

  /**
   * Removes {@code entity} if the set holds it, as {@code removeAt(indexOf(entity))} would, in one
   * pass that keeps the sparse page and offset the lookup found. For the registry's unobserved
   * destroy, which asks every set of the registry: fused and small, it inlines there with the
   * payload moves of the storages it meets (split, with the in-place branch inline, it did not:
   * about 1 ns of a destroy at 1M entities).
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  final void removeIfPresent(final long entity) {
    final int index = (int) entity;
    final int[][] pages = sparse;
    final int page = index >>> SPARSE_SHIFT;
    if (page >= pages.length) {
      return;
    }
    final int[] entityPage = pages[page];
    if (null == entityPage) {
      return;
    }
    final int offset = index & SPARSE_MASK;
    final int position = ~entityPage[offset];
    if (position < 0 || packed[position] != entity) {
      return;
    }
    if (announcesRemovals) {
      elementRemoving(entity, position);
    }
    if (DeletionPolicy.IN_PLACE == policy) {
      removeInPlace(position, entityPage, offset);
    } else {
      swapAndPop(position, entityPage, offset);
    }
  }

  /**
   * Swap-and-pop: moves the last element into {@code position}, releases the last slot and clears
   * the removed entity's sparse entry, {@code entityPage[offset]}.
   */
  private void swapAndPop(final int position, final int[] entityPage, final int offset) {
    final int last = size - 1;
    if (position != last) {
      final long moved = packed[last];
      moveElement(last, position);
      packed[position] = moved;
      sparse[((int) moved) >>> SPARSE_SHIFT][((int) moved) & SPARSE_MASK] = ~position;
      // Bumps edits too: one bump per removal, as a second one measured 4 ns slower at 4k.
      logChange(position, last);
    } else {
      edits++;
    }
    releaseElement(last);
    entityPage[offset] = NO_ENTRY;
    size = last;
  }

  /**
   * In-place: releases the slot, clears the sparse entry {@code entityPage[offset]} and pushes the
   * slot on the free list of holes with a CAS, so that removals of distinct entities may run
   * concurrently.
   */
  private void removeInPlace(final int position, final int[] entityPage, final int offset) {
    edits++;
    releaseElement(position);
    entityPage[offset] = NO_ENTRY;
    int head;
    do {
      head = (int) FIRST_HOLE.getVolatile(this);
      packed[position] = TOMBSTONE_BITS | (head & 0xFFFF_FFFFL);
    } while (!FIRST_HOLE.compareAndSet(this, head, position));
  }

  /** Swaps the elements at two live positions: entities, sparse entries and payload. */
  final void swap(final int left, final int right) {
    if (left == right) {
      return;
    }
    logChange(Math.min(left, right), Math.max(left, right));
    swapUnlogged(left, right);
  }

  /** As {@link #swap}, without logging the move: callers log one rearrangement for many swaps. */
  final void swapUnlogged(final int left, final int right) {
    final long[] entities = packed;
    final long a = entities[left];
    final long b = entities[right];
    entities[left] = b;
    entities[right] = a;
    sparse[((int) a) >>> SPARSE_SHIFT][((int) a) & SPARSE_MASK] = ~right;
    sparse[((int) b) >>> SPARSE_SHIFT][((int) b) & SPARSE_MASK] = ~left;
    swapElements(left, right);
  }

  /**
   * Removes the element of each entity of {@code batch[from, to)} that the set holds, in batch
   * order, as {@link #removeAt} would one by one: the same final arrangement, holes and free list.
   * An entity listed twice, or not held, is skipped. For a batch nothing can observe half-done
   * (Registry's unobserved destroy): no callback iteration or lock holds the set, so nothing is
   * checked; each move is logged for external iterators, as {@link #removeAt} logs it. Under
   * swap-and-pop the loop keeps the set's arrays and size in locals, where a removal at a time
   * reloads them around each payload hook. The move repeats {@link #removeAt}'s on purpose: moved
   * into a shared helper, it measured 10% slower in a single destroy (31-33 to 35-36 ns at 1M).
   */
  final void removeAll(final long[] batch, final int from, final int to) {
    if (DeletionPolicy.IN_PLACE == policy) {
      for (int i = from; i < to; i++) {
        final int position = indexOf(batch[i]);
        if (ABSENT != position) {
          removeAt(position);
        }
      }
      return;
    }
    final long[] entities = packed;
    final int[][] pages = sparse;
    final int start = size;
    int last = start - 1;
    for (int i = from; i < to && last >= 0; i++) {
      final long entity = batch[i];
      final int index = (int) entity;
      final int page = index >>> SPARSE_SHIFT;
      if (page >= pages.length || null == pages[page]) {
        continue;
      }
      final int[] entityPage = pages[page];
      final int position = ~entityPage[index & SPARSE_MASK];
      if (position < 0 || entities[position] != entity) {
        continue;
      }
      if (announcesRemovals) {
        elementRemoving(entity, position);
      }
      if (position != last) {
        final long moved = entities[last];
        moveElement(last, position);
        entities[position] = moved;
        pages[((int) moved) >>> SPARSE_SHIFT][((int) moved) & SPARSE_MASK] = ~position;
        logChange(position, last);
      }
      releaseElement(last);
      entityPage[index & SPARSE_MASK] = NO_ENTRY;
      last--;
    }
    if (last + 1 != start) {
      size = last + 1;
      edits++;
    }
  }

  /** Removes every element (and every hole), releasing their payload. Pages are kept. */
  final void removeAll() {
    final long[] entities = packed;
    for (int position = size - 1; position >= 0; position--) {
      final long entity = entities[position];
      if (!Entity.isTombstone(entity)) {
        if (announcesRemovals) {
          elementRemoving(entity, position);
        }
        sparse[((int) entity) >>> SPARSE_SHIFT][((int) entity) & SPARSE_MASK] = NO_ENTRY;
        releaseElement(position);
      }
    }
    size = 0;
    FIRST_HOLE.setVolatile(this, ABSENT);
    logChange(REARRANGED, REARRANGED);
  }

  /**
   * Removes every hole by moving live elements from the back into the holes, so that positions
   * {@code [0, size())} are live again. Only elements that were behind a hole move. O(size).
   *
   * @throws ConcurrentModificationException if the set is locked or iterated
   */
  public void compact() {
    if (!hasTombstones()) {
      return;
    }
    checkRearrange("compact");
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
      sparse[((int) moved) >>> SPARSE_SHIFT][((int) moved) & SPARSE_MASK] = ~left;
      right--;
    }
    size = right + 1;
    FIRST_HOLE.setVolatile(this, ABSENT);
    logChange(REARRANGED, REARRANGED);
  }

  // ---------------------------------------------------------------------------------------------
  // Payload hooks: a set without payload leaves them empty; storages override them.
  // ---------------------------------------------------------------------------------------------

  /**
   * Moves the payload at {@code from} to {@code to}; the slot at {@code to} is free.
   *
   * @param from the position whose payload moves
   * @param to the free position it moves to
   */
  protected void moveElement(final int from, final int to) {}

  /**
   * Swaps the payloads at two positions.
   *
   * @param left one position
   * @param right the other position
   */
  protected void swapElements(final int left, final int right) {}

  /**
   * Releases the payload at {@code position} (for example clears a reference so it can be GC'd).
   *
   * @param position the position being vacated
   */
  protected void releaseElement(final int position) {}

  /**
   * Makes every removal from this set call {@link #elementRemoving} first. For storages that keep
   * an index by entity beside their elements; call it from the constructor.
   */
  protected final void announceRemovals() {
    announcesRemovals = true;
  }

  /**
   * Called by every removal of an element, once {@link #announceRemovals()} was called: single
   * removals, batch removals of a destroy, and removing every element; after the destroy listeners
   * ran and before the element leaves, so that its payload is still readable at {@code position}.
   * It must not throw nor change this set. A relationship's storage unlinks the source from its
   * target's list here, in O(1).
   *
   * @param entity the entity whose element is removed
   * @param position its position
   */
  protected void elementRemoving(final long entity, final int position) {}

  // ---------------------------------------------------------------------------------------------
  // Sorting. Comparators see a set that does not change: the order is computed on a permutation of
  // positions while the set is locked, then applied. A comparator that throws leaves the set as it
  // was; one that tries a structural change gets a ConcurrentModificationException.
  // ---------------------------------------------------------------------------------------------

  /**
   * Sorts the elements by entity with an introsort (quicksort, heapsort past a depth limit,
   * insertion sort for short ranges). Payloads move with their entities.
   *
   * @param comparator orders two entities
   * @throws IllegalStateException if the set has tombstones (call {@link #compact()} first) or may
   *     not be sorted on its own (a storage owned by a group)
   * @throws ConcurrentModificationException if the set is locked or iterated, or the comparator
   *     tries a structural change
   */
  public final void sort(final EntityComparator comparator) {
    checkSortable();
    SetSorter.applyOrder(
        this, size, sorter.computeOrder(size, sorter.entityOrder(comparator), false));
  }

  /**
   * Sorts the elements by comparing the elements at two positions; see {@link PositionComparator}.
   * The comparator is given the positions the elements have before the sort: nothing moves until
   * the order is known.
   *
   * @param comparator orders the elements at two positions
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void sortByPosition(final PositionComparator comparator) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.computeOrder(size, comparator, false));
  }

  /**
   * Sorts with insertion sort, which is O(n) on almost sorted data and stable.
   *
   * @param comparator orders the elements at two positions
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void insertionSortByPosition(final PositionComparator comparator) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.computeOrder(size, comparator, true));
  }

  /**
   * Sorts with insertion sort, comparing entities: O(n) comparisons on almost sorted data (each
   * element a few positions from its place, as a draw order from one frame to the next), O(n²) on
   * random data. Stable. As {@link #sort(EntityComparator)}, nothing moves until the order is
   * known, so a comparator that throws leaves the set as it was.
   *
   * @param comparator orders two entities
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void insertionSort(final EntityComparator comparator) {
    checkSortable();
    SetSorter.applyOrder(
        this, size, sorter.computeOrder(size, sorter.entityOrder(comparator), true));
  }

  /**
   * Sorts the elements by ascending {@code long} key, computing each element's key once: {@code
   * key} is called n times (the set locked), then the keys are radix sorted with the positions
   * alongside (one O(n) pass per byte of the keys' range, at most eight) and the elements follow.
   * No comparator call per comparison, no boxing. Stable: equal keys keep their current order. If
   * {@code key} throws, nothing has moved. No allocation once the set has been sorted by key at its
   * current size (the keys and the radix buffers, 24 bytes per element, are kept).
   *
   * @param key the key of each element
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   * @throws java.util.ConcurrentModificationException as {@link #sort(EntityComparator)}, or if
   *     {@code key} tries a structural change
   */
  public final void sortByLongKey(final EntityLongKey key) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.computeKeyOrder(size, key, false));
  }

  /**
   * As {@link #sortByLongKey}, with {@code float} keys ordered as {@link Float#compare} orders
   * them.
   *
   * @param key the key of each element
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void sortByFloatKey(final EntityFloatKey key) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.computeFloatKeyOrder(size, key, false));
  }

  /**
   * As {@link #sortByLongKey}, sorting the computed keys with insertion sort: O(n + number of
   * inversions) key moves, so O(n) on almost sorted data, with the key function still called once
   * per element. Stable.
   *
   * @param key the key of each element
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void insertionSortByLongKey(final EntityLongKey key) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.computeKeyOrder(size, key, true));
  }

  /**
   * As {@link #insertionSortByLongKey}, with {@code float} keys ordered as {@link Float#compare}.
   *
   * @param key the key of each element
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void insertionSortByFloatKey(final EntityFloatKey key) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.computeFloatKeyOrder(size, key, true));
  }

  /**
   * Rearranges this set so that the entities it shares with {@code other} come first, in the order
   * they have in {@code other}; the others follow in their current order. O(size + other.size()).
   *
   * @param other the set whose order to follow
   * @throws IllegalStateException as {@link #sort(EntityComparator)}
   */
  public final void sortAs(final SparseSet other) {
    checkSortable();
    SetSorter.applyOrder(this, size, sorter.orderAs(other));
  }

  /** {@return this set's sorter} Owning groups sort their owned storages through the first's. */
  final SetSorter sorter() {
    return sorter;
  }

  /**
   * Checks that the set may be sorted now: no tombstones, unlocked, not iterated. Storages add the
   * ownership rule.
   *
   * @throws IllegalStateException if it has tombstones or is owned
   * @throws ConcurrentModificationException if it is locked or iterated
   */
  void checkSortable() {
    if (hasTombstones()) {
      throw new IllegalStateException(
          "cannot sort "
              + describe()
              + ": it has tombstones (in-place deletion); call compact() first");
    }
    checkRearrange("sort");
  }

  /** Logs a rearrangement (sort, compaction, clearing, restore): external iterators then stop. */
  final void logRearranged() {
    logChange(REARRANGED, REARRANGED);
  }

  // ---------------------------------------------------------------------------------------------
  // The change log, for external iterators.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns a counter of moves (swaps, swap-and-pop removals, rearrangements), and makes the set
   * log its moves from now on (for {@link #checkLog}).
   */
  final int modifications() {
    logMoves = true;
    return modifications;
  }

  /**
   * Throws if a move logged since {@code since} crossed {@code floorPosition}, or the set was
   * rearranged, or too many moves happened to tell.
   */
  final void checkLog(final int since, final int floorPosition, final String what) {
    final int count = modifications - since;
    if (0 == count) {
      return;
    }
    if (count < 0 || count > CHANGE_LOG) {
      throw SetRefusals.tooManyMoves(this, what, CHANGE_LOG);
    }
    for (int change = since; change != modifications; change++) {
      final int slot = change & (CHANGE_LOG - 1);
      final int low = changeLow[slot];
      if (REARRANGED == low) {
        throw SetRefusals.rearrangedWhileIterated(this, what);
      }
      if (low < floorPosition && floorPosition <= changeHigh[slot]) {
        throw SetRefusals.movedAcrossFloor(this, what, low, changeHigh[slot]);
      }
    }
  }

  private void logChange(final int low, final int high) {
    edits++;
    if (!logMoves) {
      return;
    }
    final int slot = modifications & (CHANGE_LOG - 1);
    changeLow[slot] = low;
    changeHigh[slot] = high;
    modifications++;
  }

  // ---------------------------------------------------------------------------------------------
  // Consistency.
  // ---------------------------------------------------------------------------------------------

  /**
   * Appends to {@code problems} every broken invariant of the set, in words ({@link
   * SparseSetVerifier}). O(size + the sparse array's capacity).
   */
  void verify(final java.util.List<String> problems) {
    SparseSetVerifier.verify(this, problems);
  }

  /** {@return the sparse pages, for {@link SparseSetVerifier} to read; never changed through it} */
  final int[][] sparsePages() {
    return sparse;
  }

  /** {@return the number of callback iterations registered on the set, shared reads included} */
  final int iterationCount() {
    return iterations + sharedReads;
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
      // Zeroed by the JVM: every entry already reads NO_ENTRY.
      sparsePage = new int[SPARSE_PAGE_SIZE];
      pages[page] = sparsePage;
    }
    return sparsePage;
  }

  /**
   * Grows the packed array to at least {@code minimum}, doubling it as EnTT's {@code std::vector}
   * does: n insertions one by one copy fewer than n elements in all and leave as much garbage as
   * the final array (growing by half would copy and leave twice that).
   */
  private void growPacked(final int minimum) {
    packed = Arrays.copyOf(packed, grownCapacity(packed.length, minimum, MAX_CAPACITY));
  }

  /**
   * {@return the capacity an array of {@code length} grows to so that it holds at least {@code
   * minimum}: twice {@code length} (at least 16), at most {@code limit}} Shared by every packed
   * array of the core, so that all of them grow alike.
   */
  static int grownCapacity(final int length, final int minimum, final int limit) {
    return (int) Math.min(limit, Math.max(minimum, Math.max(16L, 2L * length)));
  }

  // ---------------------------------------------------------------------------------------------
  // Snapshots.
  // ---------------------------------------------------------------------------------------------

  /**
   * Replaces the contents of this empty set with {@code entities[0, count)} in that packed order,
   * tombstones included (their index bits are the free list's links), with {@code hole} the first
   * hole. Only snapshot loading calls it, after checking the entities are distinct and the free
   * list well formed. No checks, no signals, no payload: the caller fills the payload. The set
   * takes ownership of {@code entities} when it is large enough (the loader's staging array is not
   * used afterwards), which saves a copy of the packed array. If {@code staged} is not null it is
   * the sparse array of exactly these entities (pages of {@value #SPARSE_PAGE_SIZE} entries holding
   * each element's complemented position, {@link #NO_ENTRY} where there is no element, {@code null}
   * pages where there is none), built while the loader checked them: the set adopts it instead of
   * building its own.
   */
  final void restore(final long[] entities, final int count, final int hole, final int[][] staged) {
    assert 0 == size : "restore into a non-empty set";
    if (count > packed.length && entities.length >= 16) {
      packed = entities;
    } else {
      if (count > packed.length) {
        packed = new long[Math.max(16, count)];
      }
      System.arraycopy(entities, 0, packed, 0, count);
    }
    if (null != staged) {
      sparse = staged;
    } else {
      for (int position = 0; position < count; position++) {
        final long entity = entities[position];
        if (!Entity.isTombstone(entity)) {
          sparsePageFor((int) entity)[((int) entity) & SPARSE_MASK] = ~position;
        }
      }
    }
    size = count;
    FIRST_HOLE.setVolatile(this, hole);
    logChange(REARRANGED, REARRANGED);
  }
}
