package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB.Mood;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import org.junit.jupiter.api.Test;

/**
 * A write log belongs to its storage only while someone reads it: a reader closed while the log
 * dropped writes, then advanced, must not set the storage logging into the log nobody reads.
 */
class WriteLogDetachTest {

  private static Sample sample(final int i) {
    return new Sample(
        true, (byte) i, (short) i, 'q', i, i, Entity.NULL, i, i, "n" + i, Mood.values()[0], null);
  }

  @Test
  void aClosedReaderThatAdvancesDoesNotReviveItsLog() {
    final Registry registry = new Registry();
    final Storage<Sample> storage = registry.storage(AllPrimitivesStorageB.TRACKED);
    final long[] entities = new long[2 * WriteLog.MIN_CAPACITY];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      storage.emplace(entities[i], sample(i));
    }
    final WriteLog.Reader reader = storage.readWrites();
    final WriteLog log = storage.writeLog;
    registry.advanceChangeTick();
    for (final long e : entities) {
      storage.patch(e);
    }
    assertTrue(reader.lost(), "more first writes than the log holds");
    assertNull(storage.appendingLog, "the log drops every write");
    reader.close();
    assertNull(storage.writeLog);
    reader.advance(reader.end());
    assertNull(storage.appendingLog, "a closed reader's advance leaves the storage unlogged");
    final WriteLog.Reader next = storage.readWrites();
    assertTrue(storage.writeLog != log, "a new reader gets a new log");
    assertSame(storage.writeLog, storage.appendingLog);
    next.close();
  }
}
