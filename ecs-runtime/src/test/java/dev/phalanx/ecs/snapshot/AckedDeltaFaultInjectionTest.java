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
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.snapshot.DeltaWriterFaultInjectionTest.Faults;
import dev.phalanx.ecs.snapshot.DeltaWriterFaultInjectionTest.Injected;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * User code of an {@link AckedDeltaWriter} (its interest predicate and a codec, their calls counted
 * together) and of the replica of an {@link AckedDeltaLoader} (listeners on creation, destruction,
 * and construct, update and destroy of every streamed storage) throwing at their k-th call, for
 * every k until a run throws nothing, over a random server with every kind of change, storages
 * created midway, a restore from a snapshot, one delta in three lost and acknowledgements two
 * frames late. Documented rules: a write that throws takes no sequence and leaves {@link
 * AckedDeltaWriter#bytes()} as it was, and the next write is a correct delta; a listener's
 * exception comes out of a load that completed. After every load the replica equals the server's
 * interest set as of the sequence it applied, and {@code verify()} is empty.
 */
class AckedDeltaFaultInjectionTest {

  private static final int TICKS = 9;

  @Test
  void aWriteWhosePredicateOrCodecThrowsLeavesTheNextDeltaCorrect() throws IOException {
    assertEveryCallMayThrow(true);
  }

  @Test
  void aReplicaWhoseListenersThrowStaysConsistent() throws IOException {
    assertEveryCallMayThrow(false);
  }

  private static void assertEveryCallMayThrow(final boolean writer) throws IOException {
    int k = 1;
    int failed = 0;
    while (run(k, writer) > 0) {
      failed++;
      k++;
    }
    assertTrue(failed > 50, failed + " faulty runs");
  }

  /** One run with a fault at call {@code k}; returns the number of calls that threw. */
  private static int run(final int k, final boolean inWriter) throws IOException {
    final String where = (inWriter ? "writer" : "replica") + ", k=" + k;
    final SplittableRandom random = new SplittableRandom(11);
    final Registry server = new Registry();
    final List<Long> live = new ArrayList<>();
    final long[] first = new long[14];
    server.create(first);
    for (final long e : first) {
      live.add(e);
    }
    server.storage(SWAP);
    server.storage(TAG);
    final Faults writerFaults = new Faults(inWriter ? k : 0);
    final Faults replicaFaults = new Faults(inWriter ? 0 : k);
    final int[] phase = {0};
    final LongPredicate changing = e -> 0 != (Entity.index(e) * 7 + phase[0]) % 3;
    final AckedDeltaWriter writer =
        new AckedDeltaWriter(server, 4)
            .codec(Point.class, DeltaWriterFaultInjectionTest.faulty(writerFaults))
            .everyValue(SWAP)
            .interest(
                e -> {
                  writerFaults.hit();
                  return changing.test(e);
                });
    final Registry replica = new Registry();
    final AckedDeltaLoader loader =
        new AckedDeltaLoader(replica)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    replica.storage(POOL);
    listen(replica, replicaFaults);
    final Map<Long, Map<Long, List<Object>>> expected = new HashMap<>();
    final List<long[]> acks = new ArrayList<>();
    byte[] saved = null;
    byte[] last = new byte[0];
    int thrown = 0;
    for (int tick = 0; tick <= TICKS; tick++) {
      if (tick < TICKS) {
        if (tick == TICKS / 3) {
          saved = SnapshotAllColumnsTest.save(SnapshotAllColumnsTest.writer(server));
        } else if (tick == 2 * TICKS / 3) {
          DeltaReplicationModelTest.restore(server, saved, live);
        }
        DeltaReplicationModelTest.mutate(server, random, live, true, tick);
        if (0 == tick % 3) {
          phase[0]++;
        }
      }
      final long sequence = writer.sequence();
      final byte[] delta;
      try {
        final int length = writer.write();
        delta = Arrays.copyOf(writer.bytes(), length);
      } catch (final Injected injected) {
        thrown++;
        assertEquals(sequence, writer.sequence(), where);
        if (0 != last.length) {
          assertArrayEquals(last, Arrays.copyOf(writer.bytes(), last.length), where);
        }
        continue;
      }
      last = delta;
      expected.put(writer.sequence(), AckedDeltaModelTest.view(server, changing));
      if (2 == tick % 3 && tick < TICKS) {
        continue; // lost
      }
      try {
        loader.load(delta, delta.length);
      } catch (final Injected injected) {
        thrown++;
      }
      AckedDeltaModelTest.assertMirrors(
          replica, loader, expected.get(loader.sequence()), where + ", tick " + tick);
      assertEquals(List.of(), server.verify(), where);
      acks.add(new long[] {tick + 2, loader.sequence()});
      for (final long[] ack : List.copyOf(acks)) {
        if (ack[0] <= tick) {
          writer.acknowledge(ack[1]);
          acks.remove(ack);
        }
      }
    }
    writer.close();
    return thrown;
  }

  /** Listeners on the replica's entities and streamed storages, throwing at {@code faults}' k. */
  private static void listen(final Registry replica, final Faults faults) {
    replica.onCreate().connect((registry, entity) -> faults.hit());
    replica.onDestroy().connect((registry, entity) -> faults.hit());
    for (final ComponentType<?, ?> type : List.of(SWAP, IN_PLACE, TRACKED, TAG)) {
      final Storage<?> storage = replica.storage(type);
      storage.onConstruct().connect((registry, entity) -> faults.hit());
      storage.onUpdate().connect((registry, entity) -> faults.hit());
      storage.onDestroy().connect((registry, entity) -> faults.hit());
    }
  }
}
