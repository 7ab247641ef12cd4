package dev.phalanx.examples.tracking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.WriteLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Readers of a write log against a plain model: seeded random in-place writes (sometimes more in
 * one tick than the log holds), removals and additions, and readers that open, read at their own
 * pace and close. A read takes the log when it is not {@link WriteLog.Reader#lost() lost} and the
 * full tick scan when it is, as the log's documentation asks; either way it must yield exactly the
 * entities the model saw written in place since that reader's last read.
 */
class WriteLogModelTest {

  private static final int POPULATION = 6_000;

  /** One reader and what the model says it must see at its next read. */
  private static final class Reading {
    final WriteLog.Reader reader;
    long since;
    final Set<Long> written = new HashSet<>();
    // Added since the last read: their addition stamps a tick, which the tick scan sees; the log
    // does not log additions, and the model does not count them as written.
    final Set<Long> added = new HashSet<>();

    Reading(final WriteLog.Reader reader, final long since) {
      this.reader = reader;
      this.since = since;
    }
  }

  @Test
  void everyReadYieldsWhatWasWrittenSinceTheReadersLastRead() {
    int lostReads = 0;
    int loggedReads = 0;
    for (long seed = 1; seed <= 12; seed++) {
      final int[] counts = run(seed);
      loggedReads += counts[0];
      lostReads += counts[1];
    }
    assertTrue(loggedReads > 50, "reads through the log: " + loggedReads);
    assertTrue(lostReads > 10, "reads after the log overflowed: " + lostReads);
  }

  /** Runs one seeded history; returns the reads through the log and the lost reads. */
  private static int[] run(final long seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry registry = new Registry();
    final Temperature_Storage storage = registry.storage(Temperature_Traits.TYPE);
    final List<Long> live = new ArrayList<>();
    for (int i = 0; i < POPULATION; i++) {
      final long e = registry.create();
      storage.emplace(e, i);
      live.add(e);
    }
    final List<Reading> readings = new ArrayList<>();
    final int[] counts = new int[2];
    for (int step = 0; step < 400; step++) {
      final int action = random.nextInt(100);
      if (action < 8 || readings.isEmpty()) {
        // As after a read: writes from now on are at a later tick than the reader's own.
        readings.add(new Reading(storage.readWrites(), registry.changeTick()));
        registry.advanceChangeTick();
      } else if (action < 12) {
        readings.remove(random.nextInt(readings.size())).reader.close();
      } else if (action < 40) {
        final Reading reading = readings.get(random.nextInt(readings.size()));
        counts[reading.reader.lost() ? 1 : 0]++;
        assertSame(reading.written, read(storage, reading), "seed " + seed + ", step " + step);
        reading.reader.advance(reading.reader.end());
        reading.written.clear();
        reading.added.clear();
        reading.since = registry.changeTick();
        registry.advanceChangeTick();
      } else if (action < 45) {
        final long gone = live.remove(random.nextInt(live.size()));
        storage.remove(gone);
        for (final Reading reading : readings) {
          reading.written.remove(gone);
        }
        final long e = registry.create();
        storage.emplace(e, 0f);
        live.add(e);
        for (final Reading reading : readings) {
          reading.added.add(e);
        }
      } else {
        // A burst of writes, sometimes more first writes in one tick than the log can hold.
        final int writes = random.nextInt(10) == 0 ? 5_000 + random.nextInt(5_000) : 50;
        if (random.nextBoolean()) {
          registry.advanceChangeTick();
        }
        for (int w = 0; w < writes; w++) {
          final long e = live.get(random.nextInt(live.size()));
          storage.setCelsius(e, w);
          for (final Reading reading : readings) {
            if (!reading.added.contains(e)) {
              reading.written.add(e);
            }
          }
        }
      }
    }
    for (final Reading reading : readings) {
      reading.reader.close();
    }
    return counts;
  }

  /** Fails naming a few of the entities one set has and the other lacks, not both whole sets. */
  private static void assertSame(
      final Set<Long> expected, final Set<Long> actual, final String at) {
    final Set<Long> missed = new HashSet<>(expected);
    missed.removeAll(actual);
    final Set<Long> extra = new HashSet<>(actual);
    extra.removeAll(expected);
    assertTrue(
        missed.isEmpty() && extra.isEmpty(),
        at
            + ": "
            + missed.size()
            + " written entities not read, e.g. "
            + missed.stream().limit(5).toList()
            + "; "
            + extra.size()
            + " read but not written, e.g. "
            + extra.stream().limit(5).toList());
  }

  /** What a reader reads: the log's entries, or the tick scan if it is lost. */
  private static Set<Long> read(final Temperature_Storage storage, final Reading reading) {
    final Set<Long> changed = new HashSet<>();
    final WriteLog.Reader reader = reading.reader;
    if (reader.lost()) {
      for (int position = 0; position < storage.size(); position++) {
        if (storage.changeTickAt(position) > reading.since) {
          changed.add(storage.at(position));
        }
      }
    } else {
      for (long s = reader.next(); s < reader.end(); s++) {
        final long e = reader.entity(s);
        final int position = storage.indexOf(e);
        if (position >= 0 && storage.changeTickAt(position) > reading.since) {
          changed.add(e);
        }
      }
    }
    changed.removeAll(reading.added);
    return changed;
  }

  @Test
  void aLogThatNoReaderCanUseStopsLoggingUntilAReaderCatchesUp() {
    final Registry registry = new Registry();
    final Temperature_Storage storage = registry.storage(Temperature_Traits.TYPE);
    final long[] entities = new long[2 * WriteLog.MIN_CAPACITY];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      storage.emplace(entities[i], i);
    }
    final WriteLog.Reader reader = storage.readWrites();
    registry.advanceChangeTick();
    for (final long e : entities) {
      storage.setCelsius(e, 1f);
    }
    assertTrue(reader.lost(), "more first writes than the log holds");
    final long end = reader.end();
    registry.advanceChangeTick();
    storage.setCelsius(entities[0], 2f);
    assertEquals(end, reader.end(), "nothing is logged while no reader can use it");
    reader.advance(reader.end());
    registry.advanceChangeTick();
    storage.setCelsius(entities[1], 3f);
    assertEquals(1, reader.end() - reader.next(), "logging again once the reader caught up");
    assertEquals(entities[1], reader.entity(reader.next()));
    reader.close();
  }
}
