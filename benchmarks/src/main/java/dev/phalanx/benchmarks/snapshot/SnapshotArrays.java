package dev.phalanx.benchmarks.snapshot;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The arrays a snapshot carries, found by walking its bytes (format version 1, {@code
 * docs/snapshot-format.md}): the entity storage's packed array, then for each storage its packed
 * array and one column per field. It gives the limit that the issue sets snapshots against, a plain
 * bulk copy of the same arrays to and from a byte buffer: {@link #load} allocates arrays of the
 * shapes a loaded registry holds (packed arrays flat, fields in pages of the storage's page size)
 * and fills them from the snapshot's bytes; {@link #save} writes such arrays back at the same
 * offsets. {@link #loadSparse} adds what a loaded registry holds and no snapshot carries, its
 * sparse arrays, bulk-copied from an image of their size.
 *
 * <p>It copies the column types the particle world has (int, long and float fields) and nothing
 * else: that world is the only one it measures. Any other column throws an {@link
 * IllegalArgumentException} naming it, from the constructor's walk or from a copy.
 */
final class SnapshotArrays {

  /** One array in the snapshot: where its values start, how many, and how they are paged. */
  private record Segment(int offset, int count, byte type, int pageSize) {

    Object read(final ByteBuffer bytes) {
      bytes.position(offset);
      return switch (type) {
        case 0 -> read(bytes.asLongBuffer()); // a packed array, flat
        case 5 -> readInts(bytes);
        case 6, 7 -> readLongs(bytes);
        case 8 -> readFloats(bytes);
        default -> throw notCopied("column type " + type);
      };
    }

    private long[] read(final LongBuffer in) {
      final long[] values = new long[count];
      in.get(values);
      return values;
    }

    private int[][] readInts(final ByteBuffer bytes) {
      final IntBuffer in = bytes.asIntBuffer();
      final int[][] pages = new int[pageCount()][];
      for (int p = 0; p < pages.length; p++) {
        pages[p] = new int[pageSize];
        in.get(pages[p], 0, length(p));
      }
      return pages;
    }

    private long[][] readLongs(final ByteBuffer bytes) {
      final LongBuffer in = bytes.asLongBuffer();
      final long[][] pages = new long[pageCount()][];
      for (int p = 0; p < pages.length; p++) {
        pages[p] = new long[pageSize];
        in.get(pages[p], 0, length(p));
      }
      return pages;
    }

    private float[][] readFloats(final ByteBuffer bytes) {
      final FloatBuffer in = bytes.asFloatBuffer();
      final float[][] pages = new float[pageCount()][];
      for (int p = 0; p < pages.length; p++) {
        pages[p] = new float[pageSize];
        in.get(pages[p], 0, length(p));
      }
      return pages;
    }

    void write(final ByteBuffer bytes, final Object arrays) {
      bytes.position(offset);
      switch (type) {
        case 0 -> bytes.asLongBuffer().put((long[]) arrays);
        case 5 -> {
          final IntBuffer out = bytes.asIntBuffer();
          final int[][] pages = (int[][]) arrays;
          for (int p = 0; p < pages.length; p++) {
            out.put(pages[p], 0, length(p));
          }
        }
        case 6, 7 -> {
          final LongBuffer out = bytes.asLongBuffer();
          final long[][] pages = (long[][]) arrays;
          for (int p = 0; p < pages.length; p++) {
            out.put(pages[p], 0, length(p));
          }
        }
        case 8 -> {
          final FloatBuffer out = bytes.asFloatBuffer();
          final float[][] pages = (float[][]) arrays;
          for (int p = 0; p < pages.length; p++) {
            out.put(pages[p], 0, length(p));
          }
        }
        default -> throw notCopied("column type " + type);
      }
    }

    private int pageCount() {
      return (count + pageSize - 1) / pageSize;
    }

    private int length(final int page) {
      return Math.min(pageSize, count - page * pageSize);
    }

    int bytes() {
      return count * (5 == type || 8 == type ? 4 : 8);
    }
  }

  /** Ints per sparse page, as {@code SparseSet} pages its sparse arrays. */
  private static final int PAGE = SparseSet.SPARSE_PAGE_SIZE;

  private static final int SPARSE_SHIFT = Integer.numberOfTrailingZeros(PAGE);

  private final List<Segment> segments = new ArrayList<>();

  /** For each storage, in order, the numbers of the sparse pages it holds once loaded. */
  private final int[][] sparsePages;

  /**
   * Walks {@code snapshot}, a full snapshot of {@code registry} written by {@code
   * SnapshotWriter(registry)} (every storage, in creation order), whose page sizes it takes.
   */
  SnapshotArrays(final byte[] snapshot, final Registry registry) {
    final ByteBuffer in = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
    in.position(12); // magic, version, flags
    final int count = in.getInt();
    in.getInt(); // alive
    segments.add(new Segment(in.position(), count, (byte) 0, 0));
    skip(in, 8L * count);
    final int extras = in.getInt();
    for (int i = 0; i < extras; i++) {
      string(in);
      skip(in, in.getInt());
    }
    final int storages = in.getInt();
    if (storages != registry.storageCount()) {
      throw new IllegalStateException(
          storages + " storages, registry has " + registry.storageCount());
    }
    for (int s = 0; s < storages; s++) {
      final String key = string(in);
      final String name = registry.storageAt(s).type().javaClass().getName();
      if (key.startsWith("class:") && !key.equals("class:" + name)) {
        throw new IllegalStateException(key + " is not storage " + s + ", " + name);
      }
      final int pageSize = registry.storageAt(s).pageSize();
      in.get(); // policy
      final byte[] types = new byte[in.getInt()];
      for (int f = 0; f < types.length; f++) {
        string(in);
        types[f] = in.get();
        if (types[f] >= 10) {
          throw notCopied("a reference column in " + key);
        }
      }
      final int size = in.getInt();
      in.getInt(); // first hole
      segments.add(new Segment(in.position(), size, (byte) 0, 0));
      skip(in, 8L * size);
      for (final byte type : types) {
        final Segment column = new Segment(in.position(), size, type, pageSize);
        segments.add(column);
        skip(in, column.bytes());
      }
    }
    final byte[] end = new byte[4];
    in.get(end);
    if (!"END!".equals(new String(end, StandardCharsets.US_ASCII))) {
      throw new IllegalStateException("no end marker after the storages");
    }
    sparsePages = sparsePages(snapshot);
  }

  /**
   * {@return for each storage, the pages of its sparse array that a loaded registry holds} One page
   * of {@link SparseSet#SPARSE_PAGE_SIZE} ints for each page of indices its entities touch, found
   * from the snapshot's packed arrays: no snapshot carries sparse arrays.
   */
  private int[][] sparsePages(final byte[] snapshot) {
    final List<int[]> pages = new ArrayList<>();
    for (final Segment segment : segments.subList(1, segments.size())) {
      if (0 != segment.type) {
        continue; // a field column
      }
      final LongBuffer packed =
          ByteBuffer.wrap(snapshot, segment.offset, 8 * segment.count)
              .order(ByteOrder.LITTLE_ENDIAN)
              .asLongBuffer();
      final BitSet touched = new BitSet();
      for (int i = 0; i < segment.count; i++) {
        final long entity = packed.get(i);
        if (!Entity.isTombstone(entity)) { // a hole has no sparse entry
          touched.set(Entity.index(entity) >>> SPARSE_SHIFT);
        }
      }
      pages.add(touched.stream().toArray());
    }
    return pages.toArray(new int[0][]);
  }

  /**
   * {@return the bytes of the sparse arrays a loaded registry holds besides the snapshot's values}
   * The entity storage's position per index, and every storage's sparse pages.
   */
  long sparseBytes() {
    long bytes = 4L * segments.get(0).count;
    for (final int[] pages : sparsePages) {
      bytes += 4L * PAGE * pages.length;
    }
    return bytes;
  }

  /**
   * {@return fresh sparse arrays of the shapes a loaded registry holds, bulk-copied from {@code
   * image}} ({@link #sparseBytes} long, as if a file carried them): the entity storage's positions,
   * then each storage's pages.
   */
  Object[] loadSparse(final byte[] image) {
    final IntBuffer in = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    final Object[] arrays = new Object[1 + sparsePages.length];
    final int[] positions = new int[segments.get(0).count];
    in.get(positions);
    arrays[0] = positions;
    for (int s = 0; s < sparsePages.length; s++) {
      final int[] touched = sparsePages[s];
      final int[][] pages = new int[0 == touched.length ? 0 : touched[touched.length - 1] + 1][];
      for (final int page : touched) {
        pages[page] = new int[PAGE];
        in.get(pages[page]);
      }
      arrays[1 + s] = pages;
    }
    return arrays;
  }

  /** {@return the bytes of all the arrays' values} */
  long bytes() {
    long bytes = 0;
    for (final Segment segment : segments) {
      bytes += 0 == segment.type ? 8L * segment.count : segment.bytes();
    }
    return bytes;
  }

  /** {@return fresh arrays filled from {@code snapshot}, one per segment} */
  Object[] load(final byte[] snapshot) {
    final ByteBuffer in = ByteBuffer.wrap(snapshot).order(ByteOrder.LITTLE_ENDIAN);
    final Object[] arrays = new Object[segments.size()];
    for (int i = 0; i < arrays.length; i++) {
      arrays[i] = segments.get(i).read(in);
    }
    return arrays;
  }

  /** Writes {@code arrays} (from {@link #load}) into {@code target} at the snapshot's offsets. */
  void save(final Object[] arrays, final byte[] target) {
    final ByteBuffer out = ByteBuffer.wrap(target).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < arrays.length; i++) {
      segments.get(i).write(out, arrays[i]);
    }
  }

  /**
   * Checks that {@link #save} of {@link #load}'s arrays gives the snapshot's values back, byte for
   * byte, in every segment.
   *
   * @throws IllegalStateException if a segment differs
   */
  void verify(final byte[] snapshot) {
    final byte[] written = new byte[snapshot.length];
    save(load(snapshot), written);
    for (final Segment segment : segments) {
      final int end = segment.offset + (0 == segment.type ? 8 * segment.count : segment.bytes());
      if (!Arrays.equals(snapshot, segment.offset, end, written, segment.offset, end)) {
        throw new IllegalStateException("the bulk copy differs from the snapshot in " + segment);
      }
    }
  }

  private static String string(final ByteBuffer in) {
    final byte[] utf8 = new byte[in.getInt()];
    in.get(utf8);
    return new String(utf8, StandardCharsets.UTF_8);
  }

  private static void skip(final ByteBuffer in, final long bytes) {
    in.position(Math.toIntExact(in.position() + bytes));
  }

  private static IllegalArgumentException notCopied(final String what) {
    return new IllegalArgumentException(
        what + ": SnapshotArrays copies the particle world's int, long and float columns only");
  }
}
