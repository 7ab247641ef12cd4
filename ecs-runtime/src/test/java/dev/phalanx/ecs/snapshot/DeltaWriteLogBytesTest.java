package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.WriteLog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Delta writers that read the tracked storage's write log send the very bytes of writers that
 * compare every tick, on the same seeded churn (value writes, some repeated within a tick, adds,
 * removes, creates, destroys, sorts), with writers at different paces, one of them falling behind
 * the log's bound and scanning again.
 */
class DeltaWriteLogBytesTest {

  private static final int WRITERS = 3;

  @Test
  void loggedAndScanningWritersSendTheSameBytes() {
    for (long seed = 1; seed <= 12; seed++) {
      run(seed, 0 == seed % 3 ? 6000 : 300);
    }
  }

  @Test
  void aSlowWriterFallsBehindTheBoundAndScans() {
    final Registry registry = new Registry();
    final Storage<Sample> tracked = registry.storage(AllPrimitivesStorageB.TRACKED);
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 2 * WriteLog.MIN_CAPACITY; i++) {
      final long e = registry.create();
      tracked.emplace(e, DeltaContentsTest.sample(i, Entity.NULL));
      entities.add(e);
    }
    final WriteLog.Reader reader = tracked.readWrites();
    final WriteLog.Reader idle = tracked.readWrites();
    registry.advanceChangeTick();
    for (final long e : entities) {
      tracked.patch(e);
      tracked.patch(e); // once per tick
    }
    assertTrue(reader.lost(), "more than the bound written: entries were dropped");
    assertTrue(
        reader.end() - reader.next() < entities.size(),
        "the log stopped logging once no reader could use it");
    reader.advance(reader.end());
    registry.advanceChangeTick();
    tracked.patch(entities.get(7));
    assertEquals(entities.get(7), reader.entity(reader.next()));
    assertTrue(idle.lost());
    idle.close();
    reader.close();
  }

  private static void run(final long seed, final int size) {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry registry = new Registry();
    final Storage<Sample> tracked = registry.storage(AllPrimitivesStorageB.TRACKED);
    final DeltaWriter[] logged = new DeltaWriter[WRITERS];
    final DeltaWriter[] scanning = new DeltaWriter[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
      logged[w] =
          new DeltaWriter(registry)
              .types(AllPrimitivesStorageB.TRACKED)
              .codec(AllPrimitivesStorageB.Point.class, AllPrimitivesStorageB.POINTS);
      scanning[w] =
          new DeltaWriter(registry)
              .types(AllPrimitivesStorageB.TRACKED)
              .codec(AllPrimitivesStorageB.Point.class, AllPrimitivesStorageB.POINTS);
      scanning[w].useWriteLogs = false;
      if (1 == w) {
        final long parity = seed & 1;
        logged[w].interest(e -> parity == (Entity.index(e) & 1));
        scanning[w].interest(e -> parity == (Entity.index(e) & 1));
      }
    }
    final List<Long> live = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      final long e = registry.create();
      live.add(e);
      if (random.nextInt(4) != 0) {
        tracked.emplace(e, DeltaContentsTest.sample(random.nextInt(1000), Entity.NULL));
      }
    }
    for (int tick = 0; tick < 30; tick++) {
      final int writes = random.nextInt(1 + size / (1 + random.nextInt(40)));
      for (int i = 0; i < writes; i++) {
        final long e = live.get(random.nextInt(live.size()));
        if (tracked.contains(e)) {
          if (random.nextBoolean()) {
            tracked.patch(e);
          } else {
            tracked.replace(e, DeltaContentsTest.sample(random.nextInt(1000), Entity.NULL));
          }
        }
      }
      if (random.nextInt(3) == 0) {
        final long e = live.get(random.nextInt(live.size()));
        if (tracked.contains(e)) {
          tracked.remove(e);
        } else {
          tracked.emplace(e, DeltaContentsTest.sample(random.nextInt(1000), Entity.NULL));
        }
      }
      if (random.nextInt(4) == 0) {
        final int at = random.nextInt(live.size());
        registry.destroy(live.get(at));
        live.set(at, registry.create());
      }
      if (random.nextInt(8) == 0) {
        tracked.sort(Long::compare);
      }
      for (int w = 0; w < WRITERS; w++) {
        // Writer w writes every (w + 1)th tick: different paces, one log.
        if (0 == tick % (w + 1)) {
          final int length = logged[w].write();
          final int expectedLength = scanning[w].write();
          final byte[] expected = Arrays.copyOf(scanning[w].bytes(), expectedLength);
          // The stream identity (random per writer) and the ticks (each write advances it) aside.
          assertArrayEquals(
              Arrays.copyOfRange(expected, 36, expected.length - 4),
              Arrays.copyOfRange(logged[w].bytes(), 36, length - 4),
              "seed " + seed + " tick " + tick + " writer " + w);
        }
      }
    }
  }
}
