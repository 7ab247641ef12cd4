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
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the Javadoc and the guide promise and the schedule keeps: conditions that add up, every
 * problem of a plan reported at once, the documented exception types, and undeclared structural
 * changes refused whatever storage they reach and whichever system of a wave makes them.
 */
class SchedulePromisesTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> C =
      Fixtures.gamma(DeletionPolicy.SWAP_AND_POP);

  // ---------------------------------------------------------------------------------------------
  // Run conditions.
  // ---------------------------------------------------------------------------------------------

  @Test
  void everyRunIfMustHoldNotOnlyTheLast() {
    final boolean[] first = {false};
    final boolean[] second = {true};
    final int[] runs = {0};
    final int[] secondAsked = {0};
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder
        .system("gated", c -> runs[0]++)
        .runIf(() -> first[0])
        .runIf(
            c -> {
              secondAsked[0]++;
              return second[0];
            });
    final Schedule schedule = builder.build();
    schedule.run(); // first false: skipped, and the second is not asked
    assertEquals(0, runs[0]);
    assertEquals(0, secondAsked[0]);
    first[0] = true;
    schedule.run(); // both hold
    assertEquals(1, runs[0]);
    second[0] = false;
    schedule.run(); // the second does not hold
    assertEquals(1, runs[0]);
    assertEquals(2, secondAsked[0]);
    assertEquals(1, schedule.timing("gated").runs());
  }

  @Test
  void conditionsComposeWithAndOrAndNot() {
    final boolean[] x = {false};
    final boolean[] y = {false};
    final RunCondition isX = RunCondition.of(() -> x[0]);
    final RunCondition isY = c -> y[0];
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("and", c -> ran.add("and")).runIf(isX.and(isY));
    builder.system("or", c -> ran.add("or")).runIf(isX.or(isY));
    builder.system("not", c -> ran.add("not")).runIf(RunCondition.not(isX));
    builder.system("negate", c -> ran.add("negate")).runIf(isY.negate());
    final Schedule schedule = builder.build();
    for (int bits = 0; bits < 4; bits++) {
      x[0] = 0 != (bits & 1);
      y[0] = 0 != (bits & 2);
      ran.clear();
      schedule.run();
      final List<String> expected = new ArrayList<>();
      if (x[0] && y[0]) {
        expected.add("and");
      }
      if (x[0] || y[0]) {
        expected.add("or");
      }
      if (!x[0]) {
        expected.add("not");
      }
      if (!y[0]) {
        expected.add("negate");
      }
      assertEquals(expected, ran, "x " + x[0] + ", y " + y[0]);
    }
  }

  @Test
  void aConditionThrowingAtEveryKSkipsItsSystemAndStopsTheFrame() {
    final int conditions = 4;
    for (final ForkJoinPool pool : new ForkJoinPool[] {null, new ForkJoinPool(2)}) {
      try {
        for (int k = 0; k < conditions; k++) {
          final Registry registry = new Registry();
          final long entity = registry.create();
          final int failAt = k;
          final int[] asked = new int[conditions];
          final List<String> ran = new ArrayList<>();
          final RuntimeException boom = new IllegalStateException("condition " + k);
          final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
          final SystemDeclaration gated =
              builder.system(
                  "gated",
                  c -> {
                    synchronized (ran) {
                      ran.add("gated");
                    }
                  });
          for (int i = 0; i < conditions; i++) {
            final int index = i;
            gated.runIf(
                c -> {
                  asked[index]++;
                  if (index == failAt && 0 == c.frame()) {
                    throw boom;
                  }
                  return true;
                });
          }
          builder.system(
              "beside",
              c -> {
                c.commands().emplace(entity, A, new Payload(1));
                synchronized (ran) {
                  ran.add("beside");
                }
              });
          builder.system("late", c -> ran.add("late")).in(Schedule.POST_UPDATE);
          final Schedule schedule = builder.build();
          final SystemFailedException failure =
              assertThrows(SystemFailedException.class, schedule::run);
          assertEquals("gated", failure.system());
          assertSame(boom, failure.getCause());
          assertEquals(List.of("beside"), ran, "k " + k);
          for (int i = 0; i < conditions; i++) {
            assertEquals(i <= k ? 1 : 0, asked[i], "condition " + i + ", k " + k);
          }
          assertFalse(registry.has(entity, A), "the stage's commands were discarded");
          assertEquals(List.of(), registry.verify());
          // The next frame is whole: the condition that threw holds now.
          ran.clear();
          schedule.run();
          assertEquals(3, ran.size(), "k " + k + ": " + ran);
          assertTrue(registry.has(entity, A));
          assertEquals(List.of(), registry.verify());
        }
      } finally {
        if (null != pool) {
          pool.shutdown();
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // build() reports everything.
  // ---------------------------------------------------------------------------------------------

  @Test
  void buildReportsUnknownNamesCyclesAndConflictsInOneMessage() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("ghostly", c -> {}).after("ghost");
    builder.system("x", c -> {}).after("y");
    builder.system("y", c -> {}).after("x");
    builder.system("w1", c -> {}).writes(A);
    builder.system("w2", c -> {}).writes(A);
    builder.system("p", c -> {}).in(Schedule.POST_UPDATE).writes(B);
    builder.system("q", c -> {}).in(Schedule.POST_UPDATE).reads(B).before("ghost2");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 5 problem(s):\n"
            + "  system 'ghostly' is after 'ghost', which is not a declared system\n"
            + "  system 'q' is before 'ghost2', which is not a declared system\n"
            + "  stage 'update': the order constraints make a cycle: 'x' -> 'y' -> 'x'\n"
            + "  stage 'update': systems 'w1' and 'w2' conflict on "
            + A.name()
            + ": both write it, and no order is declared between them: add after/before, or"
            + " ambiguousWith to run them in declaration order\n"
            + "  stage 'post-update': systems 'p' and 'q' conflict on "
            + B.name()
            + ": one writes what the other reads, and no order is declared between them: add"
            + " after/before, or ambiguousWith to run them in declaration order",
        refused.getMessage());
  }

  @Test
  void aSystemInAnUndeclaredStageStillHasItsOtherProblemsReported() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("lost", c -> {}).in("nowhere").after("early");
    builder.system("early", c -> {}).in(Schedule.POST_UPDATE);
    builder.system("late", c -> {}).in(Schedule.PRE_UPDATE).after("early");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 2 problem(s):\n"
            + "  system 'lost' is in stage 'nowhere', which is not declared\n"
            + "  system 'late' (stage 'pre-update') is after 'early', which runs in the later"
            + " stage 'post-update'",
        refused.getMessage());
  }

  @Test
  void aRefusedPlanLeavesTheWorldAsItWas() {
    final Registry registry = new Registry();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("w1", c -> {}).writes(A);
    builder.system("w2", c -> {}).writes(A).changesStructure(B);
    assertThrows(IllegalStateException.class, builder::build);
    assertEquals(0, registry.storageCount(), "no storage created for a refused plan");
  }

  // ---------------------------------------------------------------------------------------------
  // The documented exception types.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aDeclaredResourceTheContextLacksIsAnIllegalStateException() {
    final Registry registry = new Registry();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("needy", c -> c.resource(String.class)).readsResource(String.class);
    final Schedule schedule = builder.build();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertInstanceOf(IllegalStateException.class, failure.getCause());
    assertEquals(
        "system 'needy' asked for resource java.lang.String, which it declares but the registry's"
            + " context does not hold: emplace it before the frame",
        failure.getCause().getMessage());
    registry.context().emplace(String.class, "here");
    schedule.run();
  }

  // ---------------------------------------------------------------------------------------------
  // Undeclared structural changes.
  // ---------------------------------------------------------------------------------------------

  @Test
  void anEmplaceIntoAStorageCreatedAfterBuildIsRefused() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("sneaky", c -> registry.emplace(entity, A, new Payload(1)));
    final Schedule schedule = builder.build();
    registry.storage(A); // created after build(), before the frame
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
    assertTrue(
        failure.getCause().getMessage().contains("system 'sneaky' of stage 'update'"),
        failure.getCause().getMessage());
    assertFalse(registry.has(entity, A));
    assertEquals(List.of(), registry.verify(), "nothing stays locked");
  }

  @Test
  void anEmplaceIntoAStorageCreatedDuringTheWaveIsRefused() {
    for (final ForkJoinPool pool : new ForkJoinPool[] {null, new ForkJoinPool(2)}) {
      try {
        final Registry registry = new Registry();
        final long entity = registry.create();
        final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
        // The emplace creates the storage of C, which no system declares.
        builder.system("sneaky", c -> registry.emplace(entity, C, new Payload(1))).reads(A);
        builder.system("other", c -> {}).reads(B);
        final Schedule schedule = builder.build();
        assertFalse(registry.storageCount() > 2, "C is not created by build()");
        final SystemFailedException failure =
            assertThrows(SystemFailedException.class, schedule::run);
        assertEquals("sneaky", failure.system());
        assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
        assertFalse(registry.has(entity, C));
        assertEquals(List.of(), registry.verify(), "the new storage is unlocked after the wave");
        // Outside the schedule, the storage takes changes again.
        registry.emplace(entity, C, new Payload(2));
      } finally {
        if (null != pool) {
          pool.shutdown();
        }
      }
    }
  }

  @Test
  void aSystemThatDeclaredNothingCannotChangeAStorageAnotherSystemOfItsWaveDeclared() {
    for (final ForkJoinPool pool : new ForkJoinPool[] {null, new ForkJoinPool(2)}) {
      try {
        final Registry registry = new Registry();
        final long entity = registry.create();
        final long other = registry.create();
        final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
        final CyclicBarrier both = new CyclicBarrier(2);
        builder
            .system(
                "owner",
                c -> {
                  await(both, pool);
                  c.storage(A).emplace(other, new Payload(1)); // declared: allowed
                  await(both, pool);
                })
            .changesStructure(A);
        builder.system(
            "sneaky",
            c -> {
              await(both, pool);
              try {
                registry.emplace(entity, A, new Payload(2)); // undeclared: refused
              } finally {
                await(both, pool);
              }
            });
        assertSneakyRefused(builder.build(), "system 'sneaky' of stage 'update'");
        assertTrue(registry.has(other, A), "the declaring system's change went through");
        assertFalse(registry.has(entity, A));
        assertEquals(List.of(), registry.verify());
      } finally {
        if (null != pool) {
          pool.shutdown();
        }
      }
    }
  }

  @Test
  void aParallelPassInsideASystemStillLocksWhatTheSystemDeclared() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    registry.emplace(entity, A, new Payload(1));
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system(
            "nested",
            c -> {
              // A lock the system takes itself (a parallel pass would) refuses its own change.
              c.storage(A).lock("a test pass of", "A");
              try {
                c.storage(A).remove(entity);
              } finally {
                c.storage(A).unlock();
              }
            })
        .changesStructure(A);
    final SystemFailedException failure =
        assertThrows(SystemFailedException.class, builder.build()::run);
    assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
    assertTrue(registry.has(entity, A));
    assertEquals(List.of(), registry.verify());
  }

  /** Waits for the other system on a pool; alone (no pool) there is nothing to wait for. */
  /**
   * Runs a plan of two systems sharing one wave, "owner" and "sneaky", and checks that the frame
   * failed with "sneaky"'s {@link ConcurrentModificationException}, whose message holds {@code
   * says}.
   */
  static void assertSneakyRefused(final Schedule schedule, final String says) {
    assertEquals(List.of(List.of("owner", "sneaky")), schedule.waves(Schedule.UPDATE));
    final SystemFailedException failure = assertThrows(SystemFailedException.class, schedule::run);
    assertEquals("sneaky", failure.system());
    assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
    assertTrue(failure.getCause().getMessage().contains(says), failure.getCause().getMessage());
  }

  private static void await(final CyclicBarrier barrier, final ForkJoinPool pool) {
    if (null == pool) {
      return;
    }
    try {
      barrier.await(10, TimeUnit.SECONDS);
    } catch (final Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
