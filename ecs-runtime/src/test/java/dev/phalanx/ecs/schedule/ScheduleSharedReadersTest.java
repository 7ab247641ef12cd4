package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Systems that only read a storage share a wave and run at once on a pool; a loop over a storage
 * another system of the wave may change is refused when it starts.
 */
class ScheduleSharedReadersTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  private static final int ENTITIES = 1_000;

  private static Registry world() {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      registry.emplace(registry.create(), A, new Payload(i));
    }
    return registry;
  }

  private static void await(final CyclicBarrier barrier) {
    try {
      barrier.await(10, TimeUnit.SECONDS);
    } catch (final Exception e) {
      throw new IllegalStateException("the other system never arrived", e);
    }
  }

  /** A system that sums A's values in a loop of its own, meeting the other reader on the way. */
  private static SystemBody summing(
      final Registry registry, final AtomicLong sum, final CyclicBarrier meet) {
    final View view = registry.view(A);
    final ObjectStorage<Payload> values = registry.storage(A);
    return context ->
        view.each(
            entity -> {
              final int value = values.get(entity).value;
              if (null != meet && value == ENTITIES / 2) {
                // Both loops are in progress here, on two threads.
                await(meet);
              }
              sum.addAndGet(value);
            });
  }

  @Test
  void twoSystemsThatReadOneStorageShareAWaveAndOverlapOnAPool() {
    final long expected = (long) ENTITIES * (ENTITIES - 1) / 2;
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final ForkJoinPool executor : new ForkJoinPool[] {null, pool}) {
        final Registry registry = world();
        final AtomicLong first = new AtomicLong();
        final AtomicLong second = new AtomicLong();
        final CyclicBarrier meet = null == executor ? null : new CyclicBarrier(2);
        final ScheduleBuilder builder = Schedule.builder(registry).executor(executor);
        builder.system("first", summing(registry, first, meet)).reads(A).iterates(A);
        builder.system("second", summing(registry, second, meet)).reads(A).iterates(A);
        builder.system("writer", context -> {}).writes(B);
        final Schedule schedule = builder.build();
        assertEquals(
            List.of(List.of("first", "second", "writer")), schedule.waves(Schedule.UPDATE));
        for (int frame = 0; frame < 20; frame++) {
          schedule.run();
        }
        assertEquals(20 * expected, first.get(), "executor " + executor);
        assertEquals(20 * expected, second.get(), "executor " + executor);
        assertFalse(registry.storage(A).isIterated());
        assertFalse(registry.storage(A).isLocked());
        assertEquals(List.of(), registry.verify());
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aReaderStillRunsApartFromASystemThatChangesTheStorage() {
    final Registry registry = world();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("reads", summing(registry, new AtomicLong(), null)).reads(A).iterates(A);
    builder.system("spawns", context -> {}).changesStructure(A);
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertTrue(
        refused.getMessage().contains("one changes the structure of what the other uses"),
        refused.getMessage());
  }

  @Test
  void anUndeclaredLoopOverAStorageTheOtherSystemMayChangeIsRefused() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Registry registry = world();
      final long spawned = registry.create();
      final View undeclared = registry.view(A);
      final CyclicBarrier both = new CyclicBarrier(2);
      final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
      builder
          .system(
              "owner",
              context -> {
                await(both); // permitted on A from here on
                await(both);
                context.storage(A).emplace(spawned, new Payload(-1));
              })
          .changesStructure(A);
      builder.system(
          "sneaky",
          context -> {
            await(both);
            try {
              undeclared.each(entity -> {});
            } finally {
              await(both);
            }
          });
      SchedulePromisesTest.assertSneakyRefused(builder.build(), "may change its structure");
      assertTrue(registry.has(spawned, A), "the declaring system's change went through");
      assertFalse(registry.storage(A).isIterated());
      assertEquals(List.of(), registry.verify());
    } finally {
      pool.shutdown();
    }
  }
}
