package dev.phalanx.benchmarks.snapshot;

import dev.phalanx.examples.particles.World;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Save and load of the particle example's world (1M roots by default, after 20 frames, so with
 * comets, their tails' relationships, holes and recycled identifiers), through the example's own
 * {@code World.save} and {@code World.load}. Side by side, three limits, single-threaded:
 *
 * <ul>
 *   <li>{@code *BulkCopyArrays}, the one the issue sets: a plain bulk copy of the same arrays
 *       (every packed array and field column the snapshot holds, {@link SnapshotArrays}) to a byte
 *       buffer, and from it into fresh arrays of the shapes a loaded world holds;
 *   <li>{@code loadBulkCopyArraysAndSparse}: the same, plus the sparse arrays a loaded world holds
 *       and no snapshot carries, bulk-copied too: everything a load must produce;
 *   <li>{@code *CopyBytes}: moving the snapshot's bytes with {@code System.arraycopy} (save) and
 *       into one fresh array (load), the limit for any format of that size.
 * </ul>
 *
 * Times per whole world.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ExampleWorldSnapshot {

  @Param("1000000")
  int roots;

  World world;
  byte[] snapshot;
  Sink sink;
  SnapshotArrays arrays;
  Object[] loadedArrays;
  byte[] sparseImage;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    world = ExampleWorldDelta.exampleWorld(roots);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    world.save(out);
    snapshot = out.toByteArray();
    sink = new Sink(snapshot.length);
    arrays = new SnapshotArrays(snapshot, world.registry());
    arrays.verify(snapshot);
    loadedArrays = arrays.load(snapshot);
    sparseImage = new byte[Math.toIntExact(arrays.sparseBytes())];
    System.err.printf(
        "%nexample world: %,d entities, %,d bytes, %.2f bytes per entity%n",
        world.registry().alive(),
        snapshot.length,
        snapshot.length / (double) world.registry().alive());
    System.err.printf(
        "arrays: %,d bytes of values in %,d arrays, %,d bytes of sparse arrays%n",
        arrays.bytes(), loadedArrays.length, arrays.sparseBytes());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    world.close();
  }

  @Benchmark
  public int saveSnapshot() throws IOException {
    sink.reset();
    world.save(sink);
    return sink.size;
  }

  @Benchmark
  public long loadSnapshot() throws IOException {
    try (World loaded = World.load(new ByteArrayInputStream(snapshot), 1, 100)) {
      return loaded.registry().alive();
    }
  }

  /** As {@link #loadSnapshot}, from the array read in place ({@code World.load(ByteBuffer)}). */
  @Benchmark
  public long loadSnapshotInPlace() throws IOException {
    try (World loaded = World.load(ByteBuffer.wrap(snapshot), 1, 100)) {
      return loaded.registry().alive();
    }
  }

  @Benchmark
  public int saveCopyBytes() {
    System.arraycopy(snapshot, 0, sink.bytes, 0, snapshot.length);
    return sink.bytes.length;
  }

  @Benchmark
  public byte[] loadCopyBytes() {
    return snapshot.clone();
  }

  /**
   * The limit the issue sets: the same arrays as the snapshot's, bulk-copied into a byte buffer at
   * the snapshot's offsets (headers excepted).
   */
  @Benchmark
  public byte[] saveBulkCopyArrays() {
    arrays.save(loadedArrays, sink.bytes);
    return sink.bytes;
  }

  /**
   * The limit the issue sets: fresh arrays of the shapes a loaded world holds (packed arrays flat,
   * fields in pages), bulk-copied from the snapshot's bytes.
   */
  @Benchmark
  public Object[] loadBulkCopyArrays() {
    return arrays.load(snapshot);
  }

  /**
   * What a load produces besides the values, as a limit: the same bulk copy as {@link
   * #loadBulkCopyArrays}, plus the sparse arrays a loaded world holds (the entity storage's
   * positions and every storage's sparse pages, {@link SnapshotArrays#loadSparse}), bulk-copied
   * from an image of their size as if the snapshot carried them. It does not.
   */
  @Benchmark
  public Object[] loadBulkCopyArraysAndSparse() {
    return new Object[] {arrays.load(snapshot), arrays.loadSparse(sparseImage)};
  }

  /** A stream into a preallocated array: measures the snapshot, not a growing stream. */
  static final class Sink extends OutputStream {
    final byte[] bytes;
    int size;

    Sink(final int capacity) {
      bytes = new byte[capacity];
    }

    void reset() {
      size = 0;
    }

    @Override
    public void write(final int b) {
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(final byte[] source, final int offset, final int length) {
      System.arraycopy(source, offset, bytes, size, length);
      size += length;
    }
  }
}
