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

  /**
   * Sets of two systems fail at the sync point: the first system in the stage's order is named, the
   * later one's failure suppressed, whichever order the sets fail in.
   */
  @Test
  void setsOfTwoSystemsFailingAtTheSyncPointNameTheFirstSystem() {
    final Registry registry = new Registry();
    final RuntimeException first = new IllegalStateException("first");
    final RuntimeException second = new IllegalStateException("second");
    final CommandBuffers firstSet = new CommandBuffers(registry);
    final CommandBuffers secondSet = new CommandBuffers(registry);
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("early", c -> failingSet(c, firstSet, first));
    builder.system("late", c -> failingSet(c, secondSet, second)).after("early");
    final SystemFailedException failure =
        assertThrows(SystemFailedException.class, builder.build()::run);
    assertEquals("early", failure.system());
    assertTrue(failure.atSyncPoint());
    assertSame(first, failure.getCause());
    assertEquals(List.of(second), List.of(failure.getSuppressed()));
  }

  /**
   * A system whose own buffer and registered set both fail at the sync point: the buffer's
   * exception is the cause, the set's suppressed in it.
   */
  @Test
  void aSystemsBufferAndSetBothFailingKeepBothExceptions() {
    final Registry registry = new Registry();
    final RuntimeException own = new IllegalStateException("own buffer");
    final RuntimeException ofSet = new IllegalStateException("set");
    final CommandBuffers set = new CommandBuffers(registry);
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "both",
        c -> {
          c.commands()
              .queue(
                  r -> {
                    throw own;
                  });
          failingSet(c, set, ofSet);
        });
    final SystemFailedException failure =
        assertThrows(SystemFailedException.class, builder.build()::run);
    assertEquals("both", failure.system());
    assertSame(own, failure.getCause());
    assertEquals(List.of(ofSet), List.of(own.getSuppressed()));
    assertEquals(0, failure.getSuppressed().length);
  }

  private static void failingSet(
      final SystemContext c, final CommandBuffers set, final RuntimeException thrown) {
    set.forRun(0)
        .queue(
            r -> {
              throw thrown;
            });
    c.applyAtSyncPoint(set);
  }

  /**
   * A set whose apply is refused outright (its creations pass the registry's entity limit), which
   * leaves its commands in it, is emptied by the sync point: nothing of it is applied later.
   */
  @Test
  void aSetRefusedOutrightAtTheSyncPointIsEmptied() {
    final Registry registry = new Registry(2);
    final long kept = registry.create();
    final CommandBuffers set = new CommandBuffers(registry);
    final boolean[] record = {true};
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "spawner",
        c -> {
          if (record[0]) {
            final long a = set.forRun(0).create();
            final long b = set.forRun(1).create();
            set.forRun(0).emplace(a, B, new Payload(1));
            set.forRun(1).emplace(b, B, new Payload(2));
            c.applyAtSyncPoint(set);
          }
        });
    final Schedule schedule = builder.build();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("spawner", failure.system());
    assertTrue(failure.atSyncPoint());
    assertInstanceOf(IllegalStateException.class, failure.getCause());
    assertEquals(0, set.size(), "the refused set was emptied");
    assertEquals(1, registry.alive());
    // With room again, applying the set creates nothing: its commands are gone.
    registry.destroy(kept);
    set.apply();
    assertEquals(0, registry.alive());
    record[0] = false;
    schedule.run();
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
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
