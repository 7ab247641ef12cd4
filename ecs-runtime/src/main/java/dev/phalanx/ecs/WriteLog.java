package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * The entities whose element of one tracked storage was written in place, each logged once per
 * change tick: the first write of an element at the current tick ({@link Registry#changeTick()})
 * appends its entity, later writes at the same tick append nothing. A reader learns what changed
 * since its last read in O(changed) instead of comparing every element's tick.
 *
 * <p>The log exists only while someone reads it: {@link Storage#readWrites()} opens a {@link
 * Reader} (several may read one storage, each at its own pace) and {@link Reader#close()} closes
 * it; a storage without readers pays one predictable branch per first write of a tick. Entries
 * older than every reader's position are dropped.
 *
 * <h2>What is logged</h2>
 *
 * <p>Entities, not positions: a swap-and-pop or a sort moves elements, so a reader looks each
 * logged entity up again ({@link Storage#indexOf}) and checks its tick ({@link
 * Storage#changeTickAt}); an entity may be logged again at a later tick, or have lost the component
 * since. Every in-place write of a tracked generated storage logs: the field setters, the
 * positional setters, {@code replace}, {@code set}, {@code patch} and a recorded emplace that finds
 * the component, and the chunk forms of queries ({@code markWritten(from, to)}). Additions are not
 * logged (the element is not visible yet when it is stamped): the after-insert signal reports them.
 * A write through the page arrays themselves ({@code xPages()}) stamps nothing and logs nothing, as
 * it stamps no tick.
 *
 * <h2>Bound and memory</h2>
 *
 * <p>The log holds at most {@code max(4096, size / 8)} entries, {@code size} being the storage's
 * size when the log fills: 8 bytes per entry, so at most one byte per element (32 KiB for a small
 * storage). A reader that falls further behind than that is told so ({@link Reader#lost()}) and
 * must compare ticks instead (the full scan) for that read; it then goes on from the log's end.
 * When the log is full and some reader still needs what it holds, it drops its oldest quarter at
 * once. When no reader needs it any more (every one would compare ticks on its next read), the log
 * empties and stops logging until a reader reads to the end or a new one opens: writes then cost
 * what they cost with no reader, however many follow.
 *
 * <h2>Threading</h2>
 *
 * <p>As the storage: appended on the mutating thread, read on it.
 */
public final class WriteLog {

  /** The fewest entries a full log holds before it drops the oldest. */
  public static final int MIN_CAPACITY = 1 << 12;

  private final Storage<?> storage;
  // The entries [oldest, head), entry s at ring[s & (ring.length - 1)].
  private long[] ring = new long[16];
  private long head;
  private long oldest;
  private Reader[] readers = new Reader[0];

  WriteLog(final Storage<?> storage) {
    this.storage = storage;
    storage.writeLog = this;
    storage.appendingLog = this;
  }

  /** Appends {@code entity}: written in place for the first time at the current tick. */
  void append(final long entity) {
    if (head - oldest == ring.length) {
      makeRoom();
      if (dropping()) {
        return;
      }
    }
    ring[(int) head & (ring.length - 1)] = entity;
    head++;
  }

  /**
   * Drops what every reader has read; then grows up to the bound; else, full, drops its oldest
   * quarter, or everything and stops logging if no reader would be left with an entry it needs.
   */
  private void makeRoom() {
    long least = head;
    long most = oldest;
    for (final Reader reader : readers) {
      least = Math.min(least, reader.next);
      most = Math.max(most, reader.next);
    }
    oldest = Math.max(oldest, least);
    if (head - oldest < ring.length) {
      return;
    }
    if (ring.length < capacity()) {
      final long[] grown = new long[2 * ring.length];
      for (long s = oldest; s < head; s++) {
        grown[(int) s & (grown.length - 1)] = ring[(int) s & (ring.length - 1)];
      }
      ring = grown;
    } else if (most > oldest) {
      oldest += ring.length >>> 2;
    } else {
      oldest = head;
      storage.appendingLog = null;
    }
  }

  /**
   * {@return whether the log, still its storage's, drops every write: every reader fell behind its
   * bound} While it does, the storage does not call append (its appending log is null), head stays
   * put, and oldest = head leaves every reader lost. A log whose last reader closed is nobody's and
   * never logs again, so a closed reader that advances cannot revive it.
   */
  private boolean dropping() {
    return storage.writeLog == this && storage.appendingLog != this;
  }

  /**
   * Logs again after {@link #dropping()}. Every reader that has not read up to now stays {@link
   * Reader#lost() lost}: it was behind the log's oldest entry when the log emptied.
   */
  private void resume() {
    storage.appendingLog = this;
  }

  /** {@return the most entries this log holds now: {@code max(4096, size / 8)}} */
  int capacity() {
    return Math.max(MIN_CAPACITY, storage.size() >>> 3);
  }

  private Reader open() {
    if (dropping()) {
      resume();
    }
    final Reader reader = new Reader();
    reader.next = head;
    readers = Arrays.copyOf(readers, readers.length + 1);
    readers[readers.length - 1] = reader;
    return reader;
  }

  /** {@return a new reader of {@code storage}'s log, which starts at its end} */
  static Reader open(final Storage<?> storage) {
    final WriteLog log = null == storage.writeLog ? new WriteLog(storage) : storage.writeLog;
    return log.open();
  }

  /**
   * One reader of a storage's write log: it reads the entries from its position ({@link #next()})
   * to the log's {@link #end()}, then moves on with {@link #advance}.
   */
  public final class Reader implements AutoCloseable {
    long next;
    private boolean closed;

    Reader() {}

    /** {@return the sequence number of the first entry this reader has not read} */
    public long next() {
      return next;
    }

    /** {@return the sequence number the next entry appended will have} */
    public long end() {
      return head;
    }

    /**
     * Returns whether entries this reader has not read were dropped (it fell more than the bound
     * behind): the entries from {@link #next()} are then incomplete, and the reader must compare
     * ticks for this read.
     *
     * @return whether entries were lost
     */
    public boolean lost() {
      return next < oldest;
    }

    /**
     * Returns the entity of the entry numbered {@code sequence}, in {@code [next(), end())} and not
     * {@link #lost()}.
     *
     * @param sequence an entry's sequence number
     * @return the entity logged there
     * @throws IndexOutOfBoundsException if the entry is not held
     */
    public long entity(final long sequence) {
      if (sequence < oldest || sequence >= head) {
        throw new IndexOutOfBoundsException(
            "entry "
                + sequence
                + " of the write log is not held: it holds ["
                + oldest
                + ", "
                + head
                + ")");
      }
      return ring[(int) sequence & (ring.length - 1)];
    }

    /**
     * Marks the entries before {@code sequence} read: the log may drop them once every reader has.
     * A reader that was {@link #lost()} and advances to {@link #end()} has compared ticks, so a log
     * that stopped logging for lack of readers that could use it logs again from here.
     *
     * @param sequence a sequence number in {@code [next(), end()]}
     * @throws IllegalArgumentException if it is outside that range
     */
    public void advance(final long sequence) {
      if (sequence < next || sequence > head) {
        throw new IllegalArgumentException(
            "cannot advance a write log reader of "
                + storage.describe()
                + " to "
                + sequence
                + ": it must be in [next() = "
                + next
                + ", end() = "
                + head
                + "]");
      }
      if (dropping() && sequence == head) {
        resume();
      }
      next = sequence;
    }

    /**
     * Stops reading; the last reader to close drops the log, and the storage stops logging. Closing
     * twice does nothing.
     */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      final Reader[] kept = new Reader[readers.length - 1];
      int k = 0;
      for (final Reader reader : readers) {
        if (reader != this) {
          kept[k++] = reader;
        }
      }
      readers = kept;
      if (0 == kept.length && storage.writeLog == WriteLog.this) {
        storage.writeLog = null;
        storage.appendingLog = null;
      }
    }
  }
}
