package dev.phalanx.ecs.snapshot;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The writer of snapshots and deltas, little-endian. It has two modes, chosen at creation:
 *
 * <ul>
 *   <li>{@linkplain #inMemory() in memory}: a growable array (4 KiB first, doubled as needed) that
 *       the caller reads back whole ({@link #bytes()}, {@link #size()}), back-patches ({@link
 *       #putIntAt}) and reuses ({@link #reset()}). Deltas are written so.
 *   <li>{@linkplain #to(WritableByteChannel) to a channel}: a 64 KiB buffer, flushed to the channel
 *       when a write does not fit and by {@link #flush()}. Snapshots are written so.
 * </ul>
 *
 * <p>The type parameter {@code X} is what a write may throw besides unchecked exceptions: {@link
 * IOException} for a channel (a failed flush), nothing checked in memory ({@code
 * RuntimeException}), so that delta writers need not handle an I/O failure that cannot happen.
 *
 * <p>Costs: each scalar write checks the room left with one comparison; growing or flushing is out
 * of line. Bulk methods copy a run in as few pieces as the buffer allows, through the buffer's
 * little-endian typed views ({@link TypedViews}): nothing is allocated per write, per piece or per
 * element.
 *
 * <p>Invariants: {@code 0 <= used <= buffer.length}; the bytes written so far are the {@code
 * flushed} bytes already handed to the channel (always 0 in memory), then {@code buffer[0, used)};
 * {@code view} and {@code views} wrap the current {@code buffer}.
 *
 * @param <X> the checked exception a write may throw: {@code IOException} for a channel
 */
final class BinaryOutput<X extends Exception> {

  /** The buffer of a channel's output. */
  private static final int CAPACITY = 1 << 16;

  /** The first array of an output in memory. */
  private static final int FIRST = 1 << 12;

  /** The largest array an output in memory grows to. */
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private static final VarHandle SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle CHARS =
      MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  // The channel the buffer is flushed to, or null in memory.
  private final WritableByteChannel channel;
  private byte[] buffer;

  /** The buffer in the format's byte order, which a flush hands to the channel. */
  private ByteBuffer view;

  // The buffer's typed views, for the bulk writes.
  private final TypedViews views;

  private int used;
  private long flushed;

  private BinaryOutput(final WritableByteChannel channel, final int capacity) {
    this.channel = channel;
    this.buffer = new byte[capacity];
    this.view = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
    this.views = new TypedViews(buffer);
  }

  /**
   * {@return an empty output in memory} Its writes throw nothing checked.
   *
   * @param <X> any exception type: none is thrown
   */
  static <X extends Exception> BinaryOutput<X> inMemory() {
    return new BinaryOutput<>(null, FIRST);
  }

  /** {@return an output through a 64 KiB buffer to {@code channel}} */
  static BinaryOutput<IOException> to(final WritableByteChannel channel) {
    return new BinaryOutput<>(channel, CAPACITY);
  }

  /** Returns the number of bytes written so far. */
  long offset() {
    return flushed + used;
  }

  /** {@return the array holding the bytes written, {@code [0, size())}} In memory only. */
  byte[] bytes() {
    return buffer;
  }

  /** {@return the number of bytes written} In memory only. */
  int size() {
    return used;
  }

  /** Forgets the bytes written, keeping the array. In memory only. */
  void reset() {
    used = 0;
  }

  /** Hands the buffered bytes to the channel; nothing to do in memory. */
  void flush() throws X {
    if (null == channel) {
      return;
    }
    view.clear().limit(used);
    try {
      while (view.hasRemaining()) {
        channel.write(view);
      }
    } catch (final IOException e) {
      throw channelFailure(e);
    }
    flushed += used;
    used = 0;
  }

  /** {@code e} as the {@code X} of an output to a channel, whose {@code X} is IOException. */
  @SuppressWarnings("unchecked")
  private X channelFailure(final IOException e) {
    return (X) e;
  }

  /** Makes room for {@code bytes} (at most the capacity of a channel's buffer). */
  private void room(final int bytes) throws X {
    if (bytes > buffer.length - used) {
      makeRoom(bytes);
    }
  }

  private void makeRoom(final long bytes) throws X {
    if (null == channel) {
      grow(bytes);
    } else {
      flush();
    }
  }

  /** Grows the array of an output in memory to take {@code bytes} more. */
  private void grow(final long bytes) {
    final long needed = used + bytes;
    if (needed > MAX_ARRAY) {
      throw new OutOfMemoryError("an output in memory cannot hold " + needed + " bytes");
    }
    buffer = Arrays.copyOf(buffer, (int) Math.min(MAX_ARRAY, Math.max(needed, 2L * buffer.length)));
    view = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
    views.of(buffer);
  }

  /**
   * Returns how many of {@code count} (at least 1) elements of {@code width} bytes fit, after
   * making room: in memory all of them, through a channel at least one.
   */
  private int fit(final int width, final int count) throws X {
    final long bytes = (long) width * count;
    if (bytes > buffer.length - used) {
      if (null == channel) {
        grow(bytes);
      } else if (buffer.length - used < width) {
        flush();
      }
    }
    return Math.min(count, (buffer.length - used) / width);
  }

  void putByte(final int value) throws X {
    room(1);
    buffer[used++] = (byte) value;
  }

  void putShort(final short value) throws X {
    room(2);
    SHORTS.set(buffer, used, value);
    used += 2;
  }

  void putChar(final char value) throws X {
    room(2);
    CHARS.set(buffer, used, value);
    used += 2;
  }

  void putInt(final int value) throws X {
    room(4);
    INTS.set(buffer, used, value);
    used += 4;
  }

  /** Overwrites the int at byte {@code at} of {@link #bytes()}, written earlier. In memory only. */
  void putIntAt(final int at, final int value) {
    INTS.set(buffer, at, value);
  }

  void putLong(final long value) throws X {
    room(8);
    LONGS.set(buffer, used, value);
    used += 8;
  }

  void putBytes(final byte[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(1, count - done);
      System.arraycopy(source, from + done, buffer, used, n);
      used += n;
      done += n;
    }
  }

  /** Writes a name: its UTF-8 length, then the bytes. */
  void putString(final String value) throws X {
    final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    putInt(bytes.length);
    putBytes(bytes, 0, bytes.length);
  }

  /** Writes a string value: its length in chars ({@code -1} for null), then UTF-16 code units. */
  void putChars(final String value) throws X {
    if (null == value) {
      putInt(-1);
      return;
    }
    final int length = value.length();
    putInt(length);
    int done = 0;
    while (done < length) {
      final int n = fit(2, length - done);
      for (int i = 0; i < n; i++) {
        CHARS.set(buffer, used + 2 * i, value.charAt(done + i));
      }
      used += 2 * n;
      done += n;
    }
  }

  void booleans(final boolean[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(1, count - done);
      for (int i = 0; i < n; i++) {
        buffer[used + i] = source[from + done + i] ? (byte) 1 : 0;
      }
      used += n;
      done += n;
    }
  }

  void shorts(final short[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(2, count - done);
      views.shorts(used).put(TypedViews.index(used, 2), source, from + done, n);
      used += 2 * n;
      done += n;
    }
  }

  void chars(final char[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(2, count - done);
      views.chars(used).put(TypedViews.index(used, 2), source, from + done, n);
      used += 2 * n;
      done += n;
    }
  }

  void ints(final int[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(4, count - done);
      views.ints(used).put(TypedViews.index(used, 4), source, from + done, n);
      used += 4 * n;
      done += n;
    }
  }

  void longs(final long[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(8, count - done);
      views.longs(used).put(TypedViews.index(used, 8), source, from + done, n);
      used += 8 * n;
      done += n;
    }
  }

  void floats(final float[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(4, count - done);
      views.floats(used).put(TypedViews.index(used, 4), source, from + done, n);
      used += 4 * n;
      done += n;
    }
  }

  void doubles(final double[] source, final int from, final int count) throws X {
    int done = 0;
    while (done < count) {
      final int n = fit(8, count - done);
      views.doubles(used).put(TypedViews.index(used, 8), source, from + done, n);
      used += 8 * n;
      done += n;
    }
  }
}
