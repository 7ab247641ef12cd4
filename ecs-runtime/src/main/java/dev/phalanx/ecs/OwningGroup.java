package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongConsumer;

/**
 * A full- or partial-owning group: its members occupy positions {@code [0, size())} of every owned
 * storage, in the same order, so component {@code i} of every owned type belongs to the same
 * entity.
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>For every owned storage {@code s} and position {@code p < size()}: {@code s.at(p) ==
 *       owned(0).at(p)}, and that entity matches the group.
 *   <li>An entity entering is swapped to position {@code size()} of every owned storage, then the
 *       size grows; an entity leaving is swapped to position {@code size() - 1}, then the size
 *       shrinks.
 *   <li>Nested groups (owning groups whose owned, get and exclude lists extend one another) share
 *       owned storages; a more restrictive group's range is a prefix of the less restrictive one's.
 *       Entries are applied from the least to the most restrictive group, exits in the opposite
 *       order.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>n = size()</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code each}, {@code eachChunk}</td><td>O(n), no lookup, no allocation</td></tr>
 *   <tr><td>{@code eachInOrder}</td><td>O(n), no allocation; the storages locked</td></tr>
 *   <tr><td>{@code parallelEachChunk}</td>
 *       <td>O(n / threads); about 4 tasks per thread (the pool's and the calling one), of at least
 *       {@value #MIN_AUTOMATIC_GRAIN} positions, unless a grain is set; allocates the pass and one
 *       submission per pool thread</td></tr>
 *   <tr><td>{@code contains}</td><td>O(1)</td></tr>
 *   <tr><td>{@code sort}, {@code sortByPosition}</td>
 *       <td>O(n log n) plus O(n) per other owned storage</td></tr>
 * </table>
 *
 * <h2>Chunks</h2>
 *
 * <p>{@link #eachChunk} hands out runs {@code [from, to)} that never cross a payload page of any
 * owned storage: every position {@code p} of a run is at offset {@code p & (pageSize - 1)} of page
 * {@code from >>> pageShift} in each of them. The {@link EntityRangeConsumer} forms also hand out
 * the packed entity array, indexed by the same positions, so a body can act on the entities it
 * finds without a second pass.
 *
 * <h2>Threading</h2>
 *
 * <p>{@link #parallelEachChunk} runs on the calling thread and the threads of a {@link
 * ForkJoinPool}, which take its tasks in order until none is left. While it runs, every storage the
 * group observes is locked: inserting, removing or moving their elements is refused with a {@link
 * ConcurrentModificationException} before anything changes (from any thread), and the lock is
 * released when the call returns, which it does only once every run has ended. Writing component
 * fields in place is allowed, each position from one thread only. How many tasks a pass makes is
 * its <em>grain</em>: per call ({@link #parallelEachChunk(ForkJoinPool, int, RangeConsumer)}), per
 * group ({@link #parallelGrain(int)}), or automatic. A pass that fits one task runs on the calling
 * thread alone: with the automatic grain, any group of at most {@value #MIN_AUTOMATIC_GRAIN}
 * members.
 *
 * <h2>Order</h2>
 *
 * <p>{@link #each} walks the members from the last position, {@link #eachInOrder} and {@link
 * #eachChunk} from position 0; after {@link #sort} or {@link #sortByPosition}, position 0 holds the
 * first member of the comparator's order.
 */
public final class OwningGroup extends Group {

  /**
   * The smallest task the automatic grain makes, in positions: below it, forking a task (about a
   * microsecond) would cost more than a cheap body saves.
   */
  public static final int MIN_AUTOMATIC_GRAIN = 1024;

  /** Tasks per thread (the pool's and the calling one) the automatic grain aims at. */
  private static final int TASKS_PER_THREAD = 4;

  private final Groups groups;
  private int length;
  // The group's grain for parallel passes; 0: automatic.
  private int parallelGrain;

  /** Scratch for {@link #enterDirectly}: the entity's position in each owned storage. */
  private final int[] positions;

  OwningGroup(
      final Groups groups,
      final Storage<?>[] owned,
      final Storage<?>[] get,
      final Storage<?>[] exclude) {
    super(owned, get, exclude);
    this.groups = groups;
    this.positions = new int[owned.length];
  }

  @Override
  public int size() {
    return length;
  }

  @Override
  public boolean contains(final long entity) {
    final int position = owned[0].indexOf(entity);
    return position >= 0 && position < length;
  }

  @Override
  boolean containsLive(final long entity) {
    final int position = owned[0].positionOfLive(entity);
    return position >= 0 && position < length;
  }

  @Override
  public long entityAt(final int position) {
    if (position < 0 || position >= length) {
      throw new IndexOutOfBoundsException(
          "position " + position + " outside the group's [0, " + length + ")");
    }
    return owned[0].packed()[position];
  }

  /**
   * {@return the largest run length {@link #eachChunk} uses: the smallest page size among the owned
   * storages}
   */
  public int chunkSize() {
    int size = Integer.MAX_VALUE;
    for (final Storage<?> storage : owned) {
      size = Math.min(size, storage.pageSize());
    }
    return size;
  }

  /**
   * Calls {@code action} for each member, position 0 first: after a sort, in the sort's order; the
   * reverse of {@link #each}. The group's storages are locked meanwhile, as during {@link
   * #eachChunk}: the body may read and write component fields, but every structural change to them
   * is refused with a {@link ConcurrentModificationException} before it changes anything. If the
   * body throws, the walk stops and the locks are released. O(n), no allocation.
   *
   * @param action called with each member
   */
  @Override
  public void eachInOrder(final LongConsumer action) {
    lockAll("an in-order iteration of");
    try {
      // Locked: neither the packed array nor the size can change while the members are visited.
      final long[] packed = owned[0].packed();
      final int end = length;
      for (int position = 0; position < end; position++) {
        action.accept(packed[position]);
      }
    } finally {
      unlockAll();
    }
  }

  @Override
  public void each(final LongConsumer action) {
    final Storage<?> lead = owned[0];
    lead.beginIteration();
    try {
      for (int position = length - 1;
          position >= 0;
          position = Math.min(position - 1, length - 1)) {
        final long entity = lead.packed()[position];
        lead.visit(position);
        action.accept(entity);
      }
    } finally {
      lead.endIteration();
    }
  }

  /**
   * Calls {@code action} for consecutive runs of positions covering {@code [0, size())}, first to
   * last, each within one page of every owned storage. The group's storages (owned, get and
   * excluded) are locked meanwhile: the body may read and write component fields but every
   * structural change to them is refused. If the body throws, the iteration stops and the locks are
   * released.
   *
   * @param action called with each run {@code [from, to)}
   */
  public void eachChunk(final RangeConsumer action) {
    runs("a chunk iteration of", action, null);
  }

  /**
   * As {@link #eachChunk(RangeConsumer)}, handing each run the group's entities as well: {@code
   * entities[p]} is the member at position {@code p}. A body can so act on what it finds in the
   * same pass, for example record {@code commands.destroy(entities[p])} into a {@link
   * dev.phalanx.ecs.command.CommandBuffer CommandBuffer} applied after the loop (the storages are
   * locked during it). Allocates nothing.
   *
   * @param action called with the entities and each run {@code [from, to)}
   */
  public void eachChunk(final EntityRangeConsumer action) {
    runs("a chunk iteration of", null, action);
  }

  private void runs(
      final String operation, final RangeConsumer ranges, final EntityRangeConsumer entities) {
    final int chunk = chunkSize();
    lockAll(operation);
    try {
      // Locked: the packed array cannot be replaced while the runs are visited.
      final long[] packed = owned[0].packed();
      final int end = length;
      for (int from = 0; from < end; from += chunk) {
        run(ranges, entities, packed, from, Math.min(end, from + chunk));
      }
    } finally {
      unlockAll();
    }
  }

  private static void run(
      final RangeConsumer ranges,
      final EntityRangeConsumer entities,
      final long[] packed,
      final int from,
      final int to) {
    if (null != ranges) {
      ranges.accept(from, to);
    } else {
      entities.accept(packed, from, to);
    }
  }

  /**
   * As {@link #eachChunk}, with runs spread over the threads of {@code pool}, in tasks of the
   * group's grain ({@link #parallelGrain()}; automatic unless set). Returns only when every task is
   * done, also when a run throws: then the runs not started yet are skipped, and the first
   * exception is rethrown with the others attached as suppressed.
   *
   * <p>Runs of a parallel pass may be shorter than a page (a task may start inside one), but never
   * cross a page of an owned storage, and tasks start at a multiple of the alignment (see {@link
   * #parallelEachChunk(ForkJoinPool, int, RangeConsumer)}). A pass that fits one task runs on the
   * calling thread, without the pool.
   *
   * @param pool the pool whose threads run the tasks
   * @param action called with each run {@code [from, to)}, from several threads at once
   * @throws ConcurrentModificationException if the body (or another thread) tries a structural
   *     change of an observed storage while it runs
   */
  public void parallelEachChunk(final ForkJoinPool pool, final RangeConsumer action) {
    parallelRuns(pool, parallelGrain, action, null);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, RangeConsumer)} with a grain for this call: the
   * positions {@code [0, size())} are cut into tasks of {@code grain} positions, rounded up to the
   * alignment (the last task shorter); a task then calls {@code action} for its runs, each within
   * one page. The alignment is the grain rounded up to a power of two if it is below the chunk size
   * ({@link #chunkSize()}), else the chunk size (and the grain is rounded up to whole chunks):
   * tasks start at multiples of it, so the same size and grain always give the same runs. The
   * calling thread and the pool's threads take the tasks in order until none is left.
   *
   * <p>{@code grain == 0} chooses automatically: {@code max(}{@value #MIN_AUTOMATIC_GRAIN}{@code ,
   * ceil(size() / (4 * (pool.getParallelism() + 1))))}, about four tasks per thread (the calling
   * one included) and never fewer than {@value #MIN_AUTOMATIC_GRAIN} positions each, so 8,192 cheap
   * elements make eight tasks on a 2-thread pool. Taking a task costs an atomic increment; pick a
   * larger grain for a body of a few nanoseconds per element on a large group, a smaller one for a
   * costly body on a small one.
   *
   * @param pool the pool whose threads run the tasks
   * @param grain the most positions a task holds (rounded up as above), or 0 for the automatic
   *     grain
   * @param action called with each run {@code [from, to)}, from several threads at once
   * @throws IllegalArgumentException if {@code grain} is negative
   * @throws ConcurrentModificationException if the body (or another thread) tries a structural
   *     change of an observed storage while it runs
   */
  public void parallelEachChunk(
      final ForkJoinPool pool, final int grain, final RangeConsumer action) {
    parallelRuns(pool, checkGrain(grain), action, null);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, RangeConsumer)}, handing each run the group's
   * entities as well (see {@link #eachChunk(EntityRangeConsumer)}). To act on the entities, record
   * into one {@link dev.phalanx.ecs.command.CommandBuffer CommandBuffer} per run (see {@link
   * dev.phalanx.ecs.command.CommandBuffers CommandBuffers}).
   *
   * @param pool the pool whose threads run the tasks
   * @param action called with the entities and each run {@code [from, to)}, from several threads at
   *     once
   * @throws ConcurrentModificationException if the body (or another thread) tries a structural
   *     change of an observed storage while it runs
   */
  public void parallelEachChunk(final ForkJoinPool pool, final EntityRangeConsumer action) {
    parallelRuns(pool, parallelGrain, null, action);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, EntityRangeConsumer)} with a grain for this call
   * (see {@link #parallelEachChunk(ForkJoinPool, int, RangeConsumer)}).
   *
   * @param pool the pool whose threads run the tasks
   * @param grain the most positions a task holds, or 0 for the automatic grain
   * @param action called with the entities and each run {@code [from, to)}, from several threads at
   *     once
   * @throws IllegalArgumentException if {@code grain} is negative
   * @throws ConcurrentModificationException if the body (or another thread) tries a structural
   *     change of an observed storage while it runs
   */
  public void parallelEachChunk(
      final ForkJoinPool pool, final int grain, final EntityRangeConsumer action) {
    parallelRuns(pool, checkGrain(grain), null, action);
  }

  /**
   * {@return the group's grain for parallel passes: the most positions a task holds, or 0 for the
   * automatic grain (the default)} See {@link #parallelEachChunk(ForkJoinPool, int,
   * RangeConsumer)}; generated queries delegate to their group, so this is also their setting.
   */
  public int parallelGrain() {
    return parallelGrain;
  }

  /**
   * Sets the group's grain for the parallel passes that take none (see {@link
   * #parallelEachChunk(ForkJoinPool, int, RangeConsumer)}), for every later pass until set again.
   *
   * @param grain the most positions a task holds, or 0 for the automatic grain
   * @throws IllegalArgumentException if {@code grain} is negative
   */
  public void parallelGrain(final int grain) {
    parallelGrain = checkGrain(grain);
  }

  private static int checkGrain(final int grain) {
    if (grain < 0) {
      throw new IllegalArgumentException(
          "a parallel grain is a positive number of positions, or 0 for automatic; got " + grain);
    }
    return grain;
  }

  /**
   * {@return the most positions a task of a parallel pass holds, for {@code grain} (0: automatic),
   * {@code count} positions, a pool of {@code parallelism} threads and runs of at most {@code
   * chunk}, a power of two} A multiple of {@link #alignment}.
   */
  static int taskSize(final int grain, final int count, final int parallelism, final int chunk) {
    final long perTask = (long) TASKS_PER_THREAD * parallelism;
    final long wanted =
        0 != grain ? grain : Math.max(MIN_AUTOMATIC_GRAIN, (count + perTask - 1) / perTask);
    final long unit = alignment(wanted, chunk);
    return (int) Math.min(Integer.MAX_VALUE / unit * unit, (wanted + unit - 1) / unit * unit);
  }

  /** {@return where tasks start: the grain's power of two up to a chunk, else the chunk} */
  static int alignment(final long grain, final int chunk) {
    if (grain >= chunk) {
      return chunk;
    }
    return grain <= 1 ? 1 : (int) Math.min(chunk, Long.highestOneBit(grain - 1) << 1);
  }

  private void parallelRuns(
      final ForkJoinPool pool,
      final int grain,
      final RangeConsumer ranges,
      final EntityRangeConsumer entities) {
    final int chunk = chunkSize();
    lockAll("a parallel chunk iteration of");
    try {
      final int end = length;
      if (end > 0) {
        // The calling thread takes tasks too: the pool's threads are its helpers.
        final int helpers = Math.max(1, pool.getParallelism());
        final int task = taskSize(grain, end, helpers + 1, chunk);
        final ChunkCounts.Source counting = groups.chunkCounts;
        final ChunkPass pass =
            new ChunkPass(
                ranges,
                entities,
                owned[0].packed(),
                end,
                chunk,
                task,
                null == counting ? null : counting.forThisThread());
        // A pass of one task runs here alone: waking a pool thread would gain nothing.
        Failures.rethrow(pass.run(pool, end <= task ? 0 : helpers, groups.openPasses));
      }
    } finally {
      unlockAll();
      // The runs' command buffers may be recorded by other threads in the next pass.
      groups.guards.endParallelPass();
    }
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, RangeConsumer)} on the common pool.
   *
   * @param action called with each run {@code [from, to)}, from several threads at once
   */
  public void parallelEachChunk(final RangeConsumer action) {
    parallelEachChunk(ForkJoinPool.commonPool(), action);
  }

  /**
   * As {@link #parallelEachChunk(ForkJoinPool, EntityRangeConsumer)} on the common pool.
   *
   * @param action called with the entities and each run {@code [from, to)}, from several threads at
   *     once
   */
  public void parallelEachChunk(final EntityRangeConsumer action) {
    parallelEachChunk(ForkJoinPool.commonPool(), action);
  }

  /**
   * Sorts the members by comparing the elements at two positions of the owned storages. The order
   * is computed before anything moves, on positions that stay aligned, so the comparator may read
   * any owned storage at those positions (and any get storage by entity). Every owned storage
   * follows. The group's storages are locked while the comparator runs: if it throws, nothing has
   * moved; if it tries a structural change, it gets a {@link ConcurrentModificationException}.
   *
   * @param comparator orders the members at two positions
   * @throws IllegalStateException if a more restrictive nested group exists (only the most
   *     restrictive group of a family may be sorted)
   * @throws ConcurrentModificationException if an owned storage is locked or iterated
   */
  public void sortByPosition(final PositionComparator comparator) {
    checkSortable();
    final int[] order;
    lockAll("the comparator of a sort of");
    try {
      order = owned[0].sorter().computeOrder(length, comparator, false);
    } finally {
      unlockAll();
    }
    SetSorter.applyOrder(owned, length, order);
  }

  /**
   * As {@link #sortByPosition(PositionComparator)}, comparing entities.
   *
   * @param comparator orders two members
   */
  public void sort(final EntityComparator comparator) {
    checkSortable();
    final int[] order;
    lockAll("the comparator of a sort of");
    try {
      final SetSorter sorter = owned[0].sorter();
      order = sorter.computeOrder(length, sorter.entityOrder(comparator), false);
    } finally {
      unlockAll();
    }
    SetSorter.applyOrder(owned, length, order);
  }

  private void checkSortable() {
    final OwningGroup inner = groups.moreRestrictiveThan(this);
    if (null != inner) {
      throw new IllegalStateException(
          "cannot sort "
              + this
              + ": "
              + inner
              + " is nested in it and only the most restrictive group of"
              + " a nested family may be sorted; sort that one instead");
    }
    for (final Storage<?> storage : owned) {
      storage.checkRearrange("sort a group that rearranges");
    }
  }

  @Override
  boolean containsAt(final Storage<?> storage, final int position, final long entity) {
    // Members sit at [0, length) of every owned storage, and nothing else does.
    return owns(storage) ? position < length : containsLive(entity);
  }

  @Override
  void enter(final long entity) {
    final int target = length;
    for (final Storage<?> storage : owned) {
      storage.swap(storage.positionOfLive(entity), target);
    }
    length = target + 1;
  }

  /** As {@link #enter(long)}, the entity's element of {@code known} being at {@code position}. */
  void enter(final long entity, final Storage<?> known, final int position) {
    final int target = length;
    for (final Storage<?> storage : owned) {
      storage.swap(storage == known ? position : storage.positionOfLive(entity), target);
    }
    length = target + 1;
  }

  /**
   * Makes {@code entity}, just inserted into {@code known} (a storage the group includes) at {@code
   * position}, a member if it matches: the direct form of {@link Groups#planInsert} and {@link
   * #enter(long, Storage, int)}, for a storage whose only observer is this group ({@link
   * Storage#directOwner}). Each owned position is looked up once, for the match and the move.
   */
  void enterDirectly(final long entity, final Storage<?> known, final int position) {
    final Storage<?>[] storages = owned;
    final int[] at = positions;
    for (int i = 0; i < storages.length; i++) {
      final Storage<?> storage = storages[i];
      final int found = storage == known ? position : storage.positionOfLive(entity);
      if (found < 0) {
        return;
      }
      at[i] = found;
    }
    if (!matchesGetAndExclude(entity)) {
      return;
    }
    final int target = length;
    for (int i = 0; i < storages.length; i++) {
      storages[i].swap(at[i], target);
    }
    length = target + 1;
  }

  /**
   * Removes {@code entity}'s element at {@code position} of {@code target}, a storage whose only
   * observer is this group ({@link Storage#directOwner}), a member leaving first: the direct form
   * of {@link Groups#planRemove} and {@link Groups#applyRemove}, with the same moves.
   */
  void removeDirectly(final long entity, final Storage<?> target, final int position) {
    // This group is the target's only observer: it owns the target exactly when it claimed it.
    final boolean ownsTarget = target.owner() == this;
    if (ownsTarget ? position >= length : !containsLive(entity)) {
      target.removeAt(position);
    } else if (ownsTarget && spans(target)) {
      leaveAndRemove(entity, target, position);
    } else {
      leave(entity);
      target.removeAt(target.positionOfLive(entity));
    }
  }

  @Override
  void leave(final long entity) {
    final int target = length - 1;
    for (final Storage<?> storage : owned) {
      storage.swap(storage.positionOfLive(entity), target);
    }
    length = target;
  }

  /**
   * Whether removing {@code entity}'s element from {@code storage}, an owned storage, can be fused
   * with its leaving: the group spans the whole storage, so the last member is the storage's last
   * element.
   */
  boolean spans(final Storage<?> storage) {
    return length == storage.size();
  }

  /**
   * Whether a destroyed entity can leave and lose its element in every owned storage in one step
   * (see {@link #leaveAndRemoveAll}): the group spans each owned storage, has no leave listener,
   * and is the only observer of the other owned storages, which announce nothing. Their own
   * removals, which the destroy would make next, would then have nothing left to do or announce.
   */
  boolean removableTogether(final Storage<?> target) {
    return spansOwned() && leavesUnobservedBesides(target);
  }

  /**
   * The part of {@link #removableTogether} that only a group or a listener can change: no leave
   * listener, and this group the only observer of every owned storage but {@code target}, none of
   * which announces a removal.
   */
  boolean leavesUnobservedBesides(final Storage<?> target) {
    if (!onLeave.isEmpty()) {
      return false;
    }
    for (final Storage<?> storage : owned) {
      if (storage != target && !storage.observedOnlyBy(this)) {
        return false;
      }
    }
    return true;
  }

  /** Returns whether every element of every owned storage is a member. */
  boolean spansOwned() {
    for (final Storage<?> storage : owned) {
      if (length != storage.size()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Makes {@code entity}, being destroyed, leave and removes its element from every owned storage
   * (the group is {@link #removableTogether}): in each, the last element, which is the last member,
   * moves into the entity's slot. One move per storage, as destroying without the group costs. Its
   * element of {@code known}, an owned storage, is at {@code position}; the others are looked up.
   */
  void leaveAndRemoveAll(final long entity, final Storage<?> known, final int position) {
    for (final Storage<?> storage : owned) {
      storage.removeAt(storage == known ? position : storage.positionOfLive(entity));
    }
    length--;
  }

  /**
   * Sets the group's size to its owned storages' after a bulk removal that kept them aligned and
   * holding only members ({@link DirectUpkeep#removableInBulk}).
   */
  void followOwned() {
    length = owned[0].size();
  }

  /**
   * Makes {@code entity} leave and removes its element, at {@code position}, from {@code target},
   * an owned storage the group {@link #spans}: in {@code target} the last element moves into the
   * entity's slot (the plain swap-and-pop removal), in the other owned storages the entity swaps
   * with the last member as in {@link #leave}. One move fewer than a leave followed by the removal,
   * the same result.
   */
  void leaveAndRemove(final long entity, final Storage<?> target, final int position) {
    final int last = length - 1;
    for (final Storage<?> storage : owned) {
      if (storage != target) {
        storage.swap(storage.positionOfLive(entity), last);
      }
    }
    target.removeAt(position);
    length = last;
  }

  @Override
  void reset() {
    length = 0;
  }

  /**
   * Arranges the members again after {@link #reset}, from owned storages that a snapshot filled in
   * bulk ({@link Groups#rebuild}): adopts the aligned front ({@link #adoptAlignedPrefix}), then
   * enters the matching entities of the tail of the smallest owned storage ({@link #populateFrom}),
   * which has the fewest candidates. An excluded storage no larger than that storage is walked once
   * beforehand and its entities' positions marked ({@link #excludedFrom}); both steps skip marked
   * positions without a lookup. The group is empty ({@link Groups#rebuild} resets every group
   * first), so positions and marks both count from 0.
   */
  void rebuild() {
    Storage<?> walked = owned[0];
    for (final Storage<?> storage : owned) {
      walked = storage.size() < walked.size() ? storage : walked;
    }
    final long[] excluded = excludedFrom(walked);
    populateFrom(walked, adoptAlignedPrefix(walked, excluded), excluded);
  }

  /**
   * Makes members, without moving anything, of the entities from position 0 on that sit at the same
   * position in every owned storage and match, up to the first that does not; returns the new size.
   * A snapshot saved with this group holds its members there. Entering those entities one by one
   * would swap each with itself: the same result, with lookups where this compares packed arrays.
   * Inside that run every owned storage holds the same entity at a position, so {@code marks},
   * {@code walked}'s positions of the excluded storages walked, cut it at the first one marked; the
   * other excluded storages are asked about each entity of the run, by their sparse entries alone
   * ({@link SparseSet#positionOfLive}), as every entity of a storage is live.
   */
  private int adoptAlignedPrefix(final Storage<?> walked, final long[] marks) {
    final long[] lead = owned[0].packed();
    int end = walked.size();
    // Aligned: one vectorized comparison per owned storage bounds the run.
    for (int i = 1; i < owned.length; i++) {
      final int mismatch = Arrays.mismatch(lead, 0, end, owned[i].packed(), 0, end);
      end = mismatch < 0 ? end : mismatch;
    }
    int position = 0;
    if (0 == get.length) {
      position = end;
    } else {
      while (position < end && inEveryGet(lead[position])) {
        position++;
      }
    }
    if (null != marks) {
      position = Math.min(position, firstMarked(marks));
    }
    for (final Storage<?> storage : exclude) {
      if (!walkedFirst(storage, walked.size())) {
        for (int at = 0; at < position; at++) {
          if (storage.positionOfLive(lead[at]) >= 0) {
            position = at;
          }
        }
      }
    }
    length = position;
    return position;
  }

  /**
   * As {@link Group#populate(SparseSet)} from {@code start}, at or after {@link #size()}, walking
   * {@code walked}, the smallest owned storage: every owned storage holds the members at {@code [0,
   * size())} and nothing else there, so no position walked holds a member (each entry swaps the
   * visited entity with the first non-member, at or before it). The walked storage holds every
   * entity it visits: only the others are asked, by their sparse entries alone ({@link
   * SparseSet#positionOfLive}: a storage holds only live entities), which saves a read of the
   * packed array, a cache miss per lookup in a scattered tail. Positions that {@code marks} (a bit
   * per position) holds are in an excluded storage and skipped; entering swaps only positions at or
   * before the one visited, so the marks ahead stay true.
   */
  private void populateFrom(final Storage<?> walked, final int start, final long[] marks) {
    final int end = walked.size();
    for (int position = start; position < end; position++) {
      if (null != marks && isMarked(marks, position)) {
        continue;
      }
      final long entity = walked.packed()[position];
      if (matchesWith(entity, walked)) {
        enter(entity);
      }
    }
  }

  /**
   * Whether rebuilding walks the excluded {@code storage} once ({@link #excludedFrom}) rather than
   * asking it about each of up to {@code span} candidates: when it holds no more elements than
   * that.
   */
  private static boolean walkedFirst(final Storage<?> storage, final int span) {
    return storage.size() <= span;
  }

  /**
   * Returns a bit per position of {@code walked}, set where the entity is in an excluded storage
   * {@link #walkedFirst walked first}, whose entities are looked up in {@code walked} in its own
   * order; or {@code null} if no excluded storage is. In a scattered tail that trades a random
   * lookup per candidate for one per excluded element.
   */
  private long[] excludedFrom(final Storage<?> walked) {
    final int end = walked.size();
    long[] marks = null;
    for (final Storage<?> storage : exclude) {
      if (!walkedFirst(storage, end)) {
        continue;
      }
      if (null == marks) {
        marks = new long[(end + 63) >>> 6];
      }
      final long[] entities = storage.packed();
      for (int p = 0; p < storage.size(); p++) {
        final long entity = entities[p];
        if (!Entity.isTombstone(entity)) {
          final int at = walked.positionOfLive(entity);
          if (at >= 0) {
            marks[at >>> 6] |= 1L << at;
          }
        }
      }
    }
    return marks;
  }

  private static boolean isMarked(final long[] marks, final int offset) {
    return 0 != (marks[offset >>> 6] & (1L << offset));
  }

  /** {@return the offset of the first bit {@code marks} holds, or {@link Integer#MAX_VALUE}} */
  private static int firstMarked(final long[] marks) {
    for (int word = 0; word < marks.length; word++) {
      if (0 != marks[word]) {
        return (word << 6) + Long.numberOfTrailingZeros(marks[word]);
      }
    }
    return Integer.MAX_VALUE;
  }

  @Override
  void verify(final List<String> problems) {
    final Storage<?> lead = owned[0];
    for (final Storage<?> storage : owned) {
      if (length > storage.size()) {
        problems.add(
            this
                + ": "
                + length
                + " members but "
                + storage.describe()
                + " holds "
                + storage.size());
        return;
      }
      if (storage.owner() == null) {
        problems.add(this + ": " + storage.describe() + " is owned but not marked as owned");
      }
    }
    for (int position = 0; position < length; position++) {
      for (int i = 1; i < owned.length; i++) {
        if (owned[i].packed()[position] != lead.packed()[position]) {
          problems.add(
              this
                  + ": owned storages are misaligned at position "
                  + position
                  + ": "
                  + Entity.toString(lead.packed()[position])
                  + " in "
                  + lead.describe()
                  + ", "
                  + Entity.toString(owned[i].packed()[position])
                  + " in "
                  + owned[i].describe());
        }
      }
    }
    verifyMembership(problems);
  }
}
