package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.IN_PLACE;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.POOL;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.SWAP;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TAG;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TRACKED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.snapshot.DeltaWriterFaultInjectionTest.Faults;
import dev.phalanx.ecs.snapshot.DeltaWriterFaultInjectionTest.Injected;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Codecs that throw at their k-th call, for every k until a run throws nothing, in the snapshot
 * writer and in the three loaders; and the delta loader's listeners likewise. Documented rules: a
 * writer keeps nothing of a failed write (the next one is whole and right); a loader whose codec
 * throws refuses the input with the registry, its map and its tick unchanged, and takes the next
 * correct input; a delta apply whose listener throws completes, then rethrows. After every step the
 * loaded world equals the one a run without faults loads, and {@code verify()} is empty.
 */
class CodecFaultInjectionTest {

  /** {@link AllPrimitivesStorageB#POINTS}, counting its calls (writes and reads). */
  static ValueCodec<Point> faulty(final Faults faults) {
    return new ValueCodec<>() {
      @Override
      public void write(final Point value, final DataOutput out) throws IOException {
        faults.hit();
        AllPrimitivesStorageB.POINTS.write(value, out);
      }

      @Override
      public Point read(final DataInput in) throws IOException {
        faults.hit();
        return AllPrimitivesStorageB.POINTS.read(in);
      }
    };
  }

  private static byte[] fullSave(final Registry registry) throws IOException {
    return SnapshotAllColumnsTest.save(SnapshotAllColumnsTest.writer(registry));
  }

  /** A random server's successive states, with every kind of change between them. */
  private static final class Server {
    final SplittableRandom random = new SplittableRandom(11);
    final Registry registry = new Registry();
    final List<Long> live = new ArrayList<>();
    int tick;

    Server() {
      final long[] first = new long[24];
      registry.create(first);
      for (final long e : first) {
        live.add(e);
      }
      registry.storage(SWAP);
      registry.storage(IN_PLACE);
      registry.storage(TRACKED);
      registry.storage(TAG);
    }

    void step() {
      DeltaReplicationModelTest.mutate(registry, random, live, true, tick++);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // SnapshotWriter.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aSnapshotWriteWhoseCodecThrowsLeavesTheWriterWhole() throws IOException {
    int k = 1;
    while (true) {
      final Server server = new Server();
      server.step();
      final Faults faults = new Faults(k);
      final SnapshotWriter writer =
          new SnapshotWriter(server.registry).codec(Point.class, faulty(faults));
      int thrown = 0;
      for (int state = 0; state < 3; state++) {
        server.step();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
          writer.write(out);
        } catch (final Injected expected) {
          thrown++;
          continue;
        }
        // The writer wrote what a writer that never failed writes, and it loads whole.
        assertArrayEquals(fullSave(server.registry), out.toByteArray(), "k=" + k);
        final Registry loaded = replica();
        new SnapshotLoader(loaded)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .load(ByteBuffer.wrap(out.toByteArray()));
        assertEquals(List.of(), loaded.verify());
      }
      assertTrue(thrown <= 1);
      if (0 == thrown) {
        break;
      }
      k++;
    }
    assertTrue(k > 20, k + " calls");
  }

  // ---------------------------------------------------------------------------------------------
  // SnapshotLoader.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aSnapshotLoadWhoseCodecThrowsChangesNothingAndTheNextLoadTakes() throws IOException {
    final Server server = new Server();
    for (int s = 0; s < 4; s++) {
      server.step();
    }
    final byte[] bytes = fullSave(server.registry);
    final Registry twin = replica();
    new SnapshotLoader(twin)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .load(ByteBuffer.wrap(bytes));
    final byte[] expected = fullSave(twin);
    int k = 1;
    while (true) {
      final Registry target = replica();
      final int storages = target.storageCount();
      final Faults faults = new Faults(k);
      final SnapshotLoader loader =
          new SnapshotLoader(target)
              .types(SWAP, IN_PLACE, TRACKED)
              .codec(Point.class, faulty(faults));
      final SnapshotFormatException refused =
          catchFormat(() -> loader.load(ByteBuffer.wrap(bytes)));
      if (null == refused) {
        assertArrayEquals(expected, fullSave(target));
        break;
      }
      assertTrue(refused.getCause() instanceof Injected, refused.toString());
      assertEquals(0, target.alive(), "k=" + k);
      assertEquals(storages, target.storageCount(), "k=" + k);
      assertEquals(List.of(), target.verify());
      // The same loader takes the snapshot now (the codec's fault is spent).
      loader.load(ByteBuffer.wrap(bytes));
      assertArrayEquals(expected, fullSave(target), "k=" + k);
      assertEquals(List.of(), target.verify());
      k++;
    }
    assertTrue(k > 20, k + " calls");
  }

  /** A load, returning its refusal or null. */
  @FunctionalInterface
  private interface Load {
    void run() throws IOException;
  }

  private static SnapshotFormatException catchFormat(final Load load) throws IOException {
    try {
      load.run();
      return null;
    } catch (final SnapshotFormatException refused) {
      return refused;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // ContinuousLoader.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aContinuousLoadWhoseCodecThrowsChangesNothingAndTheNextLoadTakes() throws IOException {
    final Server server = new Server();
    final List<byte[]> states = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      server.step();
      states.add(fullSave(server.registry));
    }
    // What a loader without faults makes of each state.
    final List<byte[]> expected = new ArrayList<>();
    final Registry twin = replica();
    final ContinuousLoader clean =
        new ContinuousLoader(twin)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    for (final byte[] state : states) {
      clean.load(ByteBuffer.wrap(state));
      expected.add(fullSave(twin));
    }
    int k = 1;
    while (true) {
      final Registry local = replica();
      final Faults faults = new Faults(k);
      final ContinuousLoader loader =
          new ContinuousLoader(local)
              .types(SWAP, IN_PLACE, TRACKED, TAG)
              .codec(Point.class, faulty(faults));
      int thrown = 0;
      for (int s = 0; s < states.size(); s++) {
        final byte[] state = states.get(s);
        final byte[] before = fullSave(local);
        final int mapped = loader.size();
        final SnapshotFormatException refused =
            catchFormat(() -> loader.load(ByteBuffer.wrap(state)));
        if (null != refused) {
          thrown++;
          assertTrue(refused.getCause() instanceof Injected, refused.toString());
          assertArrayEquals(before, fullSave(local), "k=" + k + ", state " + s);
          assertEquals(mapped, loader.size());
          loader.load(ByteBuffer.wrap(state));
        }
        assertArrayEquals(expected.get(s), fullSave(local), "k=" + k + ", state " + s);
        assertEquals(List.of(), local.verify());
      }
      assertTrue(thrown <= 1);
      if (0 == thrown) {
        break;
      }
      k++;
    }
    assertTrue(k > 20, k + " calls");
  }

  // ---------------------------------------------------------------------------------------------
  // DeltaLoader: codecs and listeners.
  // ---------------------------------------------------------------------------------------------

  /** The deltas of a random server, and the replica's full snapshot after each, without faults. */
  private static List<byte[]> deltas(final List<byte[]> expected) throws IOException {
    final Server server = new Server();
    final DeltaWriter writer =
        new DeltaWriter(server.registry)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .everyValue(SWAP);
    final Registry twin = replica();
    final DeltaLoader clean = loader(twin, AllPrimitivesStorageB.POINTS);
    final List<byte[]> deltas = new ArrayList<>();
    for (int tick = 0; tick < 6; tick++) {
      server.step();
      final byte[] delta = LoaderWorlds.delta(writer);
      deltas.add(delta);
      clean.load(delta, delta.length);
      expected.add(fullSave(twin));
    }
    return deltas;
  }

  private static Registry replica() {
    final Registry replica = new Registry();
    replica.storage(SWAP);
    replica.storage(IN_PLACE);
    replica.storage(TRACKED);
    replica.storage(TAG);
    replica.storage(POOL);
    return replica;
  }

  private static DeltaLoader loader(final Registry replica, final ValueCodec<Point> codec) {
    return new DeltaLoader(replica).types(SWAP, IN_PLACE, TRACKED, TAG).codec(Point.class, codec);
  }

  @Test
  void aDeltaLoadWhoseCodecThrowsChangesNothingAndTheSameDeltaTakes() throws IOException {
    final List<byte[]> expected = new ArrayList<>();
    final List<byte[]> deltas = deltas(expected);
    int k = 1;
    while (true) {
      final Registry replica = replica();
      final Faults faults = new Faults(k);
      final DeltaLoader loader = loader(replica, faulty(faults));
      int thrown = 0;
      for (int d = 0; d < deltas.size(); d++) {
        final byte[] delta = deltas.get(d);
        final byte[] before = fullSave(replica);
        final long tick = loader.tick();
        final int mapped = loader.size();
        final SnapshotFormatException refused = catchFormat(() -> loader.load(delta, delta.length));
        if (null != refused) {
          thrown++;
          assertTrue(refused.getCause() instanceof Injected, refused.toString());
          assertArrayEquals(before, fullSave(replica), "k=" + k + ", delta " + d);
          assertEquals(tick, loader.tick());
          assertEquals(mapped, loader.size());
          loader.load(delta, delta.length);
        }
        assertArrayEquals(expected.get(d), fullSave(replica), "k=" + k + ", delta " + d);
        assertEquals(List.of(), replica.verify());
      }
      assertTrue(thrown <= 1);
      if (0 == thrown) {
        break;
      }
      k++;
    }
    assertTrue(k > 20, k + " calls");
  }

  @Test
  void aDeltaApplyWhoseListenerThrowsCompletesAndTheNextDeltaTakes() throws IOException {
    final List<byte[]> expected = new ArrayList<>();
    final List<byte[]> deltas = deltas(expected);
    int k = 1;
    while (true) {
      final Registry replica = replica();
      final Faults faults = new Faults(k);
      for (final ComponentType<?, ?> type : List.of(SWAP, IN_PLACE, TRACKED, TAG)) {
        final Storage<?> storage = replica.storage(type);
        storage.onConstruct().connect((r, e) -> faults.hit());
        storage.onUpdate().connect((r, e) -> faults.hit());
        storage.onDestroy().connect((r, e) -> faults.hit());
      }
      replica.onCreate().connect((r, e) -> faults.hit());
      final DeltaLoader loader = loader(replica, AllPrimitivesStorageB.POINTS);
      int thrown = 0;
      for (int d = 0; d < deltas.size(); d++) {
        final byte[] delta = deltas.get(d);
        try {
          loader.load(delta, delta.length);
        } catch (final Injected expectedFault) {
          thrown++;
        }
        assertArrayEquals(expected.get(d), fullSave(replica), "k=" + k + ", delta " + d);
        assertEquals(List.of(), replica.verify());
      }
      assertTrue(thrown <= 1);
      if (0 == thrown) {
        break;
      }
      k++;
    }
    assertTrue(k > 20, k + " calls");
  }
}
