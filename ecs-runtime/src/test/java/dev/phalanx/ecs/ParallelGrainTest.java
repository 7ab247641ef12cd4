package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.E;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The grain of parallel chunk passes: automatic, per group, per call; runs and tasks counted. */
class ParallelGrainTest {

  /** A component stored in pages of 4,096 positions, as generated storages are by default. */
  record W(int value) {}

  static final ComponentType<W, ObjectStorage<W>> TW =
      ComponentType.object(W.class, ComponentTraits.DEFAULT.withPageSize(4_096));

  private final Registry registry = new Registry();

  private OwningGroup group(final ComponentType<?, ?> type, final int count) {
    final OwningGroup group = registry.owningGroup(type);
    for (int i = 0; i < count; i++) {
      final long e = registry.create();
      if (TW == type) {
        registry.emplace(e, TW, new W(i));
      } else {
        registry.emplace(e, TE, new E(i));
      }
    }
    return group;
  }

  /** The runs of one pass, sorted by start: "from..to". */
  private static List<int[]> runs(
      final OwningGroup group, final ForkJoinPool pool, final Integer grain) {
    final List<int[]> runs = Collections.synchronizedList(new ArrayList<>());
    if (null == grain) {
      group.parallelEachChunk(pool, (from, to) -> runs.add(new int[] {from, to}));
    } else {
      group.parallelEachChunk(pool, grain, (from, to) -> runs.add(new int[] {from, to}));
    }
    final List<int[]> sorted = new ArrayList<>(runs);
    sorted.sort((l, r) -> Integer.compare(l[0], r[0]));
    // The runs cover [0, size()) exactly, in disjoint pieces, none crossing a page.
    int next = 0;
    for (final int[] run : sorted) {
      assertEquals(next, run[0]);
      assertTrue(run[1] > run[0]);
      assertEquals(run[0] / group.chunkSize(), (run[1] - 1) / group.chunkSize(), "one page");
      next = run[1];
    }
    assertEquals(group.size(), next);
    return sorted;
  }

  @Test
  void theAutomaticGrainSplitsAFewThousandElementsIntoSeveralTasks() {
    // 3,000 members fit one 4,096-element page: the old fixed grain made one task of them.
    final OwningGroup group = group(TW, 3_000);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      assertEquals(0, group.parallelGrain(), "automatic by default");
      final List<int[]> runs = runs(group, pool, null);
      assertEquals(3, runs.size(), "tasks of 1,024 positions, each one run");
      assertEquals(1_024, runs.get(1)[0]);
      // Two threads really take part: each of two runs waits for the other at a barrier.
      final CyclicBarrier barrier = new CyclicBarrier(2);
      final Set<Thread> threads = ConcurrentHashMap.newKeySet();
      group.parallelEachChunk(
          pool,
          (from, to) -> {
            threads.add(Thread.currentThread());
            if (from < 2_048) {
              try {
                barrier.await(30, TimeUnit.SECONDS);
              } catch (final Exception e) {
                throw new IllegalStateException("only one thread ran the tasks", e);
              }
            }
          });
      assertTrue(threads.size() >= 2, threads.toString());
      // 8,192 members on two threads: eight tasks (four per thread).
      for (int i = 0; i < 5_192; i++) {
        registry.emplace(registry.create(), TW, new W(i));
      }
      assertEquals(8, runs(group, pool, null).size());
    } finally {
      pool.shutdown();
    }
    final ForkJoinPool one = new ForkJoinPool(1);
    try {
      // A pool of one and the calling thread: ceil(8,192 / 8) = 1,024 positions a task.
      assertEquals(8, runs(group, one, null).size(), "1,024 positions a task on two threads");
    } finally {
      one.shutdown();
    }
  }

  @Test
  void aGrainPerGroupOrPerCallOverridesTheAutomaticOne() {
    final OwningGroup group = group(TW, 10_000);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      group.parallelGrain(100_000);
      assertEquals(100_000, group.parallelGrain());
      // One task: runs are whole pages, as eachChunk's.
      assertEquals(3, runs(group, pool, null).size());
      assertEquals(10, runs(group, pool, 1_000).size(), "a grain per call: 1,024-aligned tasks");
      // Automatic on a pool of two and the calling thread: ceil(10,000 / 12) = 834, below the
      // least automatic grain: ten tasks of 1,024.
      assertEquals(10, runs(group, pool, 0).size(), "0 per call: automatic");
      group.parallelGrain(0);
      assertEquals(10, runs(group, pool, null).size(), "back to automatic");
    } finally {
      pool.shutdown();
    }
    assertThrows(IllegalArgumentException.class, () -> group.parallelGrain(-1));
    assertThrows(
        IllegalArgumentException.class,
        () -> group.parallelEachChunk(ForkJoinPool.commonPool(), -5, (from, to) -> {}));
  }

  @Test
  void aPassOfOneTaskRunsOnTheCallingThread() {
    final OwningGroup group = group(TW, 500);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Set<Thread> threads = ConcurrentHashMap.newKeySet();
      group.parallelEachChunk(pool, (from, to) -> threads.add(Thread.currentThread()));
      assertEquals(Set.of(Thread.currentThread()), threads, "500 < 1,024: one task, no hand-off");
      final RuntimeException boom = new IllegalStateException("boom");
      assertThrows(
          IllegalStateException.class,
          () ->
              group.parallelEachChunk(
                  pool,
                  (from, to) -> {
                    throw boom;
                  }));
      assertTrue(!group.owned(0).isLocked());
      assertEquals(List.of(), registry.verify());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aPassOfExactlyOneTaskRunsOnTheCallingThread() {
    // E has 8-element pages: 16 members and a grain of 16 make exactly one task.
    final OwningGroup group = group(TE, 16);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Set<Thread> threads = ConcurrentHashMap.newKeySet();
      final List<int[]> runs = Collections.synchronizedList(new ArrayList<>());
      group.parallelEachChunk(
          pool,
          16,
          (from, to) -> {
            threads.add(Thread.currentThread());
            runs.add(new int[] {from, to});
          });
      assertEquals(Set.of(Thread.currentThread()), threads, "size == grain: one task, no hand-off");
      assertEquals(2, runs.size(), "one run per page");
      group.parallelGrain(16);
      threads.clear();
      group.parallelEachChunk(pool, (from, to) -> threads.add(Thread.currentThread()));
      assertEquals(Set.of(Thread.currentThread()), threads, "the group's grain alike");
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void smallGrainsAlignToPowersOfTwoWithinPages() {
    // E has 8-element pages: a grain of 3 makes tasks of 4 aligned positions.
    final OwningGroup group = group(TE, 37);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final List<int[]> runs = runs(group, pool, 3);
      assertEquals(10, runs.size());
      for (final int[] run : runs) {
        assertEquals(0, run[0] % 4);
      }
      assertEquals(37, runs(group, pool, 1).size(), "a grain of one: one position a task");
      assertEquals(5, runs(group, pool, 20).size(), "above a page: whole pages, 24 a task");
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void theTaskSizeRule() {
    assertEquals(1_024, OwningGroup.taskSize(0, 3_000, 2, 4_096));
    assertEquals(1_024, OwningGroup.taskSize(0, 8_192, 2, 4_096));
    assertEquals(2_048, OwningGroup.taskSize(0, 8_192, 1, 4_096));
    // One position more: ceil(8,193 / 4) = 2,049 a task, aligned up to 4,096 (not 2,048).
    assertEquals(4_096, OwningGroup.taskSize(0, 8_193, 1, 4_096));
    assertEquals(3_072, OwningGroup.taskSize(0, 8_193, 1, 1_024), "2,049 in whole pages");
    assertEquals(4_096 * 4, OwningGroup.taskSize(0, 120_000, 2, 4_096), "15,000 → whole pages");
    assertEquals(4, OwningGroup.taskSize(3, 100, 2, 8));
    assertEquals(1, OwningGroup.taskSize(1, 100, 2, 8));
    assertEquals(24, OwningGroup.taskSize(20, 100, 2, 8));
    assertEquals(8, OwningGroup.alignment(24, 8));
    assertEquals(1_024, OwningGroup.alignment(1_000, 4_096));
    assertTrue(OwningGroup.taskSize(Integer.MAX_VALUE, 10, 2, 4_096) > 0);
  }

  @Test
  void commandBuffersTakeAGrainToo() {
    final OwningGroup group = group(TW, 3_000);
    final CommandBuffers commands = new CommandBuffers(registry);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Set<Integer> starts = ConcurrentHashMap.newKeySet();
      commands.parallelEachChunk(
          group,
          pool,
          500,
          (buffer, entities, from, to) -> {
            starts.add(from);
            if (from == 512) {
              buffer.destroy(entities[from]);
            }
          });
      assertEquals(6, starts.size(), "tasks of 512 positions");
      commands.apply();
      assertEquals(2_999, group.size());
      assertEquals(List.of(), registry.verify());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aBodyThatHelpsItsOwnPassVisitsEveryPositionOnce() {
    final OwningGroup group = group(TW, 8_192);
    final ForkJoinPool pool = new ForkJoinPool(1);
    try {
      final java.util.concurrent.atomic.AtomicIntegerArray visits =
          new java.util.concurrent.atomic.AtomicIntegerArray(group.size());
      final int[] helped = new int[1];
      group.parallelEachChunk(
          pool,
          1_024,
          (from, to) -> {
            for (int p = from; p < to; p++) {
              visits.incrementAndGet(p);
            }
            // Re-entered from its own body: the registry hands it tasks of this very pass.
            if (0 == from && registry.helpParallelPasses()) {
              helped[0]++;
            }
          });
      for (int p = 0; p < visits.length(); p++) {
        assertEquals(1, visits.get(p), "position " + p);
      }
      assertEquals(List.of(), registry.verify());
      assertTrue(helped[0] <= 1, "one nested help at most: " + helped[0]);
      // With nothing under way, helping does nothing.
      assertTrue(!registry.helpParallelPasses());
    } finally {
      pool.shutdown();
    }
  }
}
