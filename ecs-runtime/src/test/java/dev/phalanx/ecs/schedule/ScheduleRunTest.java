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
import dev.phalanx.ecs.Registry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** What a frame does: sync points, failures, enforcement, fixed steps, conditions, timings. */
class ScheduleRunTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  @Test
  void commandsAreAppliedAtTheSyncPointInScheduleOrder() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final List<String> seen = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    // Declared second but ordered first: its command is applied first.
    builder.system("second", c -> c.commands().emplace(entity, A, new Payload(2))).after("first");
    builder.system("first", c -> c.commands().queue(r -> seen.add("first")));
    builder
        .system("reader", c -> seen.add("A present: " + registry.storage(A).contains(entity)))
        .in(Schedule.POST_UPDATE)
        .reads(A);
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of("first", "A present: true"), seen);
    assertEquals(2, registry.get(entity, A).value);
  }

  @Test
  void aThrowingSystemStopsTheFrameAtItsWaveForEveryK() {
    for (int k = 1; k <= 12; k++) {
      final Registry registry = new Registry();
      final long[] entities = new long[8];
      registry.create(entities);
      final int[] calls = {0};
      final int failAt = k;
      final int[] laterRuns = {0};
      final ScheduleBuilder builder = Schedule.builder(registry);
      builder.system(
          "grow",
          c -> {
            for (final long e : entities) {
              c.commands().emplaceIfAbsent(e, A, new Payload(0));
            }
          });
      builder
          .system(
              "fragile",
              c -> {
                if (++calls[0] == failAt) {
                  c.commands().destroy(entities[0]);
                  throw new IllegalStateException("boom " + failAt);
                }
                registry.storage(B).emplace(entities[calls[0] % entities.length], new Payload(1));
                registry.storage(B).remove(entities[calls[0] % entities.length]);
              })
          .changesStructure(B);
      builder.system("later", c -> laterRuns[0]++).in(Schedule.POST_UPDATE);
      final Schedule schedule = builder.build();
      for (int frame = 1; frame <= 12; frame++) {
        if (frame == failAt) {
          final SystemFailedException failure =
              assertThrows(SystemFailedException.class, schedule::run);
          assertEquals("fragile", failure.system());
          assertEquals(Schedule.UPDATE, failure.stage());
          assertEquals(frame - 1, failure.frame());
          assertFalse(failure.atSyncPoint());
          assertInstanceOf(IllegalStateException.class, failure.getCause());
          // The stage's commands were discarded: the destroy, and the first frame's grow too.
          assertTrue(registry.valid(entities[0]));
          assertEquals(frame == 1 ? 0 : entities.length, registry.storage(A).size());
          assertEquals(frame - 1, laterRuns[0], "later stages did not run");
        } else {
          schedule.run();
        }
        assertEquals(List.of(), registry.verify());
      }
      assertEquals(11, laterRuns[0]);
      assertEquals(12, schedule.frame());
    }
  }

  @Test
  void failuresOfOneWaveAreReportedFirstInOrderWithTheOthersSuppressed() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final ScheduleBuilder builder = Schedule.builder(new Registry()).executor(pool);
      builder.system(
          "x",
          c -> {
            throw new IllegalArgumentException("x");
          });
      builder.system(
          "y",
          c -> {
            throw new IllegalStateException("y");
          });
      final int[] ran = {0};
      builder.system("z", c -> ran[0]++);
      final Schedule schedule = builder.build();
      assertEquals(List.of(List.of("x", "y", "z")), schedule.waves(Schedule.UPDATE));
      final SystemFailedException failure =
          assertThrows(SystemFailedException.class, schedule::run);
      assertEquals("x", failure.system());
      assertEquals(1, failure.getSuppressed().length);
      assertEquals("y", failure.getSuppressed()[0].getMessage());
      assertEquals(1, ran[0], "the rest of the wave ran");
      assertThrows(SystemFailedException.class, schedule::run);
      assertEquals(2, ran[0]);
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aFailedCommandStopsTheFrameAtTheSyncPointAfterTheOthersApply() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final ScheduleBuilder builder = Schedule.builder(registry);
    // From the second frame on, a queued action throws when applied.
    builder.system(
        "twice",
        c -> {
          if (c.frame() > 0) {
            c.commands()
                .queue(
                    r -> {
                      throw new IllegalStateException("refused");
                    });
          }
        });
    builder.system("other", c -> c.commands().emplaceIfAbsent(entity, B, new Payload(2)));
    final int[] later = {0};
    builder.system("later", c -> later[0]++).in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    schedule.run();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("twice", failure.system());
    assertTrue(failure.atSyncPoint());
    assertEquals(1, later[0]);
    assertTrue(registry.has(entity, B), "the other buffers were applied");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void anUndeclaredStructuralChangeIsRefusedAndNamesTheWave() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    registry.storage(A);
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("sneaky", c -> registry.emplace(entity, A, new Payload(1))).reads(A);
    final SystemFailedException failure =
        assertThrows(SystemFailedException.class, builder.build()::run);
    assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
    assertTrue(
        failure
            .getCause()
            .getMessage()
            .contains("the schedule (running system 'sneaky' of stage 'update'"),
        failure.getCause().getMessage());
    assertFalse(registry.has(entity, A));
    assertEquals(List.of(), registry.verify());
    // Declared, the same change goes through, and nothing stays locked after the frame.
    final ScheduleBuilder declared = Schedule.builder(registry);
    declared.system("open", c -> registry.emplace(entity, A, new Payload(1))).changesStructure(A);
    declared.build().run();
    assertTrue(registry.has(entity, A));
    registry.remove(entity, A);
  }

  @Test
  void theContextRefusesWhatWasNotDeclared() {
    final Registry registry = new Registry();
    registry.context().emplace(String.class, "hello");
    final ScheduleBuilder builder = Schedule.builder(registry);
    final Object[] got = new Object[2];
    builder
        .system(
            "declared",
            c -> {
              got[0] = c.storage(A);
              got[1] = c.resource(String.class);
            })
        .reads(A)
        .readsResource(String.class);
    builder.system("storage", c -> c.storage(B));
    builder.system("resource", c -> c.resource(String.class));
    final Schedule schedule = builder.build();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertSame(registry.storage(A), got[0]);
    assertEquals("hello", got[1]);
    assertEquals("storage", failure.system());
    assertTrue(
        failure
            .getCause()
            .getMessage()
            .startsWith(
                "system 'storage' asked for the storage of "
                    + B.name()
                    + ", which its access does not declare"),
        failure.getCause().getMessage());
    assertEquals(1, failure.getSuppressed().length);
    assertTrue(
        failure
            .getSuppressed()[0]
            .getMessage()
            .startsWith("system 'resource' asked for resource java.lang.String"));
  }

  @Test
  void fixedStagesRunTheirStepsAndDropABacklog() {
    final Registry registry = new Registry();
    final List<String> steps = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry).fixedStage("physics", 10, 3);
    builder
        .system("step", c -> steps.add(c.frame() + ":" + c.step() + ":" + c.stepNanos()))
        .in("physics");
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of("0:0:10"), steps);
    steps.clear();
    schedule.run(25);
    assertEquals(List.of("1:0:10", "1:1:10"), steps);
    steps.clear();
    // 5 left over, plus 4: not a step yet.
    schedule.run(4);
    assertEquals(List.of(), steps);
    // 9 + 100: three steps at most, the rest dropped (but the phase, 9, is kept).
    schedule.run(100);
    assertEquals(3, steps.size());
    steps.clear();
    schedule.run(1);
    assertEquals(List.of("4:0:10"), steps);
    assertThrows(IllegalArgumentException.class, () -> schedule.run(-1));
  }

  @Test
  void runConditionsAreEvaluatedBeforeTheWave() {
    final int[] runs = {0};
    final boolean[] open = {false};
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("gated", c -> runs[0]++).runIf(() -> open[0]);
    final Schedule schedule = builder.build();
    schedule.run();
    open[0] = true;
    schedule.run();
    schedule.run();
    assertEquals(2, runs[0]);
    assertEquals(2, schedule.timing("gated").runs());
    assertEquals(3, schedule.frameTiming().runs());
  }

  @Test
  void timingsCoverTheWindow() {
    final ScheduleBuilder builder = Schedule.builder(new Registry()).timingWindow(4);
    builder.system(
        "busy",
        c -> {
          final long until = System.nanoTime() + 200_000;
          while (System.nanoTime() < until) {
            Thread.onSpinWait();
          }
        });
    final Schedule schedule = builder.build();
    for (int i = 0; i < 10; i++) {
      schedule.run();
    }
    final SystemTiming timing = schedule.timing("busy");
    assertEquals(10, timing.runs());
    assertEquals(4, timing.samples());
    assertTrue(timing.p50Nanos() >= 200_000 && timing.p50Nanos() <= timing.p95Nanos());
    assertTrue(timing.p95Nanos() <= timing.maxNanos());
    assertTrue(timing.meanNanos() >= 200_000);
    assertEquals(List.of(timing.system()), List.of("busy"));
    assertEquals(1, schedule.timings().size());
  }

  @Test
  void eachSystemIsTimedWithoutTheOneBeforeIt() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("long", c -> spin(400_000)).writes(A);
    builder.system("short", c -> spin(50_000)).writes(A).after("long");
    final Schedule schedule = builder.build();
    for (int i = 0; i < 10; i++) {
      schedule.run();
    }
    final SystemTiming longer = schedule.timing("long");
    final SystemTiming shorter = schedule.timing("short");
    assertTrue(shorter.p50Nanos() >= 50_000, shorter.toString());
    assertTrue(shorter.p50Nanos() < 300_000, "includes the system before it: " + shorter);
    assertTrue(longer.p50Nanos() >= 400_000, longer.toString());
    assertTrue(schedule.frameTiming().p50Nanos() >= 450_000);
  }

  @Test
  void systemsRunUntimedWhenAsked() {
    final ScheduleBuilder builder = Schedule.builder(new Registry()).timeSystems(false);
    final int[] runs = {0};
    builder.system("counted", c -> runs[0]++);
    final Schedule schedule = builder.build();
    for (int i = 0; i < 3; i++) {
      schedule.run();
    }
    final SystemTiming timing = schedule.timing("counted");
    assertEquals(3, runs[0]);
    assertEquals(3, timing.runs());
    assertEquals(0, timing.samples());
    assertEquals(0, timing.maxNanos());
    assertEquals(3, schedule.frameTiming().samples(), "whole frames are still timed");
  }

  private static void spin(final long nanos) {
    final long until = System.nanoTime() + nanos;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
  }

  @Test
  void independentSystemsShareAWaveAndConflictingOnesDoNot() {
    final Registry registry = new Registry();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("readsA", c -> {}).reads(A);
    builder.system("readsA2", c -> {}).reads(A);
    builder.system("writesA", c -> {}).writes(A).after("readsA", "readsA2");
    builder.system("writesB", c -> {}).writes(B);
    final Schedule schedule = builder.build();
    assertEquals(
        List.of(List.of("readsA", "readsA2", "writesB"), List.of("writesA")),
        schedule.waves(Schedule.UPDATE));
  }

  @Test
  void aStructuralChangeInAnOwningGroupWidensToEveryOwnedStorage() {
    final Registry registry = new Registry();
    registry.owningGroup(A, B);
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("spawnsA", c -> {}).changesStructure(A);
    builder.system("readsB", c -> {}).reads(B).after("spawnsA");
    final Schedule schedule = builder.build();
    assertTrue(schedule.access("spawnsA").changesStructure(B));
    assertEquals(2, schedule.waves(Schedule.UPDATE).size());
    final ScheduleBuilder unordered = Schedule.builder(registry);
    unordered.system("spawnsA", c -> {}).changesStructure(A);
    unordered.system("readsB", c -> {}).reads(B);
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, unordered::build);
    assertTrue(
        refused
            .getMessage()
            .contains(
                "systems 'spawnsA' and 'readsB' conflict on "
                    + B.name()
                    + ": one changes the structure"),
        refused.getMessage());
  }

  @Test
  void aStructuralChangeOfAGroupsGetOrExcludedTypeWidensToItsOwnedStorage() {
    final Registry registry = new Registry();
    final ComponentType<Payload, ObjectStorage<Payload>> c =
        Fixtures.gamma(DeletionPolicy.SWAP_AND_POP);
    // Members have A and B and no C: adding or removing B or C moves elements of the owned A.
    registry.owningGroup(
        new ComponentType<?, ?>[] {A},
        new ComponentType<?, ?>[] {B},
        new ComponentType<?, ?>[] {c});
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("spawnsB", x -> {}).changesStructure(B);
    builder.system("spawnsC", x -> {}).changesStructure(c).after("spawnsB");
    builder.system("readsAll", x -> {}).reads(A).reads(B).reads(c).after("spawnsC");
    final Schedule schedule = builder.build();
    assertTrue(schedule.access("spawnsB").changesStructure(A), "a get type moves the owned A");
    assertTrue(
        schedule.access("spawnsC").changesStructure(A), "an excluded type moves the owned A");
    assertFalse(schedule.access("readsAll").changesStructure(A), "reading changes no structure");
    assertFalse(schedule.access("readsAll").changesStructure(B));
    // Widened, a change of C conflicts with a loop over A: unordered, the build is refused.
    final ScheduleBuilder unordered = Schedule.builder(registry);
    unordered.system("spawnsC", x -> {}).changesStructure(c);
    unordered.system("loopsA", x -> {}).iterates(A);
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, unordered::build);
    assertTrue(
        refused.getMessage().contains("systems 'spawnsC' and 'loopsA' conflict on " + A.name()),
        refused.getMessage());
  }

  @Test
  void anExclusiveSystemMayChangeAnyStorage() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    registry.emplace(entity, B, new Payload(1));
    registry.storage(A);
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system(
            "world",
            c -> {
              registry.emplace(entity, A, new Payload(2));
              registry.remove(entity, B);
              registry.destroy(registry.create());
            })
        .exclusive();
    builder.system("reader", c -> {}).reads(A).after("world");
    builder.build().run();
    assertTrue(registry.has(entity, A));
    assertFalse(registry.has(entity, B));
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aThrowingRunConditionSkipsItsSystemAndStopsTheFrame() {
    final RuntimeException boom = new IllegalStateException("condition");
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder
        .system("gated", c -> ran.add("gated"))
        .runIf(
            () -> {
              throw boom;
            });
    builder.system("beside", c -> ran.add("beside"));
    builder.system("late", c -> ran.add("late")).in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("gated", failure.system());
    assertSame(boom, failure.getCause());
    assertFalse(failure.atSyncPoint());
    assertEquals(List.of("beside"), ran, "the system did not run, the rest of its wave did");
    assertEquals(0, schedule.timing("gated").runs());
  }

  @Test
  void whenSeveralBuffersFailAtTheSyncPointTheFirstInOrderIsNamed() {
    final RuntimeException first = new IllegalStateException("first");
    final RuntimeException second = new IllegalStateException("second");
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system(
        "one",
        c ->
            c.commands()
                .queue(
                    r -> {
                      throw first;
                    }));
    builder.system("fine", c -> c.commands().create());
    builder.system(
        "two",
        c ->
            c.commands()
                .queue(
                    r -> {
                      throw second;
                    }));
    final Schedule schedule = builder.build();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("one", failure.system());
    assertTrue(failure.atSyncPoint());
    assertSame(first, failure.getCause());
    assertEquals(List.of(second), List.of(failure.getSuppressed()));
    assertEquals(1, schedule.registry().alive(), "the buffer between them was applied");
  }

  @Test
  void commandsRefusedAtTheSyncPointAreDroppedNotAppliedLater() {
    final Registry registry = new Registry();
    registry.emplace(registry.create(), A, new Payload(0));
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("spawner", c -> c.commands().create());
    final Schedule schedule = builder.build();
    // Run from inside a loop over A: the sync point may not apply commands, so it refuses them.
    final SystemFailedException[] refused = new SystemFailedException[1];
    registry
        .view(A)
        .each(entity -> refused[0] = assertThrows(SystemFailedException.class, schedule::run));
    assertEquals("spawner", refused[0].system());
    assertTrue(refused[0].atSyncPoint());
    assertInstanceOf(ConcurrentModificationException.class, refused[0].getCause());
    assertEquals(1, registry.alive());
    // The next frame applies its own command only.
    schedule.run();
    assertEquals(2, registry.alive(), "the refused frame's command was dropped");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void eachSystemsTimeLiesWithinItsFrameOnAnExecutor() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final ScheduleBuilder builder = Schedule.builder(new Registry()).executor(pool);
      builder.system("a", c -> spin(20_000)).reads(A);
      builder.system("b", c -> spin(20_000)).reads(B);
      builder.system("after", c -> spin(20_000)).writes(A).writes(B).after("a", "b");
      final Schedule schedule = builder.build();
      assertEquals(List.of(List.of("a", "b"), List.of("after")), schedule.waves(Schedule.UPDATE));
      for (int i = 0; i < 5; i++) {
        schedule.run();
      }
      final SystemTiming frames = schedule.frameTiming();
      for (final SystemTiming timing : schedule.timings()) {
        assertEquals(5, timing.runs(), timing.toString());
        assertEquals(5, timing.samples(), timing.toString());
        assertTrue(timing.p50Nanos() >= 20_000, timing.toString());
        // Each run lies within its frame, whichever thread ran it.
        assertTrue(timing.maxNanos() <= frames.maxNanos(), timing + " within " + frames);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aTimingWindowOfOneKeepsTheLatestRunAndNoneIsRefused() {
    final ScheduleBuilder builder = Schedule.builder(new Registry()).timingWindow(1);
    builder.system("s", c -> {});
    final Schedule schedule = builder.build();
    for (int i = 0; i < 3; i++) {
      schedule.run();
    }
    final SystemTiming timing = schedule.timing("s");
    assertEquals(3, timing.runs());
    assertEquals(1, timing.samples());
    assertEquals(timing.maxNanos(), timing.p50Nanos());
    final IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class, () -> Schedule.builder(new Registry()).timingWindow(0));
    assertEquals("the timing window must hold at least 1 run: 0", refused.getMessage());
  }

  @Test
  void percentilesRankTheWindowWhateverTheOrderOfRuns() {
    final Schedule.Timing timing = new Schedule.Timing(5);
    // Seven runs into a window of five: 70 and 50 are overwritten by the latest two.
    for (final long nanos : new long[] {70, 50, 10, 40, 20, 30, 60}) {
      timing.record(nanos);
    }
    assertEquals(
        new SystemTiming("s", "update", 7, 5, 32.0, 30, 60, 60),
        timing.summary("s", "update", null));
  }

  @Test
  void aFixedStageNeedsAPositiveStepAndStepCount() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    final IllegalArgumentException noStep =
        assertThrows(IllegalArgumentException.class, () -> builder.fixedStage("physics", 0, 3));
    assertEquals(
        "fixed stage 'physics': the step (0 ns) and the most steps per frame (3) must be positive",
        noStep.getMessage());
    final IllegalArgumentException noSteps =
        assertThrows(IllegalArgumentException.class, () -> builder.fixedStage("physics", 10, 0));
    assertEquals(
        "fixed stage 'physics': the step (10 ns) and the most steps per frame (0) must be positive",
        noSteps.getMessage());
    assertEquals(
        List.of(Schedule.PRE_UPDATE, Schedule.UPDATE, Schedule.POST_UPDATE),
        builder.build().stages());
    // The smallest accepted: a 1 ns step, one step per frame.
    final int[] steps = {0};
    builder.fixedStage("physics", 1, 1).system("step", c -> steps[0]++).in("physics");
    builder.build().run(5);
    assertEquals(1, steps[0]);
  }

  @Test
  void runIsNotReentrant() {
    final Schedule[] self = new Schedule[1];
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("again", c -> self[0].run());
    self[0] = builder.build();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, self[0]::run);
    assertInstanceOf(IllegalStateException.class, failure.getCause());
  }

  @Test
  void aFrameInSteadyStateAllocatesNothing() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (int form = 0; form < 4; form++) {
        final ForkJoinPool executor = form % 2 == 0 ? null : pool;
        final boolean timed = form < 2;
        final Registry registry = new Registry();
        final long entity = registry.create();
        registry.emplace(entity, A, new Payload(1));
        registry.emplace(entity, B, new Payload(1));
        final ScheduleBuilder builder =
            Schedule.builder(registry).executor(executor).timeSystems(timed);
        builder.system("a", c -> registry.get(entity, A).value++).writes(A);
        builder.system("b", c -> registry.get(entity, B).value++).writes(B);
        builder
            .system("c", c -> c.commands().replace(entity, A, registry.get(entity, A)))
            .in(Schedule.POST_UPDATE)
            .reads(A);
        // Conditions that look at what changed, and a system permitted a structural change.
        builder
            .system("d", c -> {})
            .in(Schedule.POST_UPDATE)
            .runIf(
                RunCondition.componentsChanged(A)
                    .or(RunCondition.resourceChanged(String.class))
                    .or(RunCondition.anyWithComponent(B)));
        builder.system("e", c -> {}).in(Schedule.PRE_UPDATE).changesStructure(B);
        final Schedule schedule = builder.build();
        assertEquals(List.of(List.of("a", "b")), schedule.waves(Schedule.UPDATE));
        for (int i = 0; i < 20_000; i++) {
          schedule.run();
        }
        assertEquals(0L, allocatedBy(schedule::run), "executor " + executor + ", timed " + timed);
      }
    } finally {
      pool.shutdown();
    }
  }

  /** {@return the least bytes 50 runs of {@code frame} allocated on this thread, of 5 tries} */
  static long allocatedBy(final Runnable frame) {
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long start = threads.getThreadAllocatedBytes(id);
      final long overhead = threads.getThreadAllocatedBytes(id) - start;
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 50; i++) {
        frame.run();
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before - overhead);
    }
    return least;
  }
}
