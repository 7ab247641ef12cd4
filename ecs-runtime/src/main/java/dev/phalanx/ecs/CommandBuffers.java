package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * One {@link CommandBuffer} per run of a parallel iteration, applied in the order of the runs: the
 * same program gives the same world whatever the number of threads.
 *
 * <p>Inside {@code parallelEachChunk(pool, (from, to) -> ...)}, take {@code forRun(from)}: each run
 * has its own buffer (a run is processed by one thread), so recording takes no lock. {@link
 * #apply()} materializes every reserved entity (runs in ascending order, each in reservation
 * order), then applies every buffer's commands, runs in ascending order; a reserved handle may be
 * used in any buffer of the set. Buffers are kept, emptied, for the next pass: after the first pass
 * over the same runs, recording and applying allocate nothing.
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
  // The same buffers by the id in their current reserved handles, ascending. Replaced (copy on
  // write, under the lock) when a buffer is added or draws a new id on its own (clear, apply);
  // sorted again in place by the set's apply, when no thread records, since the buffers that
  // reserved entities draw new ids then.
  private volatile Table byId = new Table(new int[0], new CommandBuffer[0]);

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

  private synchronized CommandBuffer add(final int key) {
    final Table current = table;
    final int at = Arrays.binarySearch(current.keys, key);
    if (at >= 0) {
      return current.buffers[at];
    }
    final CommandBuffer added = new CommandBuffer(registry, this);
    table = current.with(key, added);
    byId = byId.with(added.id(), added);
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
   * CommandBuffer#apply()}.
   *
   * @throws java.util.ConcurrentModificationException if a storage is locked or iterated; nothing
   *     is applied
   */
  public void apply() {
    CommandBuffer.checkSyncPoint(registry);
    final CommandBuffer[] buffers = table.buffers;
    for (final CommandBuffer buffer : buffers) {
      buffer.materialize();
    }
    Throwable failure = null;
    for (final CommandBuffer buffer : buffers) {
      failure = buffer.applyCommands(failure, this);
    }
    for (final CommandBuffer buffer : buffers) {
      buffer.empty();
    }
    sortById(byId);
    Failures.rethrow(failure);
  }

  /** {@return the buffer whose current reserved handles carry {@code id}, or {@code null}} */
  CommandBuffer findById(final int id) {
    final Table ids = byId;
    final int at = Arrays.binarySearch(ids.keys, id);
    return at >= 0 ? ids.buffers[at] : null;
  }

  /**
   * Sorts a copy of {@link #byId} after a buffer's own {@code clear()} drew it a new id: other runs
   * may be looking ids up meanwhile.
   */
  synchronized void idChanged() {
    final Table sorted = new Table(byId.keys.clone(), byId.buffers.clone());
    sortById(sorted);
    byId = sorted;
  }

  /** Sorts {@code ids} by the buffers' current ids, in place: nothing allocated. */
  private static void sortById(final Table ids) {
    final int[] keys = ids.keys;
    final CommandBuffer[] buffers = ids.buffers;
    // Insertion sort: the buffers that reserved drew ids in run order, the others kept theirs.
    for (int i = 0; i < buffers.length; i++) {
      final CommandBuffer buffer = buffers[i];
      final int id = buffer.id();
      int j = i;
      while (j > 0 && keys[j - 1] > id) {
        keys[j] = keys[j - 1];
        buffers[j] = buffers[j - 1];
        j--;
      }
      keys[j] = id;
      buffers[j] = buffer;
    }
  }
}
