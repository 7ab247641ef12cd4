package dev.phalanx.benchmarks.snapshot;

import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Save and load of 1M entities with two float components (Position, Velocity): Phalanx snapshots
 * against the limit (a bulk copy of the same four float arrays into a little-endian byte buffer)
 * and against Java serialization of the same data as one object per entity. Times per whole world.
 *
 * <p>The snapshot also holds every entity's identifier and each storage's entity list (40 bytes per
 * entity here against 16 of field data), so a second limit, {@code *BulkCopyAll}, copies all of
 * those arrays too: it is the floor for a format that carries identities.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class SnapshotBench {

  static final int ENTITIES = 1_000_000;

  /** One entity's data as an object, for Java serialization. */
  record Particle(float x, float y, float dx, float dy) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  Registry registry;
  byte[] snapshot;
  Sink sink;
  float[] xs = new float[ENTITIES];
  float[] ys = new float[ENTITIES];
  float[] dxs = new float[ENTITIES];
  float[] dys = new float[ENTITIES];
  ByteBuffer bulk = ByteBuffer.allocate(16 * ENTITIES).order(ByteOrder.LITTLE_ENDIAN);
  long[] identifiers = new long[ENTITIES];
  long[] positionEntities = new long[ENTITIES];
  long[] velocityEntities = new long[ENTITIES];
  ByteBuffer bulkAll = ByteBuffer.allocate(40 * ENTITIES).order(ByteOrder.LITTLE_ENDIAN);
  List<Particle> objects = new ArrayList<>(ENTITIES);
  byte[] serialized;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < ENTITIES; i++) {
      final long e = registry.create();
      positions.emplace(e, i, -i);
      velocities.emplace(e, 0.5f * i, 2f);
      xs[i] = i;
      ys[i] = -i;
      dxs[i] = 0.5f * i;
      dys[i] = 2f;
      objects.add(new Particle(i, -i, 0.5f * i, 2f));
      identifiers[i] = e;
      positionEntities[i] = e;
      velocityEntities[i] = e;
    }
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    snapshot = out.toByteArray();
    sink = new Sink(snapshot.length);
    final ByteArrayOutputStream java = new ByteArrayOutputStream();
    try (ObjectOutputStream stream = new ObjectOutputStream(java)) {
      stream.writeObject(objects);
    }
    serialized = java.toByteArray();
    System.err.printf(
        "%nbytes per entity: snapshot %.2f, bulk copy 16.00, Java serialization %.2f%n",
        snapshot.length / (double) ENTITIES, serialized.length / (double) ENTITIES);
  }

  @Benchmark
  public long saveSnapshot() throws IOException {
    sink.reset();
    return new SnapshotWriter(registry).write(sink);
  }

  @Benchmark
  public Registry loadSnapshot() throws IOException {
    final Registry target = new Registry();
    new SnapshotLoader(target)
        .types(Position_Traits.TYPE, Velocity_Traits.TYPE)
        .load(new Source(snapshot));
    return target;
  }

  /** As {@link #loadSnapshot}, from the array read in place ({@code load(ByteBuffer)}). */
  @Benchmark
  public Registry loadSnapshotInPlace() throws IOException {
    final Registry target = new Registry();
    new SnapshotLoader(target)
        .types(Position_Traits.TYPE, Velocity_Traits.TYPE)
        .load(ByteBuffer.wrap(snapshot));
    return target;
  }

  @Benchmark
  public ByteBuffer saveBulkCopy() {
    bulk.clear();
    bulk.asFloatBuffer().put(xs).put(ys).put(dxs).put(dys);
    return bulk;
  }

  @Benchmark
  public float[] loadBulkCopy() {
    final float[][] arrays = {
      new float[ENTITIES], new float[ENTITIES], new float[ENTITIES], new float[ENTITIES]
    };
    bulk.clear();
    bulk.asFloatBuffer().get(arrays[0]).get(arrays[1]).get(arrays[2]).get(arrays[3]);
    return arrays[3];
  }

  @Benchmark
  public ByteBuffer saveBulkCopyAll() {
    bulkAll.clear();
    bulkAll.asLongBuffer().put(identifiers).put(positionEntities).put(velocityEntities);
    bulkAll.position(24 * ENTITIES);
    bulkAll.asFloatBuffer().put(xs).put(ys).put(dxs).put(dys);
    return bulkAll;
  }

  @Benchmark
  public float[] loadBulkCopyAll() {
    final long[][] longs = {new long[ENTITIES], new long[ENTITIES], new long[ENTITIES]};
    final float[][] floats = {
      new float[ENTITIES], new float[ENTITIES], new float[ENTITIES], new float[ENTITIES]
    };
    bulkAll.clear();
    bulkAll.asLongBuffer().get(longs[0]).get(longs[1]).get(longs[2]);
    bulkAll.position(24 * ENTITIES);
    bulkAll.asFloatBuffer().get(floats[0]).get(floats[1]).get(floats[2]).get(floats[3]);
    return floats[3];
  }

  @Benchmark
  public int saveJavaSerialization() throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream(serialized.length);
    try (ObjectOutputStream stream = new ObjectOutputStream(out)) {
      stream.writeObject(objects);
    }
    return out.size();
  }

  @Benchmark
  public Object loadJavaSerialization() throws IOException, ClassNotFoundException {
    try (ObjectInputStream stream = new ObjectInputStream(new ByteArrayInputStream(serialized))) {
      return stream.readObject();
    }
  }

  /** A channel into a preallocated array: measures the snapshot, not a growing stream. */
  static final class Sink implements WritableByteChannel {
    private final byte[] bytes;
    private int size;

    Sink(final int capacity) {
      bytes = new byte[capacity];
    }

    void reset() {
      size = 0;
    }

    @Override
    public int write(final ByteBuffer source) {
      final int n = source.remaining();
      source.get(bytes, size, n);
      size += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  /** A channel over an array. */
  static final class Source implements ReadableByteChannel {
    private final byte[] bytes;
    private int position;

    Source(final byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read(final ByteBuffer target) {
      if (position == bytes.length) {
        return -1;
      }
      final int n = Math.min(target.remaining(), bytes.length - position);
      target.put(bytes, position, n);
      position += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
