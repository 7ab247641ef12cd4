package dev.phalanx.ecs.snapshot;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.Checksum;

/**
 * The reader of snapshots and deltas, little-endian. It has two modes, chosen at creation:
 *
 * <ul>
 *   <li>{@linkplain #of(byte[], int, int) an array} read in place, no copy first: a delta, or a
 *       snapshot already in memory. Only these can be read at random ({@link #getIntAt}, {@link
 *       #update}) and cut short ({@link #limitTo}), and reused ({@link #reset}).
 *   <li>{@linkplain #of(ReadableByteChannel) a channel}, through a 64 KiB buffer refilled as reads
 *       need.
 * </ul>
 *
 * <p>Errors: offsets count from the input's first byte. The reader knows its offset and what is
 * being read ({@link #where}, set by the caller as it goes: "the header", "storage Position, field
 * x"), and every format error names both: {@link #error} builds {@link SnapshotFormatException}
 * "<i>rule</i> (reading <i>where</i>) (at byte <i>offset</i>)", after the input's kind if it was
 * given one ("bad delta: ..."). Input that ends before a read is "truncated stream: <i>n</i> more
 * byte(s) expected", thrown at the offset where the bytes ran out (the same for an array and a
 * channel); a scalar read that fails moves nothing. Counts are checked before anything is allocated
 * for them: {@link #getCount} against a maximum, {@link #count} against the bytes left.
 *
 * <p>The type parameter {@code X} is what a read may throw besides format errors: {@link
 * IOException} for a channel (a failed read), nothing checked for an array ({@code
 * RuntimeException}), so that readers of arrays handle format errors only.
 *
 * <p>Costs: each scalar read checks the buffered bytes with one comparison; refilling and failing
 * are out of line. A caller that checked a count may read its elements one by one: each read's
 * check then always passes. Bulk methods copy runs out of the buffer through its little-endian
 * typed views ({@link TypedViews}; nothing allocated per run or per element; no boxing).
 *
 * <p>Invariants: {@code 0 <= position <= limit <= buffer.length}; the buffered bytes are {@code
 * buffer[position, limit)}; the input's offset of {@code buffer[0]} is {@code consumed} (for an
 * array read from index {@code from}, {@code -from}); {@code channel} is null exactly when the
 * whole input is buffered.
 *
 * @param <X> the checked exception a read may throw besides format errors: {@code IOException} for
 *     a channel
 */
final class BinaryInput<X extends Exception> {

  /** The buffer of a channel's input, and the longest name. */
  private static final int CAPACITY = 1 << 16;

  private static final VarHandle SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle CHARS =
      MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * What is being read, named by every error ("storage Position, field x"): a string, or an object
   * whose {@code toString()} names it, called only when an error is built (so that a reader that
   * moves through many places need not build a string per place).
   */
  Object where = "the header";

  // What every error message starts with ("bad delta"), or null for nothing.
  private final String kind;
  // The channel refilling the buffer, or null when the buffer holds the whole input.
  private final ReadableByteChannel channel;
  private byte[] buffer;

  /** The buffer in the format's byte order, which a channel refills. */
  private ByteBuffer view;

  /** The buffer's typed views: they copy whole runs in bulk. */
  private final TypedViews views;

  private int position;
  private int limit;
  private long consumed;
  // The bytes of the last string getStringIndex read, for lastString.
  private int lastStringAt;
  private int lastStringLength;

  private BinaryInput(final ReadableByteChannel channel) {
    this.kind = null;
    this.channel = channel;
    this.buffer = new byte[CAPACITY];
    this.view = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
    this.views = new TypedViews(buffer);
  }

  private BinaryInput(final String kind, final byte[] array, final int from, final int length) {
    Objects.checkFromIndexSize(from, length, array.length);
    this.kind = kind;
    this.channel = null;
    this.buffer = array;
    this.view = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
    this.views = new TypedViews(array);
    this.position = from;
    this.limit = from + length;
    this.consumed = -from;
  }

  /**
   * {@return a reader of the {@code length} bytes of {@code array} from {@code from}, in place} It
   * never writes to the array, and its reads throw format errors only.
   *
   * @param <X> any exception type: none but format errors is thrown
   */
  static <X extends Exception> BinaryInput<X> of(
      final byte[] array, final int from, final int length) {
    return new BinaryInput<>(null, array, from, length);
  }

  /**
   * As {@link #of(byte[], int, int)}, its error messages starting with {@code kind} ("bad delta:
   * ...").
   *
   * @param <X> any exception type: none but format errors is thrown
   */
  static <X extends Exception> BinaryInput<X> of(
      final String kind, final byte[] array, final int from, final int length) {
    return new BinaryInput<>(kind, array, from, length);
  }

  /** {@return a reader of {@code channel} through a 64 KiB buffer} */
  static BinaryInput<IOException> of(final ReadableByteChannel channel) {
    return new BinaryInput<>(channel);
  }

  /**
   * {@return a reader of {@code bytes}' remaining bytes}: in place when the buffer is backed by an
   * array, else through a 64 KiB buffer. The buffer's position is not moved; see {@link #finish}.
   */
  static BinaryInput<IOException> of(final ByteBuffer bytes) {
    if (bytes.hasArray()) {
      return of(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
    }
    return of(StreamChannels.reading(bytes.duplicate()));
  }

  /**
   * Makes this array reader read the {@code length} bytes of {@code array} from {@code from}, from
   * their start, as a new {@link #of(String, byte[], int, int)} would: a caller that reads input
   * after input reuses one reader (and its views, as long as the array is the same). An array only.
   */
  void reset(final byte[] array, final int from, final int length) {
    arrayStart();
    Objects.checkFromIndexSize(from, length, array.length);
    if (array != buffer) {
      buffer = array;
      view = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
      views.of(array);
    }
    position = from;
    limit = from + length;
    consumed = -from;
    where = "the header";
  }

  /**
   * Leaves out this array reader's bytes from offset {@code end} on (a delta's checksum, once
   * checked); the reader stays where it is, which must be at or before {@code end}.
   */
  void limitTo(final int end) {
    final int from = arrayStart();
    Objects.checkIndex(position, from + end + 1);
    limit = from + end;
  }

  /** Moves {@code bytes}' position past the bytes read from it (see {@link #of(ByteBuffer)}). */
  void finish(final ByteBuffer bytes) {
    bytes.position(bytes.position() + (int) offset());
  }

  /** Returns the offset of the next byte. */
  long offset() {
    return consumed + position;
  }

  /**
   * {@return an upper bound of the bytes left: exact for an array, unbounded for a channel} Staging
   * sizes its arrays by it, so that a small input claiming large counts cannot make the reader's
   * caller allocate much more than the input holds.
   */
  long remainingBound() {
    return null == channel ? limit - position : Long.MAX_VALUE;
  }

  /**
   * Builds an exception at the current offset naming the broken {@code rule} and {@link #where}.
   */
  SnapshotFormatException error(final String rule) {
    return errorAt(offset(), rule);
  }

  /** As {@link #error(String)}, for a failure with a {@code cause}. */
  SnapshotFormatException error(final String rule, final Throwable cause) {
    return new SnapshotFormatException(offset(), message(rule), cause);
  }

  /** As {@link #error(String)}, at an earlier {@code offset}: where the broken value starts. */
  SnapshotFormatException errorAt(final long offset, final String rule) {
    return new SnapshotFormatException(offset, message(rule));
  }

  private String message(final String rule) {
    final String reading = rule + " (reading " + where + ")";
    return null == kind ? reading : kind + ": " + reading;
  }

  /** Makes at least {@code bytes} (at most the capacity) available, or throws "truncated". */
  private void need(final int bytes) throws SnapshotFormatException, X {
    if (limit - position < bytes) {
      refill(bytes);
    }
  }

  private void refill(final int bytes) throws SnapshotFormatException, X {
    if (null == channel) {
      throw truncated(bytes - (limit - position));
    }
    if (bytes > buffer.length) {
      throw new IllegalArgumentException(bytes + " bytes at once exceed the buffer");
    }
    System.arraycopy(buffer, position, buffer, 0, limit - position);
    consumed += position;
    limit -= position;
    position = 0;
    while (limit < bytes) {
      view.clear().position(limit);
      final int read;
      try {
        read = channel.read(view);
      } catch (final IOException e) {
        throw channelFailure(e);
      }
      if (read < 0) {
        throw truncated(bytes - limit);
      }
      limit += read;
    }
  }

  private SnapshotFormatException truncated(final int missing) {
    return error("truncated stream: " + missing + " more byte(s) expected");
  }

  /** {@code e} as the {@code X} of a channel's reader, whose {@code X} is IOException. */
  @SuppressWarnings("unchecked")
  private X channelFailure(final IOException e) {
    return (X) e;
  }

  /**
   * Returns how many elements of {@code width} bytes are buffered, after refilling (at least 1).
   */
  private int available(final int width) throws SnapshotFormatException, X {
    need(width);
    return (limit - position) / width;
  }

  /** Returns the index in the buffer of the input's bytes {@code [offset, offset + length)}. */
  private int index(final long offset, final int length) {
    final long at = offset - consumed;
    if (offset < 0 || at < 0 || at > limit - length) {
      throw new IndexOutOfBoundsException(
          "bytes [" + offset + ", " + (offset + length) + ") are not buffered");
    }
    return (int) at;
  }

  /** Returns the index in the array of the input's first byte. An array only. */
  private int arrayStart() {
    if (null != channel) {
      throw new IllegalStateException("a channel's input is not an array");
    }
    return (int) -consumed;
  }

  /** Reads a count and checks it is in {@code [0, max]}. */
  int getCount(final String of, final long max) throws SnapshotFormatException, X {
    final long at = offset();
    final int count = getInt();
    if (count < 0 || count > max) {
      throw errorAt(at, "corrupt count of " + of + ": " + count + " (expected 0 to " + max + ")");
    }
    return count;
  }

  /**
   * Checks that {@code count} items of at least {@code width} bytes each can still follow, and
   * returns it: for an array, one check then lets the caller allocate for them and read them.
   */
  int count(final int count, final int width) throws SnapshotFormatException {
    if (count < 0) {
      throw error("negative count " + count);
    }
    final long needed = (long) count * width;
    final long left = remainingBound();
    if (needed > left) {
      throw error("corrupt count " + count + ": " + needed + " byte(s) needed, " + left + " left");
    }
    return count;
  }

  byte getByte() throws SnapshotFormatException, X {
    need(1);
    return buffer[position++];
  }

  short getShort() throws SnapshotFormatException, X {
    need(2);
    final short value = (short) SHORTS.get(buffer, position);
    position += 2;
    return value;
  }

  char getChar() throws SnapshotFormatException, X {
    need(2);
    final char value = (char) CHARS.get(buffer, position);
    position += 2;
    return value;
  }

  int getInt() throws SnapshotFormatException, X {
    need(4);
    final int value = (int) INTS.get(buffer, position);
    position += 4;
    return value;
  }

  long getLong() throws SnapshotFormatException, X {
    need(8);
    final long value = (long) LONGS.get(buffer, position);
    position += 8;
    return value;
  }

  /** Reads the int at {@code offset}, which must be buffered (any offset of an array). */
  int getIntAt(final long offset) {
    return (int) INTS.get(buffer, index(offset, 4));
  }

  /** Feeds the bytes {@code [from, to)}, which must be buffered, to {@code checksum}. */
  void update(final Checksum checksum, final long from, final long to) {
    final int length = Math.toIntExact(to - from);
    checksum.update(buffer, index(from, length), length);
  }

  /** Reads a name (UTF-8, length-prefixed, at most 64 KiB). */
  String getString() throws SnapshotFormatException, X {
    final int length = getCount("string bytes", CAPACITY);
    need(length);
    final String value;
    try {
      value =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(buffer, position, length))
              .toString();
    } catch (final CharacterCodingException e) {
      throw error("malformed UTF-8 in a name");
    }
    position += length;
    return value;
  }

  /**
   * Reads a name as {@link #getString} does, without decoding it: returns the index of the
   * candidate (a name's UTF-8 bytes) it equals, or -1. {@link #lastString} then decodes it, for a
   * message. Allocates nothing.
   */
  int getStringIndex(final byte[][] candidates) throws SnapshotFormatException, X {
    final int length = getCount("string bytes", CAPACITY);
    need(length);
    lastStringAt = position;
    lastStringLength = length;
    position += length;
    for (int c = 0; c < candidates.length; c++) {
      final byte[] candidate = candidates[c];
      if (candidate.length == length
          && Arrays.equals(buffer, lastStringAt, lastStringAt + length, candidate, 0, length)) {
        return c;
      }
    }
    return -1;
  }

  /**
   * {@return the name the last {@link #getStringIndex} read, decoded} An array reader only (a
   * channel's buffer may have moved on).
   */
  String lastString() throws SnapshotFormatException {
    arrayStart();
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(buffer, lastStringAt, lastStringLength))
          .toString();
    } catch (final CharacterCodingException e) {
      throw errorAt(offset() - lastStringLength, "malformed UTF-8 in a name");
    }
  }

  /** Reads a string value written by {@code putChars}: {@code null} for length -1. */
  String getChars() throws SnapshotFormatException, X {
    final long at = offset();
    final int length = getInt();
    if (length < -1) {
      throw errorAt(at, "corrupt string length " + length);
    }
    if (-1 == length) {
      return null;
    }
    if (2L * length <= limit - position) {
      final char[] chars = new char[length];
      for (int i = 0; i < length; i++) {
        chars[i] = (char) CHARS.get(buffer, position + 2 * i);
      }
      position += 2 * length;
      return new String(chars);
    }
    // Grown as the characters arrive: a corrupt length runs into the end of the input first.
    final StringBuilder builder = new StringBuilder(Math.min(length, 1 << 12));
    int done = 0;
    while (done < length) {
      final int n = Math.min(length - done, available(2));
      for (int i = 0; i < n; i++) {
        builder.append((char) CHARS.get(buffer, position + 2 * i));
      }
      position += 2 * n;
      done += n;
    }
    return builder.toString();
  }

  /**
   * {@return a stream over the next {@code length} bytes (at most the capacity), in place} They are
   * not consumed: {@link #skip} them after. The stream is valid until the next read.
   */
  ByteArrayInputStream peek(final int length) throws SnapshotFormatException, X {
    need(length);
    return new ByteArrayInputStream(buffer, position, length);
  }

  void getBytes(final byte[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(1));
      System.arraycopy(buffer, position, target, from + done, n);
      position += n;
      done += n;
    }
  }

  void skip(final long bytes) throws SnapshotFormatException, X {
    long left = bytes;
    while (left > 0) {
      final int n = (int) Math.min(left, available(1));
      position += n;
      left -= n;
    }
  }

  void booleans(final boolean[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(1));
      for (int i = 0; i < n; i++) {
        target[from + done + i] = 0 != buffer[position + i];
      }
      position += n;
      done += n;
    }
  }

  void shorts(final short[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(2));
      views.shorts(position).get(TypedViews.index(position, 2), target, from + done, n);
      position += 2 * n;
      done += n;
    }
  }

  void chars(final char[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(2));
      views.chars(position).get(TypedViews.index(position, 2), target, from + done, n);
      position += 2 * n;
      done += n;
    }
  }

  void ints(final int[] target, final int from, final int count) throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(4));
      views.ints(position).get(TypedViews.index(position, 4), target, from + done, n);
      position += 4 * n;
      done += n;
    }
  }

  void longs(final long[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(8));
      views.longs(position).get(TypedViews.index(position, 8), target, from + done, n);
      position += 8 * n;
      done += n;
    }
  }

  void floats(final float[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(4));
      views.floats(position).get(TypedViews.index(position, 4), target, from + done, n);
      position += 4 * n;
      done += n;
    }
  }

  void doubles(final double[] target, final int from, final int count)
      throws SnapshotFormatException, X {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(8));
      views.doubles(position).get(TypedViews.index(position, 8), target, from + done, n);
      position += 8 * n;
      done += n;
    }
  }
}
