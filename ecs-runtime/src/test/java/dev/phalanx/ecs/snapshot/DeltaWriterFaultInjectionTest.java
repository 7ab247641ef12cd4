package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.IN_PLACE;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.POOL;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.SWAP;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TAG;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TRACKED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * The interest predicate and the codecs of a {@link DeltaWriter} throwing at their k-th call (the
 * calls of both counted together), for every k until a run throws nothing, over a random server
 * with every kind of change, storages created midway and a restore from a snapshot. Documented
 * rule: a write that throws leaves the writer as it was (base, {@link DeltaWriter#bytes()}, what
 * the replica holds, the logs), so the next write is a correct delta on the last successful one:
 * after each successful write the replica equals the server's interest set exactly, and {@code
 * verify()} is empty on both.
 */
class DeltaWriterFaultInjectionTest {

  private static final int TICKS = 12;

  /** Thrown by the injected user code. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected at call " + call, null, false, false);
    }
  }

  /** Counts the calls of the writer's user code and throws at call {@code at} (never when 0). */
  static final class Faults {
    final int at;
    int calls;

    Faults(final int at) {
      this.at = at;
    }

    void hit() {
      if (++calls == at) {
        throw new Injected(calls);
      }
    }
  }

  /** {@link AllPrimitivesStorageB#POINTS}, counting its writes. */
  static ValueCodec<Point> faulty(final Faults faults) {
    return new ValueCodec<>() {
      @Override
      public void write(final Point value, final DataOutput out) throws IOException {
        faults.hit();
        AllPrimitivesStorageB.POINTS.write(value, out);
      }

      @Override
      public Point read(final DataInput in) throws IOException {
        return AllPrimitivesStorageB.POINTS.read(in);
      }
    };
  }

  @Test
  void aWriteWhosePredicateOrCodecThrowsLeavesTheWriterAsItWas() throws IOException {
    assertEveryCallMayThrow(true);
  }

  @Test
  void aWriteWhoseCodecThrowsLeavesTheWriterAsItWasWithoutAPredicate() throws IOException {
    assertEveryCallMayThrow(false);
  }

  private static void assertEveryCallMayThrow(final boolean predicate) throws IOException {
    int k = 1;
    int failed = 0;
    while (run(k, predicate) > 0) {
      failed++;
      k++;
    }
    assertTrue(failed > 50, failed + " faulty runs");
  }

  /** One run with a fault at call {@code k}; returns the number of writes that threw. */
  private static int run(final int k, final boolean predicate) throws IOException {
    final String where = (predicate ? "predicate, " : "no predicate, ") + "k=" + k;
    final SplittableRandom random = new SplittableRandom(7);
    final Registry server = new Registry();
    final List<Long> live = new ArrayList<>();
    final long[] first = new long[24];
    server.create(first);
    for (final long e : first) {
      live.add(e);
    }
    server.storage(SWAP);
    server.storage(TAG);
    final Faults faults = new Faults(k);
    final int[] phase = {0};
    final LongPredicate changing = e -> 0 != (Entity.index(e) * 7 + phase[0]) % 3;
    final DeltaWriter writer =
        new DeltaWriter(server).codec(Point.class, faulty(faults)).everyValue(SWAP);
    if (predicate) {
      writer.interest(
          e -> {
            faults.hit();
            return changing.test(e);
          });
    }
    final LongPredicate interest = predicate ? changing : e -> true;
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    replica.storage(POOL);
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
      final long base = writer.base();
      final ByteArrayOutputStream stream = new ByteArrayOutputStream();
      final byte[] delta;
      try {
        if (0 == tick % 2) {
          final int length = writer.write();
          delta = Arrays.copyOf(writer.bytes(), length);
        } else {
          writer.write(stream);
          delta = stream.toByteArray();
        }
      } catch (final Injected expected) {
        thrown++;
        assertEquals(base, writer.base(), where);
        if (0 != last.length) { // before the first success, bytes() has no delta to show
          assertArrayEquals(last, Arrays.copyOf(writer.bytes(), last.length), where);
        }
        assertEquals(0, stream.size(), where);
        continue;
      }
      last = delta;
      loader.load(new ByteArrayInputStream(delta));
      assertEquals(writer.base(), loader.tick(), where);
      DeltaReplicationModelTest.assertMirrors(
          server, interest, replica, loader, where + ", tick " + tick);
      assertEquals(List.of(), server.verify(), where);
    }
    if (thrown > 0) {
      // The last write may have been the one that threw: one more, with nothing new.
      loader.load(new ByteArrayInputStream(LoaderWorlds.delta(writer)));
      DeltaReplicationModelTest.assertMirrors(server, interest, replica, loader, where + ", end");
    }
    assertTrue(thrown <= 1, where);
    writer.close();
    return thrown;
  }

  @Test
  void aStreamThatFailsLeavesTheWriterOnTheLastSuccessfulBase() throws IOException {
    final SplittableRandom random = new SplittableRandom(3);
    final Registry server = new Registry();
    final List<Long> live = new ArrayList<>();
    final long[] first = new long[16];
    server.create(first);
    for (final long e : first) {
      live.add(e);
    }
    final DeltaWriter writer =
        new DeltaWriter(server).codec(Point.class, AllPrimitivesStorageB.POINTS).everyValue(SWAP);
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    replica.storage(POOL);
    final OutputStream broken =
        new OutputStream() {
          @Override
          public void write(final int b) throws IOException {
            throw new IOException("broken pipe");
          }

          @Override
          public void write(final byte[] b, final int off, final int len) throws IOException {
            throw new IOException("broken pipe");
          }
        };
    for (int tick = 0; tick < 8; tick++) {
      DeltaReplicationModelTest.mutate(server, random, live, true, tick);
      final long base = writer.base();
      assertThrows(IOException.class, () -> writer.write(broken));
      assertEquals(base, writer.base());
      DeltaReplicationModelTest.mutate(server, random, live, true, tick);
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      writer.write(out);
      loader.load(new ByteArrayInputStream(out.toByteArray()));
      DeltaReplicationModelTest.assertMirrors(server, e -> true, replica, loader, "tick " + tick);
    }
  }
}
