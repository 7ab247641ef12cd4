package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** The timing's count of parallel chunk tasks per thread, per system. */
class ScheduleChunkCountsTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  /** {@return a registry of {@code count} entities, each with an A} */
  private static Registry registryOf(final int count) {
    final Registry registry = new Registry();
    for (int i = 0; i < count; i++) {
      registry.emplace(registry.create(), A, new Payload(i));
    }
    return registry;
  }

  private static void sleep() {
    sleep(2);
  }

  private static void sleep(final long millis) {
    try {
      Thread.sleep(millis);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long sum(final List<Long> counts) {
    long total = 0;
    for (final long count : counts) {
      total += count;
    }
    return total;
  }

  @Test
  void eachSystemCountsTheTasksOfItsOwnPassesByThread() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Registry registry = new Registry();
      for (int i = 0; i < 8_192; i++) {
        final long e = registry.create();
        registry.emplace(e, A, new Payload(i));
        if (i < 500) {
          registry.emplace(e, B, new Payload(i));
        }
      }
      final OwningGroup big = registry.owningGroup(A);
      final OwningGroup small = registry.owningGroup(B);
      final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
      // Each task takes a while, so that the pool's threads wake in time to take some.
      builder
          .system("big", c -> big.parallelEachChunk(pool, 1_024, (from, to) -> sleep()))
          .iterates(A);
      builder.system("small", c -> small.parallelEachChunk(pool, (from, to) -> {})).iterates(B);
      builder.system("none", c -> {});
      final Schedule schedule = builder.build();
      assertEquals(List.of(List.of("big", "small", "none")), schedule.waves(Schedule.UPDATE));
      for (int frame = 0; frame < 3; frame++) {
        schedule.run();
      }
      final List<Long> bigCounts = schedule.timing("big").chunksByThread();
      assertEquals(24, sum(bigCounts), "eight tasks a pass: " + bigCounts);
      assertTrue(bigCounts.size() > 1, "the pool ran some: " + bigCounts);
      // 500 members fit one task of the automatic grain: the starting thread runs it alone.
      final List<Long> smallCounts = schedule.timing("small").chunksByThread();
      assertEquals(3, sum(smallCounts), smallCounts.toString());
      assertEquals(List.of(), schedule.timing("none").chunksByThread());
      assertEquals(List.of(), schedule.frameTiming().chunksByThread());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void theScheduleThreadHelpsAPassOfAnotherSystemOfItsWave() {
    final ForkJoinPool pool = new ForkJoinPool(1);
    try {
      final Registry registry = registryOf(8_192);
      final OwningGroup group = registry.owningGroup(A);
      final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
      // The first system of the wave runs on the schedule's thread, the second on the pool's one
      // thread, whose pass's own helper waits behind it: only the schedule's thread can help.
      builder.system("short", c -> sleep(20));
      builder
          .system("pass", c -> group.parallelEachChunk(pool, 1_024, (from, to) -> sleep(5)))
          .iterates(A);
      final Schedule schedule = builder.build();
      assertEquals(List.of(List.of("short", "pass")), schedule.waves(Schedule.UPDATE));
      schedule.run();
      final List<Long> counts = schedule.timing("pass").chunksByThread();
      assertEquals(8, sum(counts), counts.toString());
      assertTrue(counts.get(0) > 0, "the schedule's thread took tasks: " + counts);
      assertEquals(List.of(), schedule.timing("short").chunksByThread());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aHelpedTaskThatThrowsFailsItsSystemAndLeavesTheWorldWhole() {
    final ForkJoinPool pool = new ForkJoinPool(1);
    try {
      final Registry registry = registryOf(8_192);
      final OwningGroup group = registry.owningGroup(A);
      final int[] failAt = {-1};
      final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
      builder.system("short", c -> sleep(10));
      builder
          .system(
              "pass",
              c ->
                  group.parallelEachChunk(
                      pool,
                      1_024,
                      (from, to) -> {
                        sleep(2);
                        if (from == failAt[0]) {
                          throw new IllegalStateException("task at " + from);
                        }
                      }))
          .iterates(A);
      final Schedule schedule = builder.build();
      for (int k = 0; k < 8; k++) {
        failAt[0] = k * 1_024;
        final SystemFailedException failed =
            org.junit.jupiter.api.Assertions.assertThrows(
                SystemFailedException.class, schedule::run);
        assertEquals("pass", failed.system());
        assertEquals(List.of(), registry.verify());
        failAt[0] = -1;
        schedule.run();
      }
      assertTrue(schedule.timing("pass").chunksByThread().get(0) > 0, "helped");
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aSinglePassOnTheCallingThreadCountsInTheFirstElement() {
    final Registry registry = new Registry();
    for (int i = 0; i < 100; i++) {
      registry.emplace(registry.create(), A, new Payload(i));
    }
    final OwningGroup group = registry.owningGroup(A);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final ScheduleBuilder builder = Schedule.builder(registry);
      builder.system("pass", c -> group.parallelEachChunk(pool, (from, to) -> {})).iterates(A);
      final Schedule schedule = builder.build();
      schedule.run();
      schedule.run();
      assertEquals(List.of(2L), schedule.timing("pass").chunksByThread());
      // Untimed schedules count nothing; passes outside a schedule are not counted either.
      final ScheduleBuilder untimed = Schedule.builder(registry).timeSystems(false);
      untimed.system("pass", c -> group.parallelEachChunk(pool, (from, to) -> {})).iterates(A);
      final Schedule quiet = untimed.build();
      quiet.run();
      group.parallelEachChunk(pool, (from, to) -> {});
      assertEquals(List.of(), quiet.timing("pass").chunksByThread());
      assertEquals(List.of(2L), schedule.timing("pass").chunksByThread());
    } finally {
      pool.shutdown();
    }
  }
}
