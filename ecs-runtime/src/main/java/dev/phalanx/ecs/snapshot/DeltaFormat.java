package dev.phalanx.ecs.snapshot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The delta format's constants, its growable little-endian output and its bounds-checked input
 * ({@code docs/snapshot-format.md}, "Deltas"). Package-private: {@link DeltaWriter} writes it,
 * {@link DeltaLoader} reads it.
 */
final class DeltaFormat {

  static final byte[] MAGIC = {'P', 'H', 'N', 'D'};

  static final int VERSION = 1;

  /** Magic, version and length: what a reader needs before it knows the delta's size. */
  static final int HEADER = 12;

  /** The CRC-32C trailer. */
  static final int TRAILER = 4;

  private static final VarHandle SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle CHARS =
      MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private DeltaFormat() {}

  /** {@return the CRC-32C of {@code bytes[from, to)}} */
  static int crc(final byte[] bytes, final int from, final int to) {
    final CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  /** A growable byte array written little-endian; reused from one delta to the next. */
  static final class Output {
    byte[] bytes = new byte[1 << 12];
    int size;

    void reset() {
      size = 0;
    }

    private void room(final int n) {
      if (size + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(size + n, 2 * bytes.length));
      }
    }

    void putByte(final int value) {
      room(1);
      bytes[size++] = (byte) value;
    }

    void putBytes(final byte[] source, final int from, final int length) {
      room(length);
      System.arraycopy(source, from, bytes, size, length);
      size += length;
    }

    void putShort(final short value) {
      room(2);
      SHORTS.set(bytes, size, value);
      size += 2;
    }

    void putChar(final char value) {
      room(2);
      CHARS.set(bytes, size, value);
      size += 2;
    }

    void putInt(final int value) {
      room(4);
      INTS.set(bytes, size, value);
      size += 4;
    }

    void putIntAt(final int at, final int value) {
      INTS.set(bytes, at, value);
    }

    void putLong(final long value) {
      room(8);
      LONGS.set(bytes, size, value);
      size += 8;
    }

    void putLongs(final long[] values, final int count) {
      room(8 * count);
      for (int i = 0; i < count; i++) {
        LONGS.set(bytes, size + 8 * i, values[i]);
      }
      size += 8 * count;
    }

    /** A name: its UTF-8 byte length, then the bytes. */
    void putString(final String value) {
      final byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      putInt(utf8.length);
      putBytes(utf8, 0, utf8.length);
    }

    /** A string value: its length in chars ({@code -1} for null), then UTF-16 code units. */
    void putChars(final String value) {
      if (null == value) {
        putInt(-1);
        return;
      }
      putInt(value.length());
      room(2 * value.length());
      for (int i = 0; i < value.length(); i++) {
        CHARS.set(bytes, size + 2 * i, value.charAt(i));
      }
      size += 2 * value.length();
    }
  }

  /**
   * Reads a delta held in an array, every read checked against the delta's end: a count or length
   * that runs past it throws {@link SnapshotFormatException} naming the offset, before anything is
   * allocated for it.
   */
  static final class Input {
    final byte[] bytes;
    final int start;
    final int end;
    int at;
    // What is being read, for messages.
    String where = "the header";

    Input(final byte[] bytes, final int start, final int end) {
      this.bytes = bytes;
      this.start = start;
      this.end = end;
      this.at = start;
    }

    SnapshotFormatException error(final String message) {
      return new SnapshotFormatException(at - start, "bad delta, in " + where + ": " + message);
    }

    private void need(final long n) throws SnapshotFormatException {
      if (n < 0 || n > end - at) {
        throw error("the delta ends after " + (end - at) + " more bytes, " + n + " needed");
      }
    }

    /** Checks that {@code count} items of at least {@code width} bytes each can still follow. */
    int count(final int count, final int width) throws SnapshotFormatException {
      if (count < 0) {
        throw error("negative count " + count);
      }
      need((long) count * width);
      return count;
    }

    byte getByte() throws SnapshotFormatException {
      need(1);
      return bytes[at++];
    }

    short getShort() throws SnapshotFormatException {
      need(2);
      final short value = (short) SHORTS.get(bytes, at);
      at += 2;
      return value;
    }

    char getChar() throws SnapshotFormatException {
      need(2);
      final char value = (char) CHARS.get(bytes, at);
      at += 2;
      return value;
    }

    int getInt() throws SnapshotFormatException {
      need(4);
      final int value = (int) INTS.get(bytes, at);
      at += 4;
      return value;
    }

    long getLong() throws SnapshotFormatException {
      need(8);
      final long value = (long) LONGS.get(bytes, at);
      at += 8;
      return value;
    }

    String getString() throws SnapshotFormatException {
      final int length = getInt();
      if (length < 0 || length > 65_536) {
        throw error("bad name length " + length);
      }
      need(length);
      final String value = new String(bytes, at, length, StandardCharsets.UTF_8);
      at += length;
      return value;
    }

    String getChars() throws SnapshotFormatException {
      final int length = getInt();
      if (-1 == length) {
        return null;
      }
      if (length < 0) {
        throw error("bad string length " + length);
      }
      need(2L * length);
      final char[] chars = new char[length];
      for (int i = 0; i < length; i++) {
        chars[i] = (char) CHARS.get(bytes, at + 2 * i);
      }
      at += 2 * length;
      return new String(chars);
    }
  }
}
