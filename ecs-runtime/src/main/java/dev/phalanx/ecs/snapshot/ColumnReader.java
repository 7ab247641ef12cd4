package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Entity;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads the fields of a storage section for {@link SnapshotReader}: field headers, the check of a
 * file's field against the type's current one, and the values, into one flat array per field or
 * into whole pages of the storage's page size (primitive fields of a load into an empty registry);
 * strings, enums by constant name and codec-written values; fields the type lost are skipped. Any
 * problem throws {@link SnapshotFormatException} naming the byte offset, the storage and the field.
 */
final class ColumnReader {

  private ColumnReader() {}

  /** A field as the file describes it. */
  static final class FileColumn {
    String name;
    byte code;
    String className;
    String[] constants;
  }

  static FileColumn readColumnHeader(final BinaryInput<IOException> in, final String storageName)
      throws IOException {
    final FileColumn column = new FileColumn();
    column.name = in.getString();
    in.where = storageName + ", field '" + column.name + "'";
    final long codeAt = in.offset();
    column.code = in.getByte();
    if (column.code < SnapshotFormat.BOOLEAN || column.code > SnapshotFormat.CODEC) {
      throw in.errorAt(codeAt, "corrupt type code " + column.code);
    }
    if (SnapshotFormat.ENUM == column.code || SnapshotFormat.CODEC == column.code) {
      column.className = in.getString();
    }
    if (SnapshotFormat.ENUM == column.code) {
      final int constants = in.getCount("enum constants", 1 << 16);
      // Grown as the names arrive: a corrupt count runs into the end of the stream first.
      final List<String> names = new ArrayList<>(Math.min(constants, 64));
      for (int i = 0; i < constants; i++) {
        names.add(in.getString());
      }
      column.constants = names.toArray(new String[0]);
    }
    return column;
  }

  static void checkSameType(
      final BinaryInput<IOException> in,
      final FileColumn column,
      final SnapshotFormat.Column into,
      final String storageName,
      final Map<Class<?>, ValueCodec<?>> codecs)
      throws SnapshotFormatException {
    final boolean sameClass =
        SnapshotFormat.CODEC != column.code || into.type().getName().equals(column.className);
    if (column.code != into.code() || !sameClass) {
      final String was =
          SnapshotFormat.CODEC == column.code
              ? column.className
              : SnapshotFormat.typeName(column.code);
      final String is =
          SnapshotFormat.CODEC == into.code()
              ? into.type().getName()
              : SnapshotFormat.typeName(into.code());
      throw in.error(
          "field '"
              + column.name
              + "' of "
              + storageName
              + " changed type: the snapshot has "
              + was
              + ", the class has "
              + is
              + "; a changed field type cannot be loaded (rename the field to drop the old"
              + " values)");
    }
    if (SnapshotFormat.CODEC == column.code && !codecs.containsKey(into.type())) {
      throw in.error(
          "field '"
              + column.name
              + "' of "
              + storageName
              + " is of type "
              + into.type().getName()
              + ", which needs a ValueCodec: register one with codec("
              + into.type().getSimpleName()
              + ".class, ...)");
    }
  }

  static boolean allPrimitive(final Iterable<SnapshotFormat.Column> columns) {
    for (final SnapshotFormat.Column column : columns) {
      if (column.code() >= SnapshotFormat.STRING) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads {@code size} values of a primitive column into pages of {@code pageSize} (at least one,
   * the last padded with zeros).
   */
  static Object readPages(
      final BinaryInput<IOException> in, final byte code, final int size, final int pageSize)
      throws IOException {
    // At least one page, so that a flat read of no value still gets its (empty) array.
    final int count = Math.max(1, (size + pageSize - 1) / pageSize);
    return switch (code) {
      case SnapshotFormat.BOOLEAN -> {
        final boolean[][] pages = new boolean[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new boolean[pageSize];
          in.booleans(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.BYTE -> {
        final byte[][] pages = new byte[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new byte[pageSize];
          in.getBytes(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.SHORT -> {
        final short[][] pages = new short[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new short[pageSize];
          in.shorts(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.CHAR -> {
        final char[][] pages = new char[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new char[pageSize];
          in.chars(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.INT -> {
        final int[][] pages = new int[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new int[pageSize];
          in.ints(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.LONG, SnapshotFormat.ENTITY -> {
        final long[][] pages = new long[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new long[pageSize];
          in.longs(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.FLOAT -> {
        final float[][] pages = new float[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new float[pageSize];
          in.floats(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      case SnapshotFormat.DOUBLE -> {
        final double[][] pages = new double[count][];
        for (int page = 0, from = 0; page < count; page++, from += pageSize) {
          pages[page] = new double[pageSize];
          in.doubles(pages[page], 0, Math.min(pageSize, size - from));
        }
        yield pages;
      }
      default -> throw new IllegalStateException("not a primitive column code: " + code);
    };
  }

  static Object readColumn(
      final BinaryInput<IOException> in,
      final FileColumn column,
      final SnapshotFormat.Column into,
      final int size,
      final long[] packed,
      final Map<Class<?>, ValueCodec<?>> codecs)
      throws IOException {
    if (column.code < SnapshotFormat.STRING) {
      // A primitive field: one page of exactly its size.
      return ((Object[]) readPages(in, column.code, size, Math.max(1, size)))[0];
    }
    switch (column.code) {
      case SnapshotFormat.STRING -> {
        final Object[] data = new Object[size];
        for (int p = 0; p < size; p++) {
          data[p] = in.getChars();
        }
        return data;
      }
      case SnapshotFormat.ENUM -> {
        return readEnums(in, column, into, size, packed);
      }
      default -> {
        return readCodec(in, into, size, codecs);
      }
    }
  }

  static Object[] readEnums(
      final BinaryInput<IOException> in,
      final FileColumn column,
      final SnapshotFormat.Column into,
      final int size,
      final long[] packed)
      throws IOException {
    final Object[] targets = into.type().getEnumConstants();
    final Object[] byFileOrdinal = new Object[column.constants.length];
    for (int i = 0; i < byFileOrdinal.length; i++) {
      for (final Object constant : targets) {
        if (((Enum<?>) constant).name().equals(column.constants[i])) {
          byFileOrdinal[i] = constant;
        }
      }
    }
    final Object[] data = new Object[size];
    for (int p = 0; p < size; p++) {
      final long at = in.offset();
      final int ordinal = in.getInt();
      if (-1 == ordinal) {
        continue;
      }
      if (ordinal < 0 || ordinal >= byFileOrdinal.length) {
        throw in.errorAt(at, "corrupt enum index " + ordinal);
      }
      if (null == byFileOrdinal[ordinal] && !Entity.isTombstone(packed[p])) {
        throw new SnapshotFormatException(
            at,
            "enum constant "
                + column.constants[ordinal]
                + " of "
                + into.type().getName()
                + " no longer exists (reading "
                + in.where
                + ", position "
                + p
                + ")");
      }
      data[p] = byFileOrdinal[ordinal];
    }
    return data;
  }

  static Object[] readCodec(
      final BinaryInput<IOException> in,
      final SnapshotFormat.Column into,
      final int size,
      final Map<Class<?>, ValueCodec<?>> codecs)
      throws IOException {
    final ValueCodec<?> codec = codecs.get(into.type());
    final Slice slice = new Slice();
    final DataInputStream data = new DataInputStream(slice);
    final Object[] values = new Object[size];
    byte[] bytes = new byte[64];
    for (int p = 0; p < size; p++) {
      final long at = in.offset();
      final int length = in.getInt();
      if (-1 == length) {
        continue;
      }
      if (length < 0) {
        throw in.errorAt(at, "corrupt value length " + length);
      }
      if (length > bytes.length) {
        bytes = readBytes(in, length);
      } else {
        in.getBytes(bytes, 0, length);
      }
      slice.set(bytes, length);
      final Object value;
      try {
        value = codec.read(data);
      } catch (final IOException | RuntimeException e) {
        throw new SnapshotFormatException(
            at,
            "the codec of "
                + into.type().getName()
                + " failed on the value at"
                + " position "
                + p
                + " (reading "
                + in.where
                + "): "
                + e,
            e);
      }
      if (0 != slice.remaining() || !into.type().isInstance(value)) {
        throw new SnapshotFormatException(
            at,
            "the codec of "
                + into.type().getName()
                + " read "
                + (length - slice.remaining())
                + " of "
                + length
                + " bytes or returned a "
                + (null == value ? "null" : value.getClass().getName())
                + " (reading "
                + in.where
                + ", position "
                + p
                + ")");
      }
      values[p] = value;
    }
    return values;
  }

  static void skipColumn(final BinaryInput<IOException> in, final FileColumn column, final int size)
      throws IOException {
    final int width = SnapshotFormat.width(column.code);
    if (0 != width) {
      in.skip((long) width * size);
      return;
    }
    for (int p = 0; p < size; p++) {
      final long at = in.offset();
      final int length = in.getInt();
      if (SnapshotFormat.ENUM == column.code || -1 == length) {
        continue;
      }
      if (length < 0) {
        throw in.errorAt(at, "corrupt value length " + length);
      }
      in.skip(SnapshotFormat.STRING == column.code ? 2L * length : length);
    }
  }

  static long[] readLongs(final BinaryInput<IOException> in, final int count) throws IOException {
    // Sized by what the input can still hold (known for memory), else grown as data arrives: a
    // corrupt count runs into the end of the stream before a large allocation.
    final long fits = Long.MAX_VALUE == in.remainingBound() ? 1 << 16 : in.remainingBound() / 8 + 1;
    long[] data = new long[(int) Math.min(count, fits)];
    int done = 0;
    while (done < count) {
      if (done == data.length) {
        // By four: the bound stays a constant factor of what arrived, with few copies.
        data = Arrays.copyOf(data, (int) Math.min(count, 4L * data.length));
      }
      final int n = data.length - done;
      in.longs(data, done, n);
      done += n;
    }
    return data;
  }

  static byte[] readBytes(final BinaryInput<IOException> in, final int length) throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.min(length, 1 << 16));
    final byte[] chunk = new byte[Math.min(length, 1 << 16)];
    for (int done = 0; done < length; ) {
      final int n = Math.min(chunk.length, length - done);
      in.getBytes(chunk, 0, n);
      bytes.write(chunk, 0, n);
      done += n;
    }
    return bytes.toByteArray();
  }

  /** A reusable input over the first bytes of an array. */
  private static final class Slice extends InputStream {
    private byte[] bytes;
    private int position;
    private int limit;

    void set(final byte[] source, final int length) {
      bytes = source;
      position = 0;
      limit = length;
    }

    int remaining() {
      return limit - position;
    }

    @Override
    public int read() {
      return position < limit ? bytes[position++] & 0xFF : -1;
    }

    @Override
    public int read(final byte[] target, final int offset, final int length) {
      if (position >= limit) {
        return -1;
      }
      final int n = Math.min(length, limit - position);
      System.arraycopy(bytes, position, target, offset, n);
      position += n;
      return n;
    }
  }
}
