package dev.phalanx.examples.particles;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Cuts a delta into datagrams that fit a {@link LossyLink}, and puts them back together on the far
 * side. Each datagram carries a header of {@value #HEADER} bytes: the delta's sequence ({@code
 * long}), the fragment's number and the fragment count ({@code int}s) and the delta's length
 * ({@code int}), then up to {@value #PAYLOAD} bytes of the delta. A delta is whole when every one
 * of its fragments arrived; one lost fragment loses the delta, which the acknowledged protocol then
 * resends as part of a later one.
 */
public final class DeltaFragments {

  /** The bytes of a fragment's header. */
  public static final int HEADER = Long.BYTES + 3 * Integer.BYTES;

  /** The most bytes of a delta one datagram carries. */
  public static final int PAYLOAD = LossyLink.MAX_DATAGRAM - HEADER;

  /** The most deltas an {@link Assembler} collects at once; an older one is given up for a new. */
  public static final int IN_PROGRESS = 8;

  private DeltaFragments() {}

  /** {@return the number of datagrams a delta of {@code length} bytes takes} */
  public static int count(final int length) {
    return Math.max(1, (length + PAYLOAD - 1) / PAYLOAD);
  }

  /**
   * Writes fragment {@code index} of the delta {@code bytes[0, length)} of sequence {@code
   * sequence} into {@code datagram}; returns the datagram's length.
   */
  public static int fragment(
      final long sequence,
      final byte[] bytes,
      final int length,
      final int index,
      final byte[] datagram) {
    final int from = index * PAYLOAD;
    final int size = Math.min(PAYLOAD, length - from);
    ByteBuffer.wrap(datagram)
        .putLong(sequence)
        .putInt(index)
        .putInt(count(length))
        .putInt(length)
        .put(bytes, from, size);
    return HEADER + size;
  }

  /** Collects fragments until a delta is whole. Not thread-safe. */
  public static final class Assembler {
    private final Partial[] partials = new Partial[IN_PROGRESS];
    private final Whole whole = new Whole();

    /** Creates an assembler with room for {@value #IN_PROGRESS} deltas in progress. */
    public Assembler() {
      for (int i = 0; i < partials.length; i++) {
        partials[i] = new Partial();
      }
    }

    /**
     * Takes one datagram; returns the delta it completes, or {@code null}. The delta's array is the
     * assembler's, valid until the next call.
     *
     * @param datagram a datagram of {@link #fragment}
     * @param length its length
     * @return the whole delta, or {@code null} while fragments are missing
     * @throws IllegalArgumentException if the datagram is not a fragment
     */
    public Whole add(final byte[] datagram, final int length) {
      if (length < HEADER) {
        throw new IllegalArgumentException("a datagram of " + length + " bytes is no fragment");
      }
      final ByteBuffer in = ByteBuffer.wrap(datagram, 0, length);
      final long sequence = in.getLong();
      final int index = in.getInt();
      final int count = in.getInt();
      final int total = in.getInt();
      if (count != count(total) || index < 0 || index >= count) {
        throw new IllegalArgumentException(
            "fragment " + index + " of " + count + " does not fit a delta of " + total + " bytes");
      }
      final Partial partial = partialFor(sequence, total);
      if (!partial.arrived[index]) {
        partial.arrived[index] = true;
        partial.missing--;
        in.get(partial.bytes, index * PAYLOAD, length - HEADER);
      }
      if (0 != partial.missing) {
        return null;
      }
      partial.sequence = -1; // whole: the slot is free again
      return whole.set(sequence, partial.bytes, total);
    }

    /** The slot of {@code sequence}: its own, else a free one, else the oldest's. */
    private Partial partialFor(final long sequence, final int total) {
      Partial chosen = null;
      for (final Partial partial : partials) {
        if (partial.sequence == sequence) {
          return partial;
        }
        if (null == chosen || partial.sequence < chosen.sequence) {
          chosen = partial;
        }
      }
      chosen.start(sequence, total);
      return chosen;
    }
  }

  /** A delta put back together: the assembler's, valid until its next call. */
  public static final class Whole {
    private long sequence;
    private byte[] bytes;
    private int length;

    Whole() {}

    Whole set(final long sequence, final byte[] bytes, final int length) {
      this.sequence = sequence;
      this.bytes = bytes;
      this.length = length;
      return this;
    }

    /** {@return the delta's sequence} */
    public long sequence() {
      return sequence;
    }

    /** {@return the array holding the delta in {@code [0, length())}} */
    public byte[] bytes() {
      return bytes;
    }

    /** {@return the delta's length} */
    public int length() {
      return length;
    }
  }

  /** One delta being collected. */
  private static final class Partial {
    long sequence = -1;
    byte[] bytes = new byte[0];
    boolean[] arrived = new boolean[0];
    int missing;

    void start(final long sequence, final int total) {
      this.sequence = sequence;
      if (bytes.length < total) {
        bytes = new byte[total];
      }
      final int count = count(total);
      if (arrived.length < count) {
        arrived = new boolean[count];
      }
      Arrays.fill(arrived, 0, count, false);
      missing = count;
    }
  }
}
