package dev.phalanx.ecs.snapshot;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * The little-endian writer of snapshots: a 64 KiB buffer flushed to a channel. Bulk methods copy
 * whole page ranges into the buffer through its little-endian views, in bulk (no boxing; one view
 * object per run of a page, none per element).
 */
final class SnapshotOutput {

  private static final int CAPACITY = 1 << 16;
  private static final VarHandle CHARS =
      MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final WritableByteChannel channel;
  private final byte[] buffer = new byte[CAPACITY];
  private final ByteBuffer wrapper = ByteBuffer.wrap(buffer);

  /** The buffer in the format's byte order: its typed views copy whole runs in bulk. */
  private final ByteBuffer view = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);

  private int used;
  private long flushed;

  SnapshotOutput(final WritableByteChannel channel) {
    this.channel = channel;
  }

  /** Returns the number of bytes written so far. */
  long offset() {
    return flushed + used;
  }

  void flush() throws IOException {
    wrapper.limit(used).position(0);
    while (wrapper.hasRemaining()) {
      channel.write(wrapper);
    }
    flushed += used;
    used = 0;
  }

  private void room(final int bytes) throws IOException {
    if (used + bytes > CAPACITY) {
      flush();
    }
  }

  /** Returns how many elements of {@code width} bytes fit before a flush is needed (at least 1). */
  private int fit(final int width) throws IOException {
    if (CAPACITY - used < width) {
      flush();
    }
    return (CAPACITY - used) / width;
  }

  /** Returns {@link #view} positioned at byte {@code at}. */
  private ByteBuffer viewAt(final int at) {
    view.clear().position(at);
    return view;
  }

  void putByte(final int value) throws IOException {
    room(1);
    buffer[used++] = (byte) value;
  }

  void putInt(final int value) throws IOException {
    room(4);
    INTS.set(buffer, used, value);
    used += 4;
  }

  void putLong(final long value) throws IOException {
    room(8);
    LONGS.set(buffer, used, value);
    used += 8;
  }

  void putBytes(final byte[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(1));
      System.arraycopy(source, from + done, buffer, used, n);
      used += n;
      done += n;
    }
  }

  /** Writes a metadata string: its UTF-8 length, then the bytes. */
  void putString(final String value) throws IOException {
    final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    putInt(bytes.length);
    putBytes(bytes, 0, bytes.length);
  }

  /** Writes a string value: its length in chars ({@code -1} for null), then UTF-16 code units. */
  void putChars(final String value) throws IOException {
    if (null == value) {
      putInt(-1);
      return;
    }
    final int length = value.length();
    putInt(length);
    int done = 0;
    while (done < length) {
      final int n = Math.min(length - done, fit(2));
      for (int i = 0; i < n; i++) {
        CHARS.set(buffer, used + 2 * i, value.charAt(done + i));
      }
      used += 2 * n;
      done += n;
    }
  }

  void booleans(final boolean[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(1));
      for (int i = 0; i < n; i++) {
        buffer[used + i] = source[from + done + i] ? (byte) 1 : 0;
      }
      used += n;
      done += n;
    }
  }

  void shorts(final short[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(2));
      viewAt(used).asShortBuffer().put(source, from + done, n);
      used += 2 * n;
      done += n;
    }
  }

  void chars(final char[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(2));
      viewAt(used).asCharBuffer().put(source, from + done, n);
      used += 2 * n;
      done += n;
    }
  }

  void ints(final int[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(4));
      viewAt(used).asIntBuffer().put(source, from + done, n);
      used += 4 * n;
      done += n;
    }
  }

  void longs(final long[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(8));
      viewAt(used).asLongBuffer().put(source, from + done, n);
      used += 8 * n;
      done += n;
    }
  }

  void floats(final float[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(4));
      viewAt(used).asFloatBuffer().put(source, from + done, n);
      used += 4 * n;
      done += n;
    }
  }

  void doubles(final double[] source, final int from, final int count) throws IOException {
    int done = 0;
    while (done < count) {
      final int n = Math.min(count - done, fit(8));
      viewAt(used).asDoubleBuffer().put(source, from + done, n);
      used += 8 * n;
      done += n;
    }
  }
}
