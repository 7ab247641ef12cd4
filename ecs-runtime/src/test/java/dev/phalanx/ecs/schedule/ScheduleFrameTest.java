package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What one {@link Schedule} frame does, observed from its systems: the steps a fixed-timestep stage
 * runs for each elapsed time (its accumulator, its cap, {@code run()} without a time), two systems
 * of one wave running at the same time on an executor, where a failure stops the frame and which
 * system it names, a command failing at the sync point, the text of a schedule and its timings.
 */
class ScheduleFrameTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  @Test
  void aFixedStageRunsTheStepsItsAccumulatedTimeHolds() {
    final Registry registry = new Registry();
    final List<String> fixed = new ArrayList<>();
    final List<Long> update = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry).fixedStage("fixed", 10, 3);
    builder
        .system("f", c -> fixed.add(c.stage() + " " + c.step() + " " + c.stepNanos()))
        .in("fixed");
    builder.system("u", c -> update.add(c.stepNanos()));
    final Schedule schedule = builder.build();
    final long[] elapsed = {25, 4, 1, 0, 105, 5};
    final int[] steps = {2, 0, 1, 0, 3, 1};
    for (int f = 0; f < elapsed.length; f++) {
      fixed.clear();
      schedule.run(elapsed[f]);
      final List<String> expected = new ArrayList<>();
      for (int s = 0; s < steps[f]; s++) {
        expected.add("fixed " + s + " 10");
      }
      assertEquals(expected, fixed, "frame " + f + ", " + elapsed[f] + " ns");
      assertEquals(elapsed[f], update.get(update.size() - 1));
      assertEquals(f + 1, schedule.frame());
    }
    // Without a time: one step of each fixed stage, 0 for the others.
    fixed.clear();
    schedule.run();
    assertEquals(List.of("fixed 0 10"), fixed);
    assertEquals(0L, update.get(update.size() - 1));
    assertThrows(IllegalArgumentException.class, () -> schedule.run(-1));
    assertEquals(elapsed.length + 1, schedule.frame());
  }

  @Test
  void anyElapsedTimeRunsAtMostTheMaximumStepsAndKeepsTheRemainder() {
    final int[] steps = {0};
    final ScheduleBuilder builder = Schedule.builder(new Registry()).fixedStage("physics", 10, 3);
    builder.system("step", c -> steps[0]++).in("physics");
    final Schedule schedule = builder.build();
    schedule.run(5);
    assertEquals(0, steps[0], "5 ns carried, no step yet");
    // Long.MAX_VALUE = 10 * 922337203685477580 + 7: with the 5 carried, 12 ns past a whole step.
    schedule.run(Long.MAX_VALUE);
    assertEquals(3, steps[0], "at most three steps however long the frame");
    schedule.run(7);
    assertEquals(3, steps[0], "the 2 ns remainder plus 7 is not a step yet");
    schedule.run(1);
    assertEquals(4, steps[0], "10 ns: one step");
    schedule.run(Long.MAX_VALUE);
    schedule.run(Long.MAX_VALUE);
    assertEquals(10, steps[0], "frames after a huge one run normally");
  }

  @Test
  void twoSystemsOfOneWaveRunAtTheSameTimeOnAnExecutor() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Registry registry = new Registry();
      final CyclicBarrier both = new CyclicBarrier(2);
      final List<String> names = new ArrayList<>();
      final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
      for (final String name : List.of("a", "b")) {
        builder
            .system(
                name,
                c -> {
                  try {
                    // Passes only if the other system runs meanwhile.
                    both.await(10, TimeUnit.SECONDS);
                  } catch (final Exception e) {
                    throw new IllegalStateException(e);
                  }
                  synchronized (names) {
                    names.add(c.system());
                  }
                })
            .reads("a".equals(name) ? A : B);
      }
      final Schedule schedule = builder.build();
      assertEquals(List.of(List.of("a", "b")), schedule.waves(Schedule.UPDATE));
      schedule.run();
      assertEquals(2, names.size());
      assertTrue(names.containsAll(List.of("a", "b")));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theFirstFailingSystemStopsTheFrameAndIsNamed() {
    final Registry registry = new Registry();
    final List<String> ran = new ArrayList<>();
    final RuntimeException boom = new IllegalStateException("boom");
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system(
            "first",
            c -> {
              ran.add("first");
              c.commands().create();
              throw boom;
            })
        .writes(A);
    builder
        .system(
            "second",
            c -> {
              ran.add("second");
              throw new IllegalStateException("second");
            })
        .writes(B);
    builder.system("third", c -> ran.add("third")).after("first").writes(A);
    builder.system("late", c -> ran.add("late")).in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    final SystemFailedException e = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("first", e.system());
    assertEquals(Schedule.UPDATE, e.stage());
    assertEquals(0, e.frame());
    assertFalse(e.atSyncPoint());
    assertSame(boom, e.getCause());
    assertEquals(
        "system 'first' failed in stage 'update', frame 0: java.lang.IllegalStateException: boom;"
            + " the stage's commands were discarded, later waves and stages did not run",
        e.getMessage());
    assertEquals(List.of("first", "second"), ran);
    assertEquals(0, registry.alive(), "the failed stage's commands were discarded");
    // The schedule may run the next frame; the discarded commands stay discarded.
    ran.clear();
    assertThrows(SystemFailedException.class, schedule::run);
    assertEquals(0, registry.alive());
  }

  @Test
  void aCommandFailingAtTheSyncPointIsNamedAndTheOthersApply() {
    final Registry registry = new Registry();
    final RuntimeException boom = new IllegalStateException("boom");
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("makes", c -> c.commands().create()).writes(A);
    builder
        .system(
            "fails",
            c ->
                c.commands()
                    .queue(
                        r -> {
                          throw boom;
                        }))
        .writes(B);
    builder.system("late", c -> ran.add("late")).in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    final SystemFailedException e = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("fails", e.system());
    assertTrue(e.atSyncPoint());
    assertSame(boom, e.getCause());
    assertEquals(
        "the commands of system 'fails' failed at the sync point of stage 'update', frame 0:"
            + " java.lang.IllegalStateException: boom; the other commands of the stage were"
            + " applied, later stages did not run",
        e.getMessage());
    assertEquals(1, registry.alive());
    assertEquals(List.of(), ran);
    // Next frame: the failed buffer was dropped, so it fails again only by its new command.
    assertThrows(SystemFailedException.class, schedule::run);
    assertEquals(2, registry.alive());
  }

  @Test
  void aScheduleDescribesItsStagesAndWaves() {
    final Registry registry = new Registry();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("a", c -> {}).writes(A);
    builder.system("b", c -> {}).writes(A).after("a");
    builder.system("c", c -> {}).reads(B);
    builder.system("d", c -> {}).in(Schedule.PRE_UPDATE);
    final Schedule schedule = builder.build();
    assertEquals(
        "Schedule[pre-update: [[d]]; update: [[a, c], [b]]; post-update: []]", schedule.toString());
    assertEquals(List.of("d", "a", "b", "c"), schedule.systems());
  }

  @Test
  void aContextDescribesItsSystemAndStage() {
    final List<String> seen = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("move", c -> seen.add(c.toString()));
    builder.system("draw", c -> seen.add(c.toString())).in(Schedule.POST_UPDATE);
    builder.build().run();
    assertEquals(
        List.of("SystemContext[move in update]", "SystemContext[draw in post-update]"), seen);
  }

  @Test
  void timingsSummariseTheLatestRuns() {
    final Registry registry = new Registry();
    final long[] frame = {0};
    final ScheduleBuilder builder = Schedule.builder(registry).timingWindow(10);
    builder.system(
        "s",
        c -> {
          // Nine quick runs and a slow one per ten frames.
          if (9 == frame[0] % 10) {
            // Busy: a park or a sleep may return early.
            final long end = System.nanoTime() + 30_000_000;
            while (System.nanoTime() < end) {
              Thread.onSpinWait();
            }
          }
        });
    final Schedule schedule = builder.build();
    for (frame[0] = 0; frame[0] < 10; frame[0]++) {
      schedule.run();
    }
    final SystemTiming timing = schedule.timing("s");
    assertEquals("s", timing.system());
    assertEquals(Schedule.UPDATE, timing.stage());
    assertEquals(10, timing.runs());
    assertEquals(10, timing.samples());
    assertTrue(timing.p50Nanos() < 20_000_000, timing.toString());
    assertTrue(timing.p95Nanos() >= 30_000_000, timing.toString());
    assertEquals(timing.maxNanos(), timing.p95Nanos());
    assertTrue(timing.meanNanos() >= 3_000_000, timing.toString());
    assertTrue(timing.meanNanos() <= timing.maxNanos(), timing.toString());
    final SystemTiming frames = schedule.frameTiming();
    assertEquals(10, frames.runs());
    assertTrue(frames.maxNanos() >= 30_000_000, frames.toString());
    assertTrue(frames.maxNanos() < 60_000_000_000L, frames.toString());
    assertEquals(List.of(timing), schedule.timings());
  }
}
