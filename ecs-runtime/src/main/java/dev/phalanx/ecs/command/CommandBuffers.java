package dev.phalanx.ecs.command;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityRangeConsumer;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.internal.Failures;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/**
 * One {@link CommandBuffer} per run of a parallel iteration, applied in the order of the runs: the
 * same program gives the same world whatever the number of threads.
 *
 * <p>The runtime and the generated queries hand each run its buffer: {@link
 * #parallelEachChunk(OwningGroup, ForkJoinPool, CommandRangeConsumer)} and the generated {@code
 * parallelEachChunk(pool, commands, CommandChunk)}. By hand, inside {@code
 * group.parallelEachChunk(pool, (from, to) -> ...)}, take {@code forRun(from)}, where {@code from}
 * is the run's first <em>position</em> in the group (never an offset in a page, which several runs
 * share): each run has its own buffer (a run is processed by one thread), so recording takes no
 * lock. Two threads recording into one buffer within a pass are refused ({@link
 * java.util.ConcurrentModificationException}, see {@link CommandBuffer}).
 *
 * <p>{@link #apply()} creates every reserved entity (runs in ascending order, each in reservation
 * order), then applies every buffer's commands, runs in ascending order; a reserved handle may be
 * used in any buffer of the set. What is recorded while it runs, into any buffer of the set (a new
 * run's included), is applied by the same apply: the buffers are passed over again, in ascending
 * order, until none has anything left; handles reserved meanwhile are created when first named.
 * Buffers are kept, emptied, for the next pass: after the first pass over the same runs, recording
 * and applying allocate nothing.
 *
 * <h2>Threading</h2>
 *
 * <p>{@link #forRun} may be called from any thread, for distinct keys at the same time; {@link
 * #apply()} from one thread, when no iteration runs.
 */
public final class CommandBuffers {

  private final Registry registry;
  // The keys in ascending order and their buffers, replaced (copy on write, under the lock) when a
  // new key appears; read without a lock.
  private volatile Table table = new Table(new int[0], new CommandBuffer[0]);
  // The same buffers by the slot in their reserved handles, ascending. Replaced (copy on write,
  // under the lock) when a buffer is added or moves to a new slot (once per 2^30 reservations).
  private volatile Table bySlot = new Table(new int[0], new CommandBuffer[0]);
  // Whether apply() runs: a re-entrant apply or clear of the set or of one of its buffers is
  // refused.
  private boolean applying;
  // The entities created for every buffer's reservations at the start of apply, in one all or
  // nothing call.
  private long[] reservedEntities = new long[16];
  // Each buffer's number of reservations at the start of an apply, by position in the table.
  private int[] reservedCounts = new int[4];

  /**
   * Two parallel arrays; a class, not a record, since a record would compare arrays by identity.
   */
  private static final class Table {
    final int[] keys;
    final CommandBuffer[] buffers;

    Table(final int[] keys, final CommandBuffer[] buffers) {
      this.keys = keys;
      this.buffers = buffers;
    }

    /** {@return a copy with {@code buffer} inserted under {@code key}, keys kept ascending} */
    Table with(final int key, final CommandBuffer buffer) {
      final int found = Arrays.binarySearch(keys, key);
      final int at = found < 0 ? -found - 1 : found;
      final int length = keys.length;
      final int[] newKeys = new int[length + 1];
      final CommandBuffer[] newBuffers = new CommandBuffer[length + 1];
      System.arraycopy(keys, 0, newKeys, 0, at);
      System.arraycopy(buffers, 0, newBuffers, 0, at);
      newKeys[at] = key;
      newBuffers[at] = buffer;
      System.arraycopy(keys, at, newKeys, at + 1, length - at);
      System.arraycopy(buffers, at, newBuffers, at + 1, length - at);
      return new Table(newKeys, newBuffers);
    }
  }

  /**
   * Creates an empty set of buffers for {@code registry}.
   *
   * @param registry the registry that {@link #apply()} changes
   */
  public CommandBuffers(final Registry registry) {
    this.registry = registry;
  }

  /**
   * {@return the buffer of the run that starts at position {@code key} (any non-negative int that
   * identifies the run deterministically: its first position is the natural choice)}
   *
   * @param key the run's key, usually its first position
   * @throws IllegalArgumentException if {@code key} is negative
   */
  public CommandBuffer forRun(final int key) {
    if (key < 0) {
      throw new IllegalArgumentException("a run key is a non-negative int, got " + key);
    }
    final Table current = table;
    final int at = Arrays.binarySearch(current.keys, key);
    return at >= 0 ? current.buffers[at] : add(key);
  }

  /**
   * Runs {@code action} over {@code group} as {@link OwningGroup#parallelEachChunk(ForkJoinPool,
   * EntityRangeConsumer)} does, handing each run its own buffer of this set as well: the one of the
   * run's first position ({@link #forRun}), so that recording is safe by construction. Apply this
   * set after the call, at a sync point. Allocates the one lambda that adds the buffer, per call.
   *
   * @param group the group to iterate
   * @param pool the pool whose threads run the tasks
   * @param action called with its buffer, the entities and each run {@code [from, to)}, from
   *     several threads at once
   * @throws java.util.ConcurrentModificationException if the body (or another thread) tries a
   *     structural change of an observed storage while it runs
   */
  public void parallelEachChunk(
      final OwningGroup group, final ForkJoinPool pool, final CommandRangeConsumer action) {
    if (null == group || null == action) {
      throw new NullPointerException(null == group ? "group" : "action");
    }
    group.parallelEachChunk(
        pool, (entities, from, to) -> action.accept(forRun(from), entities, from, to));
  }

  /**
   * As {@link #parallelEachChunk(OwningGroup, ForkJoinPool, CommandRangeConsumer)} with a grain for
   * this call (see {@link OwningGroup#parallelEachChunk(ForkJoinPool, int,
   * dev.phalanx.ecs.RangeConsumer)}): the most positions a task holds, or 0 for the automatic
   * grain. Each run has its own buffer, keyed by its first position; tasks start at multiples of
   * the grain's alignment, so the same size and grain reuse the same buffers pass after pass.
   *
   * @param group the group to iterate
   * @param pool the pool whose threads run the tasks
   * @param grain the most positions a task holds, or 0 for the automatic grain
   * @param action called with its buffer, the entities and each run {@code [from, to)}, from
   *     several threads at once
   * @throws IllegalArgumentException if {@code grain} is negative
   * @throws java.util.ConcurrentModificationException if the body (or another thread) tries a
   *     structural change of an observed storage while it runs
   */
  public void parallelEachChunk(
      final OwningGroup group,
      final ForkJoinPool pool,
      final int grain,
      final CommandRangeConsumer action) {
    if (null == group || null == action) {
      throw new NullPointerException(null == group ? "group" : "action");
    }
    group.parallelEachChunk(
        pool, grain, (entities, from, to) -> action.accept(forRun(from), entities, from, to));
  }

  private synchronized CommandBuffer add(final int key) {
    final Table current = table;
    final int at = Arrays.binarySearch(current.keys, key);
    if (at >= 0) {
      return current.buffers[at];
    }
    final CommandBuffer added = new CommandBuffer(registry, this, key);
    table = current.with(key, added);
    bySlot = bySlot.with(added.slot(), added);
    return added;
  }

  /** {@return the number of commands recorded in every buffer} */
  public int size() {
    int size = 0;
    for (final CommandBuffer buffer : table.buffers) {
      size += buffer.size();
    }
    return size;
  }

  /** {@return the number of commands the last {@link #apply()} skipped} */
  public int skipped() {
    int skipped = 0;
    for (final CommandBuffer buffer : table.buffers) {
      skipped += buffer.skipped();
    }
    return skipped;
  }

  /**
   * Applies every buffer (see the class comment) and empties them, as {@link
   * CommandBuffer#apply()}: the first exception a command threw is rethrown once everything else is
   * applied, and the buffers are empty afterwards whatever happened.
   *
   * @throws java.util.ConcurrentModificationException if a storage is locked or iterated; nothing
   *     is applied
   * @throws IllegalStateException if called during this set's own apply (from a listener), or if
   *     the reserved entities cannot be created; nothing is applied
   */
  public void apply() {
    checkNotApplying();
    CommandReplay.checkSyncPoint(registry);
    // Applying already: a create listener that applies this set is refused, not re-entered.
    applying = true;
    Throwable failure;
    try {
      failure = createReserved(table.buffers);
    } catch (final RuntimeException | Error refused) {
      // The entity limit: nothing was created, nothing is applied, the buffers are kept.
      applying = false;
      throw refused;
    }
    try {
      boolean pending = true;
      while (pending) {
        pending = false;
        // Read again at each pass: a listener may have added a run.
        for (final CommandBuffer buffer : table.buffers) {
          if (buffer.hasPending()) {
            failure = buffer.applyCommands(failure, this);
            pending = true;
          }
        }
      }
    } catch (final Throwable thrown) {
      failure = Failures.add(failure, thrown);
    } finally {
      applying = false;
      for (final CommandBuffer buffer : table.buffers) {
        buffer.empty();
      }
    }
    Failures.rethrow(failure);
  }

  /**
   * Forgets every buffer's commands and reservations (see {@link CommandBuffer#clear()}).
   *
   * @throws IllegalStateException if called during this set's apply
   */
  public void clear() {
    checkNotApplying();
    for (final CommandBuffer buffer : table.buffers) {
      buffer.clear();
    }
  }

  /**
   * {@return the entity created for {@code handle}, reserved by a buffer of this set, by its last
   * apply, or {@link Entity#NULL}} (see {@link CommandBuffer#entityOf})
   *
   * @param handle a reserved handle
   */
  public long entityOf(final long handle) {
    if (!CommandBuffer.isReserved(handle)) {
      return Entity.NULL;
    }
    final CommandBuffer owner = findBySlot(Entity.index(handle) & 0x7FFF_FFFF);
    return null == owner ? Entity.NULL : owner.entityOf(handle);
  }

  /** {@return whether this set's apply is running} */
  boolean isApplying() {
    return applying;
  }

  private void checkNotApplying() {
    if (applying) {
      throw new IllegalStateException(
          "cannot apply or clear a CommandBuffers during its own apply (from a listener or a"
              + " queued action): what is recorded now is applied by the apply in progress");
    }
  }

  /**
   * Creates the reservations of every buffer in one call, all or none, and hands each buffer its
   * own: in run order, each in reservation order, counted before the creation. Returns what the
   * registry's create listeners threw; what they reserve meanwhile is created late, by the apply.
   */
  private Throwable createReserved(final CommandBuffer[] buffers) {
    if (buffers.length > reservedCounts.length) {
      reservedCounts = new int[Math.max(buffers.length, reservedCounts.length * 2)];
    }
    int total = 0;
    for (int b = 0; b < buffers.length; b++) {
      reservedCounts[b] = buffers[b].toCreate();
      total = Math.addExact(total, reservedCounts[b]);
    }
    if (total > reservedEntities.length) {
      reservedEntities = new long[Math.max(total, reservedEntities.length * 2)];
    }
    Throwable failure = null;
    if (total > 0) {
      failure = CommandBuffer.createAll(registry, reservedEntities, 0, total, null);
    }
    int at = 0;
    for (int b = 0; b < buffers.length; b++) {
      buffers[b].adoptReserved(reservedEntities, at, reservedCounts[b]);
      at += reservedCounts[b];
    }
    return failure;
  }

  /** {@return the buffer whose reserved handles carry {@code slot}, or {@code null}} */
  CommandBuffer findBySlot(final int slot) {
    final Table slots = bySlot;
    final int at = Arrays.binarySearch(slots.keys, slot);
    return at >= 0 ? slots.buffers[at] : null;
  }

  /** Sorts a copy of {@link #bySlot} after a buffer moved to a new slot. */
  synchronized void slotChanged() {
    final Table sorted = new Table(bySlot.keys.clone(), bySlot.buffers.clone());
    sortBySlot(sorted);
    bySlot = sorted;
  }

  /** Sorts {@code slots} by the buffers' current slots, in place. */
  private static void sortBySlot(final Table slots) {
    final int[] keys = slots.keys;
    final CommandBuffer[] buffers = slots.buffers;
    for (int i = 0; i < buffers.length; i++) {
      final CommandBuffer buffer = buffers[i];
      final int slot = buffer.slot();
      int j = i;
      while (j > 0 && keys[j - 1] > slot) {
        keys[j] = keys[j - 1];
        buffers[j] = buffers[j - 1];
        j--;
      }
      keys[j] = slot;
      buffers[j] = buffer;
    }
  }
}
