package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Seeded random schedules, instrumented: systems with random reads, writes, loops and structural
 * changes over a few storages, and random order constraints, run on a pool. Against a model of the
 * conflict rule and of the constraints: no two systems that conflict or are ordered ever run at
 * once, and systems the plan puts in one wave all do (each waits, in its body, for the others of
 * its wave), read-only loops over one storage included. The world stays consistent.
 */
class ScheduleOverlapModelTest {

  @SuppressWarnings({"unchecked", "rawtypes"}) // an array of one generic type
  private static final ComponentType<Payload, ObjectStorage<Payload>>[] TYPES =
      new ComponentType[] {
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP),
        Fixtures.beta(DeletionPolicy.SWAP_AND_POP),
        Fixtures.gamma(DeletionPolicy.SWAP_AND_POP)
      };

  private static final int READ = 1;
  private static final int WRITE = 2;
  private static final int ITERATE = 4;
  private static final int STRUCTURE = 8;
  private static final int[] KINDS = {
    0, 0, READ, READ | ITERATE, READ | ITERATE, ITERATE, READ | WRITE, STRUCTURE
  };
  private static final int SYSTEMS = 8;
  private static final int ENTITIES = 200;

  /** The conflict rule, as the guide states it. */
  private static boolean conflict(final int mine, final int theirs) {
    if (0 == mine || 0 == theirs) {
      return false;
    }
    if (0 != ((mine | theirs) & STRUCTURE)) {
      return true;
    }
    return (0 != (mine & WRITE) && 0 != (theirs & (READ | WRITE)))
        || (0 != (theirs & WRITE) && 0 != (mine & (READ | WRITE)));
  }

  @Test
  void conflictingOrOrderedSystemsNeverOverlapAndEveryWaveRunsAtOnce() throws Exception {
    final ForkJoinPool pool = new ForkJoinPool(SYSTEMS);
    try {
      final SplittableRandom random = new SplittableRandom(48);
      int sharedReaderPairs = 0;
      for (int round = 0; round < 60; round++) {
        sharedReaderPairs += round(random, pool);
      }
      assertTrue(sharedReaderPairs > 20, "read-only loops over one storage shared waves");
    } finally {
      pool.shutdown();
    }
  }

  /** Runs one random plan for a few frames; returns how many wave pairs only read one storage. */
  private static int round(final SplittableRandom random, final ForkJoinPool pool)
      throws Exception {
    final int n = 2 + random.nextInt(SYSTEMS - 1);
    final int[][] kinds = new int[n][TYPES.length];
    for (int s = 0; s < n; s++) {
      for (int t = 0; t < TYPES.length; t++) {
        kinds[s][t] = KINDS[random.nextInt(KINDS.length)];
      }
    }
    final boolean[][] before = new boolean[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        before[a][b] = random.nextInt(6) == 0;
      }
    }
    final Registry registry = new Registry();
    final long[] own = new long[n];
    for (int i = 0; i < ENTITIES; i++) {
      final long entity = registry.create();
      for (final ComponentType<Payload, ObjectStorage<Payload>> type : TYPES) {
        registry.emplace(entity, type, new Payload(i));
      }
    }
    for (int s = 0; s < n; s++) {
      own[s] = registry.create();
    }
    final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
    final AtomicLong running = new AtomicLong();
    final long[] overlapped = new long[n];
    final CountDownLatch[] waveOf = new CountDownLatch[n];
    for (int s = 0; s < n; s++) {
      final SystemDeclaration declaration =
          builder.system("s" + s, body(registry, s, kinds[s], own[s], running, overlapped, waveOf));
      for (int t = 0; t < TYPES.length; t++) {
        declare(declaration, TYPES[t], kinds[s][t]);
      }
      for (int a = 0; a < s; a++) {
        if (before[a][s]) {
          declaration.after("s" + a);
        }
      }
      for (int b = 0; b < n; b++) {
        if (b != s && !before[Math.min(s, b)][Math.max(s, b)] && conflicts(kinds[s], kinds[b])) {
          // An unordered conflict would be refused: order it by declaration, as the model does.
          if (b < s) {
            declaration.ambiguousWith("s" + b);
          }
        }
      }
    }
    final Schedule schedule = builder.build();
    final List<List<String>> waves = schedule.waves(Schedule.UPDATE);
    final int[] wave = new int[n];
    for (int w = 0; w < waves.size(); w++) {
      for (final String name : waves.get(w)) {
        wave[Integer.parseInt(name.substring(1))] = w;
      }
    }
    final boolean[][] ordered = closure(before);
    int sharedReaders = 0;
    for (int frame = 0; frame < 3; frame++) {
      for (int s = 0; s < n; s++) {
        waveOf[s] = null;
      }
      for (final List<String> names : waves) {
        final CountDownLatch all = new CountDownLatch(names.size());
        for (final String name : names) {
          waveOf[Integer.parseInt(name.substring(1))] = all;
        }
      }
      Arrays.fill(overlapped, 0);
      schedule.run();
      for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++) {
          final boolean overlap =
              0 != (overlapped[a] & (1L << b)) || 0 != (overlapped[b] & 1L << a);
          final String pair = "s" + a + ", s" + b + " in " + waves;
          if (conflicts(kinds[a], kinds[b]) || ordered[a][b]) {
            assertFalse(overlap, pair);
          }
          if (wave[a] == wave[b]) {
            assertTrue(overlap, pair);
            if (0 == frame && sharesALoop(kinds[a], kinds[b])) {
              sharedReaders++;
            }
          }
        }
      }
    }
    assertEquals(List.of(), registry.verify());
    return sharedReaders;
  }

  private static boolean conflicts(final int[] mine, final int[] theirs) {
    for (int t = 0; t < mine.length; t++) {
      if (conflict(mine[t], theirs[t])) {
        return true;
      }
    }
    return false;
  }

  private static boolean sharesALoop(final int[] mine, final int[] theirs) {
    for (int t = 0; t < mine.length; t++) {
      if (0 != (mine[t] & ITERATE) && 0 != (theirs[t] & ITERATE)) {
        return true;
      }
    }
    return false;
  }

  private static boolean[][] closure(final boolean[][] before) {
    final int n = before.length;
    final boolean[][] reach = new boolean[n][n];
    for (int a = 0; a < n; a++) {
      reach[a] = before[a].clone();
    }
    for (int k = 0; k < n; k++) {
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          reach[a][b] |= reach[a][k] && reach[k][b];
        }
      }
    }
    return reach;
  }

  private static void declare(
      final SystemDeclaration declaration, final ComponentType<?, ?> type, final int kind) {
    if (0 != (kind & READ)) {
      declaration.reads(type);
    }
    if (0 != (kind & WRITE)) {
      declaration.writes(type);
    }
    if (0 != (kind & ITERATE)) {
      declaration.iterates(type);
    }
    if (0 != (kind & STRUCTURE)) {
      declaration.changesStructure(type);
    }
  }

  /**
   * A system that marks itself running, notes who else runs, waits for every system of its wave to
   * start, then does what it declared: loops, writes and a structural change of its own entity.
   */
  private static SystemBody body(
      final Registry registry,
      final int self,
      final int[] kinds,
      final long own,
      final AtomicLong running,
      final long[] overlapped,
      final CountDownLatch[] waveOf) {
    final View[] views = new View[TYPES.length];
    for (int t = 0; t < TYPES.length; t++) {
      views[t] = registry.view(TYPES[t]);
    }
    return context -> {
      final long others = running.getAndAdd(1L << self);
      long seen = others;
      final CountDownLatch wave = waveOf[self];
      wave.countDown();
      try {
        assertTrue(wave.await(10, TimeUnit.SECONDS), "the wave of s" + self + " never met");
      } catch (final InterruptedException e) {
        throw new IllegalStateException(e);
      }
      for (int t = 0; t < TYPES.length; t++) {
        final ObjectStorage<Payload> storage = registry.storage(TYPES[t]);
        if (0 != (kinds[t] & ITERATE)) {
          final long[] sum = new long[1];
          views[t].each(entity -> sum[0] += storage.get(entity).value);
        }
        if (0 != (kinds[t] & WRITE)) {
          storage.get(storage.at(0)).value++;
        }
        if (0 != (kinds[t] & STRUCTURE)) {
          if (storage.contains(own)) {
            storage.remove(own);
          } else {
            storage.emplace(own, new Payload(self));
          }
        }
        seen |= running.get();
      }
      overlapped[self] = (seen | running.get()) & ~(1L << self);
      running.getAndAdd(-(1L << self));
    };
  }
}
