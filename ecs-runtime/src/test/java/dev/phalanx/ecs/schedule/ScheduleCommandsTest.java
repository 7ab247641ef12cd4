package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** Commands in a schedule: per-run buffers of parallel passes, applied at the sync point. */
class ScheduleCommandsTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  private static long[] populate(final Registry registry, final int n) {
    final long[] entities = new long[n];
    registry.create(entities);
    for (int i = 0; i < n; i++) {
      registry.emplace(entities[i], A, new Payload(i));
    }
    return entities;
  }

  @Test
  void applyingPerRunBuffersInsideASystemIsRefusedWithTheWayToDoIt() {
    final Registry registry = new Registry();
    final long[] entities = populate(registry, 64);
    final OwningGroup group = registry.owningGroup(A);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final CommandBuffers perRun = new CommandBuffers(registry);
      final ScheduleBuilder builder = Schedule.builder(registry);
      builder.system("spawner", emplaceBThenApply(perRun, group, pool)).reads(A).iterates(A);
      final SystemFailedException failure =
          assertThrows(SystemFailedException.class, builder.build()::run);
      assertEquals("spawner", failure.system());
      assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
      final String message = failure.getCause().getMessage();
      assertTrue(message.contains("running system 'spawner' of stage 'update'"), message);
      assertTrue(message.contains("context.applyAtSyncPoint(buffers)"), message);
      for (final long entity : entities) {
        assertFalse(registry.has(entity, B));
      }
      assertEquals(List.of(), registry.verify());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void perRunBuffersRegisteredWithTheContextApplyAtTheSyncPointInOrder() {
    final List<List<Integer>> worlds = new ArrayList<>();
    for (int threads = 1; threads <= 4; threads *= 2) {
      final ForkJoinPool pool = new ForkJoinPool(threads);
      try {
        final Registry registry = new Registry();
        final long[] entities = populate(registry, 100);
        final OwningGroup group = registry.owningGroup(A);
        final CommandBuffers perRun = new CommandBuffers(registry);
        final List<String> order = new ArrayList<>();
        final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
        builder
            .system(
                "spawner",
                c -> {
                  c.commands().queue(r -> order.add("own buffer"));
                  perRun.parallelEachChunk(
                      group,
                      pool,
                      8,
                      (commands, es, from, to) -> {
                        for (int i = from; i < to; i++) {
                          commands.emplaceIfAbsent(es[i], B, new Payload(i * 10));
                        }
                        commands.queue(r -> record(order, "run " + from));
                      });
                  c.applyAtSyncPoint(perRun);
                  c.applyAtSyncPoint(perRun); // once only
                })
            .reads(A)
            .iterates(A);
        builder
            .system(
                "check",
                c -> {
                  if (0 == c.frame()) {
                    assertFalse(registry.has(entities[0], B), "not before the sync point");
                  }
                  c.commands().queue(r -> order.add("later system"));
                })
            .reads(B)
            .after("spawner");
        final Schedule schedule = builder.build();
        schedule.run();
        final List<String> expected = new ArrayList<>();
        expected.add("own buffer");
        for (int from = 0; from < 100; from += 8) {
          expected.add("run " + from);
        }
        expected.add("later system");
        assertEquals(expected, order, threads + " thread(s)");
        final List<Integer> world = new ArrayList<>();
        for (final long entity : entities) {
          world.add(registry.get(entity, B).value);
        }
        worlds.add(world);
        // A registration lasts one frame: without one, the next frame's runs are not applied.
        order.clear();
        final CommandBuffers unregistered = new CommandBuffers(registry);
        unregistered.forRun(0).remove(entities[0], B);
        schedule.run();
        assertTrue(registry.has(entities[0], B), "a set nobody registered stays unapplied");
        assertEquals(List.of(), registry.verify());
      } finally {
        pool.shutdown();
      }
    }
    assertEquals(worlds.get(0), worlds.get(1));
    assertEquals(worlds.get(0), worlds.get(2));
  }

  private static void record(final List<String> order, final String what) {
    synchronized (order) {
      order.add(what);
    }
  }

  @Test
  void aRegisteredSetFailingAtTheSyncPointNamesItsSystemAndTheOthersApply() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final RuntimeException boom = new IllegalStateException("boom");
    final CommandBuffers perRun = new CommandBuffers(registry);
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "failing",
        c -> {
          perRun
              .forRun(0)
              .queue(
                  r -> {
                    throw boom;
                  });
          c.applyAtSyncPoint(perRun);
        });
    builder.system("fine", c -> c.commands().emplace(entity, B, new Payload(1)));
    final SystemFailedException failure =
        assertThrows(SystemFailedException.class, builder.build()::run);
    assertEquals("failing", failure.system());
    assertTrue(failure.atSyncPoint());
    assertSame(boom, failure.getCause());
    assertTrue(registry.has(entity, B), "the later buffer was applied");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aSetFailingAtEveryKOnBothExecutorsStopsTheFrameAfterTheOthersApply() {
    final int count = 4;
    for (final ForkJoinPool pool : new ForkJoinPool[] {null, new ForkJoinPool(2)}) {
      try {
        for (int k = 0; k < count; k++) {
          final Registry registry = new Registry();
          final long[] entities = new long[count];
          registry.create(entities);
          final int failAt = k;
          final RuntimeException boom = new IllegalStateException("set " + k);
          final CommandBuffers[] sets = new CommandBuffers[count];
          final int[] later = {0};
          final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
          for (int i = 0; i < count; i++) {
            final int index = i;
            sets[i] = new CommandBuffers(registry);
            builder.system(
                "s" + i,
                c -> {
                  final CommandBuffers set = sets[index];
                  set.forRun(0).emplace(entities[index], B, new Payload(index));
                  if (index == failAt && 0 == c.frame()) {
                    set.forRun(1)
                        .queue(
                            r -> {
                              throw boom;
                            });
                  }
                  c.applyAtSyncPoint(set);
                });
          }
          builder.system("late", c -> later[0]++).in(Schedule.POST_UPDATE);
          final Schedule schedule = builder.build();
          final SystemFailedException failure =
              assertThrows(SystemFailedException.class, schedule::run);
          assertEquals("s" + k, failure.system());
          assertTrue(failure.atSyncPoint());
          assertSame(boom, failure.getCause());
          for (int i = 0; i < count; i++) {
            assertTrue(registry.has(entities[i], B), "k " + k + ": set " + i + " applied");
          }
          assertEquals(0, later[0], "later stages did not run");
          assertEquals(List.of(), registry.verify());
          for (int i = 0; i < count; i++) {
            registry.remove(entities[i], B);
          }
          schedule.run(); // a whole frame
          assertEquals(1, later[0]);
          for (int i = 0; i < count; i++) {
            assertTrue(registry.has(entities[i], B));
          }
        }
      } finally {
        if (null != pool) {
          pool.shutdown();
        }
      }
    }
  }

  @Test
  void aFrameThatStopsClearsTheRegisteredSets() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final CommandBuffers perRun = new CommandBuffers(registry);
    final boolean[] fail = {true};
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "recorder",
        c -> {
          perRun.forRun(0).emplaceIfAbsent(entity, B, new Payload(1));
          c.applyAtSyncPoint(perRun);
        });
    builder.system(
        "fragile",
        c -> {
          if (fail[0]) {
            throw new IllegalStateException("stop");
          }
        });
    final Schedule schedule = builder.build();
    assertThrows(SystemFailedException.class, schedule::run);
    assertFalse(registry.has(entity, B));
    assertEquals(0, perRun.forRun(0).size(), "discarded, as the system's own buffer is");
    fail[0] = false;
    schedule.run();
    assertTrue(registry.has(entity, B));
  }

  @Test
  void anExclusiveSystemMayApplyPerRunBuffersItself() {
    final Registry registry = new Registry();
    final long[] entities = populate(registry, 32);
    final OwningGroup group = registry.owningGroup(A);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final CommandBuffers perRun = new CommandBuffers(registry);
      final ScheduleBuilder builder = Schedule.builder(registry);
      builder.system("world", emplaceBThenApply(perRun, group, pool)).exclusive();
      builder.build().run();
      for (final long entity : entities) {
        assertTrue(registry.has(entity, B));
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * A system that has its per-run buffers emplace a B on each member of {@code group} in a parallel
   * pass, then applies them itself.
   */
  private static SystemBody emplaceBThenApply(
      final CommandBuffers perRun, final OwningGroup group, final ForkJoinPool pool) {
    return c -> {
      perRun.parallelEachChunk(
          group,
          pool,
          8,
          (commands, es, from, to) -> {
            for (int i = from; i < to; i++) {
              commands.emplace(es[i], B, new Payload(i));
            }
          });
      perRun.apply();
    };
  }
}
