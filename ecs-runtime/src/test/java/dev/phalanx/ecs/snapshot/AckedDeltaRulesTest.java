package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.AckedDeltaLoader.Outcome.APPLIED;
import static dev.phalanx.ecs.snapshot.AckedDeltaLoader.Outcome.NO_BASELINE;
import static dev.phalanx.ecs.snapshot.AckedDeltaLoader.Outcome.RESYNCED;
import static dev.phalanx.ecs.snapshot.AckedDeltaLoader.Outcome.STALE;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.IN_PLACE;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.POOL;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.SWAP;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TAG;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TRACKED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.Registry;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link AckedDeltaWriter} and {@link AckedDeltaLoader} one at a time: stale and
 * duplicate deltas ignored, a baseline the replica never held ignored, another writer's deltas
 * ignored unless a resync, a client too far behind resynced, acknowledgements checked, malformed
 * headers refused, each loader refusing the other kind of delta, and nested calls refused.
 */
class AckedDeltaRulesTest {

  private static final class World {
    final Registry server = new Registry();
    final SplittableRandom random = new SplittableRandom(5);
    final java.util.List<Long> live = new java.util.ArrayList<>();

    World() {
      final long[] first = new long[12];
      server.create(first);
      for (final long e : first) {
        live.add(e);
      }
    }

    AckedDeltaWriter writer(final int baselines) {
      return new AckedDeltaWriter(server, baselines)
          .codec(Point.class, AllPrimitivesStorageB.POINTS)
          .everyValue(SWAP);
    }

    void change(final int tick) {
      DeltaReplicationModelTest.mutate(server, random, live, true, tick);
    }
  }

  private static final class Client {
    final Registry replica = new Registry();
    final AckedDeltaLoader loader =
        new AckedDeltaLoader(replica)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);

    Client() {
      replica.storage(POOL);
    }

    AckedDeltaLoader.Outcome load(final byte[] delta) throws SnapshotFormatException {
      return loader.load(delta, delta.length);
    }
  }

  private static byte[] write(final AckedDeltaWriter writer) {
    final int length = writer.write();
    return Arrays.copyOf(writer.bytes(), length);
  }

  @Test
  void aDuplicateOrAnOlderDeltaIsStale() throws SnapshotFormatException {
    final World world = new World();
    final AckedDeltaWriter writer = world.writer(8);
    final Client client = new Client();
    final byte[] first = write(writer);
    assertEquals(RESYNCED, client.load(first));
    assertEquals(STALE, client.load(first));
    writer.acknowledge(client.loader.sequence());
    world.change(1);
    final byte[] second = write(writer);
    world.change(2);
    final byte[] third = write(writer);
    assertEquals(APPLIED, client.load(third));
    assertEquals(3, client.loader.sequence());
    final int before = client.replica.alive();
    assertEquals(STALE, client.load(second));
    assertEquals(STALE, client.load(third));
    assertEquals(3, client.loader.sequence());
    assertEquals(before, client.replica.alive());
    assertEquals(AckedDeltaModelTest.view(world.server, e -> true).size(), client.loader.size());
  }

  @Test
  void aDeltaOnABaselineTheReplicaNeverHeldIsIgnored() throws SnapshotFormatException {
    final World world = new World();
    final AckedDeltaWriter writer = world.writer(8);
    final Client ahead = new Client();
    final Client behind = new Client();
    final byte[] first = write(writer);
    assertEquals(RESYNCED, ahead.load(first));
    assertEquals(RESYNCED, behind.load(first));
    writer.acknowledge(1);
    world.change(1);
    assertEquals(APPLIED, ahead.load(write(writer)));
    writer.acknowledge(2); // only the client ahead holds sequence 2
    world.change(2);
    final byte[] third = write(writer);
    assertEquals(APPLIED, ahead.load(third));
    assertEquals(NO_BASELINE, behind.load(third));
    assertEquals(1, behind.loader.sequence());
    // A new replica holds no baseline at all until a resync.
    final Client fresh = new Client();
    assertEquals(NO_BASELINE, fresh.load(third));
    writer.resync();
    assertEquals(0, writer.acknowledged());
    assertFalse(writer.acknowledge(3), "an acknowledgement from before the resync is ignored");
    assertEquals(RESYNCED, fresh.load(write(writer)));
    AckedDeltaModelTest.assertMirrors(
        fresh.replica, fresh.loader, AckedDeltaModelTest.view(world.server, e -> true), "fresh");
  }

  @Test
  void anotherWritersDeltaIsIgnoredUnlessItIsAResync() throws SnapshotFormatException {
    final World world = new World();
    final AckedDeltaWriter one = world.writer(8);
    final AckedDeltaWriter other = world.writer(8);
    final Client client = new Client();
    assertEquals(RESYNCED, client.load(write(one)));
    one.acknowledge(1);
    assertEquals(RESYNCED, client.load(write(other)));
    world.change(1);
    assertEquals(NO_BASELINE, client.load(write(one)));
    other.acknowledge(1);
    assertEquals(APPLIED, client.load(write(other)));
    AckedDeltaModelTest.assertMirrors(
        client.replica, client.loader, AckedDeltaModelTest.view(world.server, e -> true), "other");
  }

  @Test
  void aClientTooFarBehindGetsAResync() throws SnapshotFormatException {
    final World world = new World();
    final AckedDeltaWriter writer = world.writer(2);
    assertEquals(2, writer.baselines());
    final Client client = new Client();
    assertEquals(RESYNCED, client.load(write(writer)));
    assertTrue(writer.acknowledge(1));
    world.change(1);
    write(writer); // 2, on 1: lost
    world.change(2);
    final byte[] third = write(writer); // 3, on 1: the oldest baseline the ring keeps
    world.change(3);
    final byte[] fourth = write(writer); // 4: 1 is no longer kept
    assertEquals(APPLIED, client.load(third));
    assertEquals(RESYNCED, client.load(fourth));
    AckedDeltaModelTest.assertMirrors(
        client.replica, client.loader, AckedDeltaModelTest.view(world.server, e -> true), "4");
  }

  @Test
  void acknowledgementsAreChecked() {
    final World world = new World();
    final AckedDeltaWriter writer = world.writer(4);
    final IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> writer.acknowledge(1));
    assertTrue(none.getMessage().contains("wrote sequences 1 to 0"), none.getMessage());
    write(writer);
    write(writer);
    assertThrows(IllegalArgumentException.class, () -> writer.acknowledge(0));
    assertThrows(IllegalArgumentException.class, () -> writer.acknowledge(3));
    assertTrue(writer.acknowledge(2));
    assertFalse(writer.acknowledge(1), "a late acknowledgement");
    assertFalse(writer.acknowledge(2), "a duplicate");
    assertEquals(2, writer.acknowledged());
    assertThrows(IllegalArgumentException.class, () -> new AckedDeltaWriter(world.server, 0));
  }

  @Test
  void aSequenceNotAfterItsBaselineIsRefused() throws SnapshotFormatException {
    final World world = new World();
    final AckedDeltaWriter writer = world.writer(4);
    final Client client = new Client();
    client.load(write(writer));
    writer.acknowledge(1);
    final byte[] delta = write(writer);
    final ByteBuffer header = ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(1, header.getLong(20), "the baseline");
    assertEquals(2, header.getLong(28), "the sequence");
    header.putLong(20, 2);
    header.putInt(delta.length - 4, DeltaFormat.crc(new CRC32C(), delta, 0, delta.length - 4));
    final SnapshotFormatException refused =
        assertThrows(SnapshotFormatException.class, () -> client.load(delta));
    assertTrue(refused.getMessage().contains("is not after its baseline"), refused.getMessage());
    assertEquals(1, client.loader.sequence());
  }

  @Test
  void eachLoaderRefusesTheOtherKindOfDelta() throws SnapshotFormatException {
    final World world = new World();
    final byte[] acked = write(world.writer(4));
    final DeltaWriter plainWriter = new DeltaWriter(world.server);
    final int length = plainWriter.write();
    final byte[] plain = Arrays.copyOf(plainWriter.bytes(), length);
    final SnapshotFormatException byPlain =
        assertThrows(
            SnapshotFormatException.class,
            () -> new DeltaLoader(new Registry()).load(acked, acked.length));
    assertTrue(byPlain.getMessage().contains("AckedDeltaLoader"), byPlain.getMessage());
    final SnapshotFormatException byAcked =
        assertThrows(SnapshotFormatException.class, () -> new Client().load(plain));
    assertTrue(byAcked.getMessage().contains("DeltaLoader"), byAcked.getMessage());
  }

  @Test
  void callsFromTheInterestPredicateAreRefused() {
    final World world = new World();
    final AckedDeltaWriter writer = world.writer(4);
    write(writer);
    final String[] refused = new String[3];
    writer.interest(
        e -> {
          refused[0] = message(() -> writer.acknowledge(1));
          refused[1] = message(writer::write);
          refused[2] = message(writer::resync);
          return true;
        });
    write(writer);
    for (final String message : refused) {
      assertTrue(null != message && message.contains("is running write()"), message);
    }
    assertEquals(2, writer.sequence());
    assertEquals(0, writer.acknowledged());
  }

  private static String message(final Runnable call) {
    try {
      call.run();
      return null;
    } catch (final IllegalStateException e) {
      return e.getMessage();
    }
  }
}
