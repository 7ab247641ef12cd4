package dev.phalanx.ecs.snapshot;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The little-endian reader of snapshots: a 64 KiB buffer refilled from a channel, or a whole
 * snapshot already in memory (an array read in place: no copy into a buffer first). It knows its
 * byte offset and what it is reading ({@link #at}), so that every failure names both. Input that
 * ends early throws {@link SnapshotFormatException} ("truncated"). Bulk methods copy whole runs out
 * of the buffer through its little-endian views (one view object per run, none per element).
 */
final class SnapshotInput {

  private static final int CAPACITY = 1 << 16;
  private static final VarHandle CHARS =
      MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  // The channel refilling the buffer, or null when the buffer holds the whole input.
  private final ReadableByteChannel channel;
  private final byte[] buffer;
  private final ByteBuffer wrapper;

  /** The buffer in the format's byte order: its typed views copy whole runs in bulk. */
  private final ByteBuffer view;

  // The buffered bytes are [position, limit) of the buffer; the input's offset of buffer[0] is
  // consumed.
  private int position;
  private int limit;
  private long consumed;
  private String what = "the header";

  SnapshotInput(final ReadableByteChannel channel) {
    this.channel = channel;
    this.buffer = new byte[CAPACITY];
    this.wrapper = ByteBuffer.wrap(buffer);
    this.view = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Reads the {@code length} bytes of {@code array} from {@code from} in place; never writes. */
  SnapshotInput(final byte[] array, final int from, final int length) {
    this.channel = null;
    this.buffer = array;
    this.wrapper = null;
    this.view = ByteBuffer.wrap(array).order(ByteOrder.LITTLE_ENDIAN);
    this.position = from;
    this.limit = from + length;
    this.consumed = -from;
  }

  /**
   * {@return a reader of {@code snapshot}'s remaining bytes}: in place when the buffer is backed by
   * an array, else through a 64 KiB buffer. The buffer's position is not moved; see {@link
   * #finish}.
   */
  static SnapshotInput of(final ByteBuffer snapshot) {
    if (snapshot.hasArray()) {
      return new SnapshotInput(
          snapshot.array(), snapshot.arrayOffset() + snapshot.position(), snapshot.remaining());
    }
    return new SnapshotInput(StreamChannels.reading(snapshot.duplicate()));
  }

  /** Moves {@code snapshot}'s position past the bytes read from it (see {@link #of}). */
  void finish(final ByteBuffer snapshot) {
    snapshot.position(snapshot.position() + (int) offset());
  }

  /** Sets what is being read, for messages ("storage Position, field x"). */
  void at(final String description) {
    what = description;
  }

  /** Returns what is being read. */
  String what() {
    return what;
  }

  /** Returns the offset of the next byte. */
  long offset() {
    return consumed + position;
  }

  /**
   * {@return an upper bound of the bytes left: exact for an input in memory, unbounded for a
   * channel} Staging sizes its arrays by it, so that a small snapshot claiming large counts cannot
   * make the loader allocate much more than the snapshot holds.
   */
  long remainingBound() {
    return null == channel ? limit - position : Long.MAX_VALUE;
  }

  /** Builds an exception at the current offset naming what is being read. */
  SnapshotFormatException error(final String message) {
    return new SnapshotFormatException(offset(), message + " (reading " + what + ")");
  }

  /** Makes at least {@code bytes} (at most the capacity) available, or throws "truncated". */
  private void need(final int bytes) throws IOException {
    if (limit - position >= bytes) {
      return;
    }
    if (null == channel) {
      throw error("truncated stream: " + (bytes - (limit - position)) + " more byte(s) expected");
    }
    System.arraycopy(buffer, position, buffer, 0, limit - position);
    consumed += position;
    limit -= position;
    position = 0;
    while (limit < bytes) {
      wrapper.limit(CAPACITY).position(limit);
      final int read = channel.read(wrapper);
      if (read < 0) {
        throw error("truncated stream: " + (bytes - limit) + " more byte(s) expected");
      }
      limit += read;
    }
  }

  /**
   * Returns how many elements of {@code width} bytes are buffered, after refilling (at least 1).
   */
  private int available(final int width) throws IOException {
    need(width);
    return (limit - position) / width;
  }

  int getByte() throws IOException {
    need(1);
    return buffer[position++];
  }

  int getInt() throws IOException {
    need(4);
    final int value = (int) INTS.get(buffer, position);
    position += 4;
    return value;
  }

  long getLong() throws IOException {
    need(8);
    final long value = (long) LONGS.get(buffer, position);
    position += 8;
    return value;
  }

  /** Reads a count and checks it is in {@code [0, max]}. */
  int getCount(final String of, final long max) throws IOException {
    final long at = offset();
    final int count = getInt();
    if (count < 0 || count > max) {
      throw new SnapshotFormatException(
          at,
          "corrupt count of "
              + of
              + ": "
              + count
              + " (expected 0 to "
              + max
              + ") (reading "
              + what
              + ")");
    }
    return count;
  }

  /** Reads a metadata string (UTF-8, length-prefixed, at most 64 KiB). */
  String getString() throws IOException {
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

  /** Reads a string value written by {@code putChars}: {@code null} for length -1. */
  String getChars() throws IOException {
    final long at = offset();
    final int length = getInt();
    if (length < -1) {
      throw new SnapshotFormatException(
          at, "corrupt string length " + length + " (reading " + what + ")");
    }
    if (-1 == length) {
      return null;
    }
    // Grown as the characters arrive: a corrupt length runs into the end of the stream first.
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

  /** Returns {@link #view} positioned at byte {@code at}. */
  private ByteBuffer viewAt(final int at) {
    view.clear().position(at);
    return view;
  }

  void getBytes(final byte[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(1));
      System.arraycopy(buffer, position, target, from + done, n);
      position += n;
      done += n;
    }
  }

  void skip(final long bytes) throws IOException {
    long left = bytes;
    while (left > 0) {
      final int n = (int) Math.min(left, available(1));
      position += n;
      left -= n;
    }
  }

  void booleans(final boolean[] target, final int from, final int count) throws IOException {
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

  void shorts(final short[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(2));
      viewAt(position).asShortBuffer().get(target, from + done, n);
      position += 2 * n;
      done += n;
    }
  }

  void chars(final char[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(2));
      viewAt(position).asCharBuffer().get(target, from + done, n);
      position += 2 * n;
      done += n;
    }
  }

  void ints(final int[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(4));
      viewAt(position).asIntBuffer().get(target, from + done, n);
      position += 4 * n;
      done += n;
    }
  }

  void longs(final long[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(8));
      viewAt(position).asLongBuffer().get(target, from + done, n);
      position += 8 * n;
      done += n;
    }
  }

  void floats(final float[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(4));
      viewAt(position).asFloatBuffer().get(target, from + done, n);
      position += 4 * n;
      done += n;
    }
  }

  void doubles(final double[] target, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, available(8));
      viewAt(position).asDoubleBuffer().get(target, from + done, n);
      position += 8 * n;
      done += n;
    }
  }
}
