package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.CHARS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Writing and acknowledging acknowledged deltas allocates nothing per tick once warm, and applying
 * them allocates no more than applying plain deltas of the same world does (this test world's
 * storages are not generated: their inserts through a change set allocate, the same for both
 * loaders; the examples' generated storages apply without garbage), with structural churn (one
 * entity in a hundred destroyed and one created per tick), every value of a type sent, an interest
 * predicate, and acknowledgements three ticks late (each delta on an older baseline, so that what
 * changed is sent several times). Measured with the thread's allocation counter around each call
 * only, the least of five rounds, after enough ticks for the JIT to compile the paths.
 */
class AckedDeltaAllocationTest {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static final int LATE = 3;

  private final Registry server = LoaderWorlds.intsAndChars(2_000);
  private final AckedDeltaWriter writer =
      new AckedDeltaWriter(server, 16).interest(AckedDeltaAllocationTest::even).everyValue(INTS);
  private final Registry replica = new Registry();
  private final AckedDeltaLoader loader = new AckedDeltaLoader(replica).types(INTS, CHARS);
  private final DeltaWriter plainWriter =
      new DeltaWriter(server).interest(AckedDeltaAllocationTest::even).everyValue(INTS);
  private final DeltaLoader plainLoader = new DeltaLoader(new Registry()).types(INTS, CHARS);
  // What the last tick allocated: the acknowledged write and acknowledgement, the acknowledged
  // load, the plain load.
  private long written;
  private long loaded;
  private long loadedPlain;
  private final long thread = Thread.currentThread().getId();
  private final long[] inFlight = new long[LATE];
  private int ticks;

  private static boolean even(final long entity) {
    return 0 == (Entity.index(entity) & 1);
  }

  @Test
  void structuralChurnReplicatesWithoutGarbage() throws SnapshotFormatException {
    final SplittableRandom random = new SplittableRandom(3);
    for (int warm = 0; warm < 3_000; warm++) {
      churn(random);
      tick();
    }
    long leastWritten = Long.MAX_VALUE;
    long leastLoaded = Long.MAX_VALUE;
    long leastPlain = Long.MAX_VALUE;
    for (int round = 0; round < 5; round++) {
      long write = 0;
      long load = 0;
      long plain = 0;
      for (int i = 0; i < 20; i++) {
        churn(random);
        tick();
        write += written;
        load += loaded;
        plain += loadedPlain;
      }
      leastWritten = Math.min(leastWritten, write / 20);
      leastLoaded = Math.min(leastLoaded, load / 20);
      leastPlain = Math.min(leastPlain, plain / 20);
    }
    assertEquals(0, leastWritten);
    assertTrue(leastLoaded <= leastPlain, leastLoaded + " bytes per load, plain " + leastPlain);
    // The replica follows: the even entities of the server as of the last delta applied.
    int even = 0;
    final long[] packed = server.entities().packed();
    for (int i = 0; i < server.alive(); i++) {
      even += even(packed[i]) ? 1 : 0;
    }
    assertEquals(writer.sequence(), loader.sequence());
    assertEquals(even, loader.size());
    assertEquals(even, replica.alive());
    assertEquals(List.of(), replica.verify());
  }

  /**
   * Writes, applies and acknowledges (the acknowledgement of {@link #LATE} ticks ago) one delta,
   * and writes and applies the plain delta; records the bytes the thread allocated in each part,
   * less what a read of the counter allocates.
   */
  private void tick() throws SnapshotFormatException {
    final long empty = THREADS.getThreadAllocatedBytes(thread);
    final long start = THREADS.getThreadAllocatedBytes(thread);
    final long read = start - empty;
    final int length = writer.write();
    final int slot = ticks++ % LATE;
    if (0 != inFlight[slot]) {
      writer.acknowledge(inFlight[slot]);
    }
    final long afterWrite = THREADS.getThreadAllocatedBytes(thread);
    loader.load(writer.bytes(), length);
    inFlight[slot] = loader.sequence();
    final long afterLoad = THREADS.getThreadAllocatedBytes(thread);
    final int plainLength = plainWriter.write();
    final long beforePlain = THREADS.getThreadAllocatedBytes(thread);
    plainLoader.load(plainWriter.bytes(), plainLength);
    final long afterPlain = THREADS.getThreadAllocatedBytes(thread);
    written = Math.max(0, afterWrite - start - read);
    loaded = Math.max(0, afterLoad - afterWrite - read);
    loadedPlain = Math.max(0, afterPlain - beforePlain - read);
  }

  private void churn(final SplittableRandom random) {
    for (int i = 0; i < server.alive() / 100; i++) {
      server.destroy(server.entities().packed()[random.nextInt(server.alive())]);
      final long born = server.create();
      server.emplace(born, INTS, Row.of(random.nextInt(50)));
      server.emplace(born, CHARS, Row.of((char) ('a' + random.nextInt(26))));
    }
  }
}
