package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Stepping a schedule, one rule per test: disabling, pausing, always-run systems, stepping a frame
 * and a system, sync points of stepped stages, re-entrancy, failures, and allocation.
 */
class ScheduleSteppingTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  private static Schedule recording(final List<String> log, final Consumer<ScheduleBuilder> more) {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("input", c -> log.add("input")).in(Schedule.PRE_UPDATE).alwaysRun();
    builder.system("move", c -> log.add("move"));
    builder.system("collide", c -> log.add("collide")).after("move");
    builder.system("render", c -> log.add("render")).in(Schedule.POST_UPDATE);
    more.accept(builder);
    return builder.build();
  }

  private static List<String> runOnce(final Schedule schedule, final List<String> log) {
    log.clear();
    schedule.run();
    return new ArrayList<>(log);
  }

  @Test
  void aDisabledSystemIsSkippedAndItsTimingSaysItDidNotRun() {
    final List<String> log = new ArrayList<>();
    final int[] asked = {0};
    final Schedule schedule =
        recording(
            log,
            b ->
                b.system("guarded", c -> log.add("guarded"))
                    .after("collide")
                    .runIf(
                        () -> {
                          asked[0]++;
                          return true;
                        }));
    assertEquals(List.of("input", "move", "collide", "guarded", "render"), runOnce(schedule, log));
    schedule.disable("collide");
    schedule.disable("guarded");
    schedule.disable("guarded");
    assertEquals(List.of("collide", "guarded"), schedule.disabled());
    assertEquals(List.of("input", "move", "render"), runOnce(schedule, log));
    assertEquals(List.of("input", "move", "render"), runOnce(schedule, log));
    assertEquals(1, asked[0], "a disabled system's condition is not asked");
    assertEquals(1, schedule.timing("collide").runs());
    assertEquals(3, schedule.timing("move").runs());
    assertEquals(3, schedule.frame(), "disabling does not stop frames");
    schedule.enable("collide");
    schedule.enable("collide");
    assertEquals(List.of("guarded"), schedule.disabled());
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
    schedule.enable("guarded");
    assertEquals(List.of(), schedule.disabled());
    assertEquals(List.of("input", "move", "collide", "guarded", "render"), runOnce(schedule, log));
  }

  @Test
  void unknownNamesAreRefusedNamingTheSystemAndListingTheKnownOnes() {
    final List<String> log = new ArrayList<>();
    final Schedule schedule = recording(log, b -> {});
    final List<Consumer<String>> calls =
        List.of(
            schedule::disable,
            schedule::enable,
            name -> schedule.alwaysRun(name, true),
            schedule::isAlwaysRun);
    for (final Consumer<String> call : calls) {
      final IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> call.accept("mvoe"));
      assertTrue(refused.getMessage().contains("'mvoe'"), refused.getMessage());
      assertTrue(
          refused.getMessage().contains("[input, move, collide, render]"), refused.getMessage());
    }
    assertEquals(List.of(), schedule.disabled());
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
  }

  @Test
  void aPausedRunRunsOnlyAlwaysRunSystemsAndDoesNotAdvanceTheFrame() {
    final List<String> log = new ArrayList<>();
    final Schedule schedule = recording(log, b -> {});
    runOnce(schedule, log);
    assertFalse(schedule.isPaused());
    schedule.pause();
    schedule.pause();
    assertTrue(schedule.isPaused());
    assertEquals(List.of("input"), runOnce(schedule, log));
    assertEquals(List.of("input"), runOnce(schedule, log));
    assertEquals(1, schedule.frame());
    assertTrue(schedule.isAlwaysRun("input"));
    assertFalse(schedule.isAlwaysRun("render"));
    schedule.alwaysRun("render", true);
    assertTrue(schedule.isAlwaysRun("render"));
    assertEquals(List.of("input", "render"), runOnce(schedule, log));
    schedule.alwaysRun("input", false);
    assertFalse(schedule.isAlwaysRun("input"));
    assertEquals(List.of("render"), runOnce(schedule, log));
    schedule.disable("render");
    assertEquals(List.of(), runOnce(schedule, log), "disabled wins over always-run");
    assertEquals(1, schedule.frame());
    assertEquals(1, schedule.timing("move").runs());
    schedule.enable("render");
    schedule.resume();
    assertFalse(schedule.isPaused());
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
    assertEquals(2, schedule.frame());
  }

  @Test
  void stepFrameRunsOneWholeFrameThenStaysPaused() {
    final List<String> log = new ArrayList<>();
    final Schedule schedule = recording(log, b -> {});
    schedule.stepFrame();
    assertTrue(schedule.isPaused(), "stepping pauses");
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
    assertEquals(1, schedule.frame());
    assertEquals(List.of("input"), runOnce(schedule, log));
    assertEquals(1, schedule.frame());
    schedule.stepFrame();
    schedule.stepFrame();
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
    assertEquals(List.of("input"), runOnce(schedule, log), "steps asked twice run once");
    assertEquals(2, schedule.frame());
  }

  @Test
  void stepSystemRunsThePlanOneSystemAtATimeAndWrapsTheFrame() {
    final List<String> log = new ArrayList<>();
    final List<Long> frames = new ArrayList<>();
    final Schedule schedule = recording(log, b -> b.system("count", c -> frames.add(c.frame())));
    final List<String> plan = new ArrayList<>();
    for (final String stage : schedule.stages()) {
      schedule.waves(stage).forEach(plan::addAll);
    }
    runOnce(schedule, log);
    schedule.pause();
    for (int i = 0; i < plan.size(); i++) {
      assertEquals(Optional.of(plan.get(i)), schedule.nextSystem());
      assertEquals(1, schedule.frame(), "the frame ends with its last step");
      schedule.stepSystem();
      final List<String> expected = new ArrayList<>(List.of("input"));
      if (!"input".equals(plan.get(i)) && !"count".equals(plan.get(i))) {
        expected.add(plan.get(i));
      }
      assertEquals(expected, runOnce(schedule, log), "step " + i);
    }
    assertEquals(2, schedule.frame());
    assertEquals(Optional.of(plan.get(0)), schedule.nextSystem());
    assertEquals(List.of(0L, 1L), frames, "systems see the number of the frame being stepped");
    // Disabled systems are stepped over; a step with none left only ends the frame.
    schedule.disable("collide");
    schedule.disable("render");
    schedule.stepSystem();
    assertEquals(List.of("input"), runOnce(schedule, log));
    schedule.stepSystem();
    assertEquals(List.of("input", "move"), runOnce(schedule, log));
    assertEquals(Optional.of("count"), schedule.nextSystem());
    schedule.disable("count");
    assertEquals(Optional.empty(), schedule.nextSystem());
    schedule.stepSystem();
    assertEquals(List.of("input"), runOnce(schedule, log));
    assertEquals(3, schedule.frame());
    assertEquals(Optional.of("input"), schedule.nextSystem());
  }

  @Test
  void resumeInTheMiddleOfAFrameRunsTheRestOfIt() {
    final List<String> log = new ArrayList<>();
    final Schedule schedule = recording(log, b -> {});
    schedule.stepSystem();
    assertEquals(List.of("input"), runOnce(schedule, log));
    schedule.stepSystem();
    assertEquals(List.of("input", "move"), runOnce(schedule, log));
    schedule.resume();
    assertEquals(List.of("input", "collide", "render"), runOnce(schedule, log));
    assertEquals(1, schedule.frame());
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
    assertEquals(2, schedule.frame());
    // stepFrame in the middle of a frame also finishes it.
    schedule.stepSystem();
    runOnce(schedule, log);
    schedule.stepFrame();
    assertEquals(List.of("input", "move", "collide", "render"), runOnce(schedule, log));
    assertEquals(3, schedule.frame());
    assertEquals(Optional.of("input"), schedule.nextSystem());
  }

  /**
   * What each system sees of the others' deferred commands, and the world after a frame, are the
   * same whether the frame runs whole or one system at a time, with or without a pool.
   */
  @Test
  void steppedSyncPointsApplyWhatAWholeFrameWouldApplyWhenItWould() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final ForkJoinPool executor : new ForkJoinPool[] {null, pool}) {
        final List<String> whole = syncObservations(executor, false);
        final List<String> stepped = syncObservations(executor, true);
        assertEquals(whole, stepped, "executor " + executor);
        assertTrue(whole.contains("check sees B after PRE_UPDATE: true"), whole.toString());
        assertTrue(whole.contains("peer sees B removed in same stage: false"), whole.toString());
      }
    } finally {
      pool.shutdown();
    }
  }

  private static List<String> syncObservations(final ForkJoinPool executor, final boolean step) {
    final Registry registry = new Registry();
    final long entity = registry.create();
    registry.emplace(entity, A, new Payload(1));
    final List<String> seen = Collections.synchronizedList(new ArrayList<>());
    final CommandBuffers perRun = new CommandBuffers(registry);
    final ScheduleBuilder builder = Schedule.builder(registry).executor(executor);
    builder
        .system("tagger", c -> c.commands().emplace(entity, B, new Payload(2)))
        .in(Schedule.PRE_UPDATE)
        .reads(A);
    builder
        .system("seer", c -> seen.add("seer sees B in same stage: " + registry.has(entity, B)))
        .in(Schedule.PRE_UPDATE)
        .reads(A)
        .after("tagger");
    builder.system(
        "check",
        c -> {
          seen.add("check sees B after PRE_UPDATE: " + registry.has(entity, B));
          c.applyAtSyncPoint(perRun);
          perRun.forRun(0).remove(entity, B);
        });
    builder
        .system(
            "peer", c -> seen.add("peer sees B removed in same stage: " + !registry.has(entity, B)))
        .after("check");
    builder
        .system("last", c -> seen.add("last sees B removed: " + !registry.has(entity, B)))
        .in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    if (step) {
      schedule.pause();
      while (schedule.frame() == 0) {
        schedule.stepSystem();
        schedule.run();
        seen.add("between steps B: " + registry.has(entity, B));
        // A paused run between steps does not apply held commands.
        schedule.run();
        seen.add("between steps B: " + registry.has(entity, B));
      }
    } else {
      schedule.run();
    }
    seen.removeIf(line -> line.startsWith("between"));
    seen.add("after the frame B: " + registry.has(entity, B));
    assertEquals(List.of(), registry.verify());
    return new ArrayList<>(seen);
  }

  @Test
  void heldCommandsWaitForTheStepThatEndsTheirStage() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("tagger", c -> c.commands().emplace(entity, B, new Payload(2)));
    builder.system("other", c -> {}).after("tagger");
    builder.system("late", c -> {}).in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    schedule.stepSystem();
    schedule.run();
    assertFalse(registry.has(entity, B), "the stage has not ended");
    schedule.run();
    assertFalse(registry.has(entity, B), "a paused run does not end it");
    schedule.stepSystem();
    schedule.run();
    assertTrue(registry.has(entity, B), "the step of the stage's last system ends it");
    // A stage whose remaining systems were disabled ends with the next step past it.
    registry.remove(entity, B);
    schedule.stepSystem();
    schedule.run();
    schedule.stepSystem();
    schedule.run();
    assertFalse(registry.has(entity, B));
    schedule.disable("other");
    assertEquals(Optional.of("late"), schedule.nextSystem());
    schedule.stepSystem();
    schedule.run();
    assertTrue(registry.has(entity, B));
    assertEquals(List.of(), registry.verify());
  }

  /** The step of a stage's last system reaches the stage's sync point: its commands apply then. */
  @Test
  void theStepOfAStagesLastSystemAppliesItsOwnCommands() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("first", c -> {});
    builder.system("last", c -> c.commands().emplace(entity, B, new Payload(2))).after("first");
    builder.system("late", c -> {}).in(Schedule.POST_UPDATE);
    final Schedule schedule = builder.build();
    schedule.stepSystem();
    schedule.run();
    assertEquals(Optional.of("last"), schedule.nextSystem());
    schedule.stepSystem();
    schedule.run();
    assertTrue(registry.has(entity, B), "applied by the step that ran it");
    assertEquals(Optional.of("late"), schedule.nextSystem());
    assertEquals(0, schedule.frame());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void controlMethodsInsideRunAreRefusedBeforeChangingAnythingAndQueriesAnswer() {
    final List<Consumer<Schedule>> controls =
        List.of(
            Schedule::pause,
            Schedule::resume,
            Schedule::stepFrame,
            Schedule::stepSystem,
            s -> s.disable("victim"),
            s -> s.enable("victim"),
            s -> s.alwaysRun("victim", true));
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final ForkJoinPool executor : new ForkJoinPool[] {null, pool}) {
        for (final Consumer<Schedule> control : controls) {
          for (final boolean inCondition : new boolean[] {false, true}) {
            final AtomicReference<Schedule> self = new AtomicReference<>();
            final List<String> answers = Collections.synchronizedList(new ArrayList<>());
            final boolean[] call = {true};
            final ScheduleBuilder builder = Schedule.builder(new Registry()).executor(executor);
            final Runnable act =
                () -> {
                  final Schedule schedule = self.get();
                  answers.add(schedule.isPaused() + " " + schedule.disabled());
                  answers.add(String.valueOf(schedule.nextSystem()));
                  if (call[0]) {
                    control.accept(schedule);
                  }
                };
            final SystemDeclaration controller =
                inCondition
                    ? builder
                        .system("controller", c -> {})
                        .runIf(
                            () -> {
                              act.run();
                              return true;
                            })
                    : builder.system("controller", c -> act.run());
            assertTrue(null != controller);
            builder.system("victim", c -> answers.add("victim ran"));
            final Schedule schedule = builder.build();
            self.set(schedule);
            final SystemFailedException failed =
                assertThrows(SystemFailedException.class, schedule::run);
            final IllegalStateException refused =
                assertInstanceOf(IllegalStateException.class, failed.getCause());
            assertTrue(refused.getMessage().contains("outside run()"), refused.getMessage());
            assertFalse(schedule.isPaused());
            assertEquals(List.of(), schedule.disabled());
            assertEquals(Optional.of("controller"), schedule.nextSystem());
            assertTrue(answers.contains("false []"), answers.toString());
            call[0] = false;
            answers.clear();
            schedule.run();
            assertTrue(answers.contains("victim ran"), "the next frame runs whole");
            assertEquals(2, schedule.frame());
          }
        }
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aSystemThatFailsInAStepLeavesTheStepStateConsistent() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final ForkJoinPool executor : new ForkJoinPool[] {null, pool}) {
        final Registry registry = new Registry();
        final long entity = registry.create();
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final boolean[] fail = {true};
        final ScheduleBuilder builder = Schedule.builder(registry).executor(executor);
        builder.system("tagger", c -> c.commands().emplace(entity, A, new Payload(1)));
        builder
            .system(
                "faulty",
                c -> {
                  log.add("faulty");
                  if (fail[0]) {
                    throw new IllegalStateException("injected");
                  }
                })
            .after("tagger");
        builder.system("after", c -> log.add("after")).after("faulty");
        builder.system("late", c -> log.add("late")).in(Schedule.POST_UPDATE);
        final Schedule schedule = builder.build();
        schedule.stepSystem();
        schedule.run();
        schedule.stepSystem();
        final SystemFailedException failed =
            assertThrows(SystemFailedException.class, schedule::run);
        assertEquals("faulty", failed.system());
        assertEquals(0, failed.frame());
        assertTrue(schedule.isPaused());
        assertEquals(Optional.of("after"), schedule.nextSystem(), "the failed step counts");
        assertEquals(0, schedule.frame());
        assertFalse(registry.has(entity, A), "the failed stage's held commands are discarded");
        log.clear();
        schedule.run();
        assertEquals(List.of(), log, "still paused");
        schedule.stepSystem();
        schedule.run();
        assertEquals(List.of("after"), log);
        schedule.stepSystem();
        schedule.run();
        assertEquals(List.of("after", "late"), log);
        assertEquals(1, schedule.frame());
        assertFalse(registry.has(entity, A));
        fail[0] = false;
        schedule.stepFrame();
        schedule.run();
        assertTrue(registry.has(entity, A));
        assertEquals(2, schedule.frame());
        // A failure in a whole-frame step ends that frame as a normal frame's failure does.
        fail[0] = true;
        schedule.stepFrame();
        assertThrows(SystemFailedException.class, schedule::run);
        assertEquals(3, schedule.frame());
        assertEquals(Optional.of("tagger"), schedule.nextSystem());
        assertEquals(List.of(), registry.verify());
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void whilePausedAFixedStageRunsOnceAndTimeDoesNotAccumulate() {
    final List<Long> steps = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.fixedStage("physics", 10, 8);
    builder.system("body", c -> steps.add(c.stepNanos())).in("physics").alwaysRun();
    final Schedule schedule = builder.build();
    schedule.pause();
    schedule.run(35);
    assertEquals(List.of(10L), steps);
    schedule.resume();
    steps.clear();
    schedule.run(5);
    assertEquals(List.of(), steps, "the paused time was not carried");
    schedule.run(5);
    assertEquals(List.of(10L), steps);
  }

  /**
   * Disabling a system, without pausing, leaves whole frames whole: a fixed-timestep stage still
   * runs the steps its elapsed time holds and carries the rest.
   */
  @Test
  void withASystemDisabledAFixedStageStillRunsItsDueSteps() {
    final List<Long> steps = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.fixedStage("physics", 10, 8);
    builder.system("body", c -> steps.add(c.stepNanos())).in("physics");
    builder.system("idle", c -> {}).in("physics");
    final Schedule schedule = builder.build();
    schedule.disable("idle");
    schedule.run(35);
    assertEquals(List.of(10L, 10L, 10L), steps);
    steps.clear();
    schedule.run(5);
    assertEquals(List.of(10L), steps, "the 5 carried and these 5 make a step");
    assertEquals(2, schedule.frame());
  }

  @Test
  void pausedAndSteppedFramesAllocateNothing() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final ForkJoinPool executor : new ForkJoinPool[] {null, pool}) {
        final Registry registry = new Registry();
        final long entity = registry.create();
        registry.emplace(entity, A, new Payload(1));
        registry.emplace(entity, B, new Payload(1));
        final ScheduleBuilder builder = Schedule.builder(registry).executor(executor);
        builder.system("a", c -> registry.get(entity, A).value++).writes(A).alwaysRun();
        builder.system("b", c -> registry.get(entity, B).value++).writes(B);
        builder
            .system("c", c -> c.commands().replace(entity, A, registry.get(entity, A)))
            .in(Schedule.POST_UPDATE)
            .reads(A);
        builder.system("d", c -> {}).after("b").writes(B);
        final Schedule schedule = builder.build();
        schedule.disable("d");
        final Runnable[] forms = {
          schedule::run,
          () -> {
            schedule.stepSystem();
            schedule.run();
          },
          () -> {
            schedule.stepFrame();
            schedule.run();
          },
        };
        schedule.pause();
        for (final Runnable form : forms) {
          for (int i = 0; i < 20_000; i++) {
            form.run();
          }
          assertEquals(0L, ScheduleRunTest.allocatedBy(form), "executor " + executor);
        }
      }
    } finally {
      pool.shutdown();
    }
  }
}
