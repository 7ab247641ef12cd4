package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Order constraints over random schedules, checked against a reference topological order, and
 * cycles refused with the cycle named.
 */
class ScheduleOrderingTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);

  /** The reference: Kahn's algorithm, lowest declaration index first, written without tricks. */
  private static List<Integer> reference(final int n, final boolean[][] before) {
    final List<Integer> order = new ArrayList<>();
    final boolean[] done = new boolean[n];
    while (order.size() < n) {
      for (int candidate = 0; candidate < n; candidate++) {
        if (done[candidate]) {
          continue;
        }
        boolean ready = true;
        for (int other = 0; other < n; other++) {
          if (!done[other] && before[other][candidate]) {
            ready = false;
          }
        }
        if (ready) {
          done[candidate] = true;
          order.add(candidate);
          break;
        }
      }
    }
    return order;
  }

  @Test
  void randomConstraintsAreRespectedOnOneAndTwoThreads() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final Random random = new Random(11);
      for (int round = 0; round < 150; round++) {
        final int n = 1 + random.nextInt(16);
        // A random DAG: edges only from a lower to a higher rank of a random permutation.
        final int[] rank = new int[n];
        final List<Integer> shuffled = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          shuffled.add(i);
        }
        Collections.shuffle(shuffled, random);
        for (int i = 0; i < n; i++) {
          rank[shuffled.get(i)] = i;
        }
        final boolean[][] before = new boolean[n][n];
        for (int a = 0; a < n; a++) {
          for (int b = 0; b < n; b++) {
            if (rank[a] < rank[b] && random.nextInt(4) == 0) {
              before[a][b] = true;
            }
          }
        }
        for (final ForkJoinPool executor : new ForkJoinPool[] {null, pool}) {
          final AtomicInteger clock = new AtomicInteger();
          final int[] started = new int[n];
          final int[] ended = new int[n];
          final List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
          final ScheduleBuilder builder = Schedule.builder(new Registry()).executor(executor);
          final List<SystemDeclaration> declarations = new ArrayList<>();
          for (int s = 0; s < n; s++) {
            final int system = s;
            declarations.add(
                builder.system(
                    "s" + s,
                    context -> {
                      started[system] = clock.incrementAndGet();
                      ran.add(system);
                      ended[system] = clock.incrementAndGet();
                    }));
          }
          // Each edge stated from one side or the other, at random.
          for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
              if (before[a][b]) {
                if (random.nextBoolean()) {
                  declarations.get(b).after("s" + a);
                } else {
                  declarations.get(a).before("s" + b);
                }
              }
            }
          }
          final Schedule schedule = builder.build();
          schedule.run();
          for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
              if (before[a][b]) {
                assertTrue(ended[a] < started[b], "s" + a + " before s" + b + " in " + schedule);
              }
            }
          }
          final List<String> expected = new ArrayList<>();
          for (final int s : reference(n, before)) {
            expected.add("s" + s);
          }
          assertEquals(expected, schedule.systems(), "the stage's order, against the reference");
          if (null == executor) {
            // One thread runs the waves in order, each in the stage's order.
            final List<String> byWave = new ArrayList<>();
            schedule.waves(Schedule.UPDATE).forEach(byWave::addAll);
            final List<String> names = new ArrayList<>();
            ran.forEach(s -> names.add("s" + s));
            assertEquals(byWave, names);
          }
        }
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aCycleIsRefusedAndNamed() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("a", c -> {}).after("c");
    builder.system("b", c -> {}).after("a");
    builder.system("c", c -> {}).after("b");
    builder.system("d", c -> {}).after("a");
    assertRefusedAsCycle(builder, "'a' -> 'b' -> 'c' -> 'a'");
  }

  @Test
  void randomCyclesAreNamedTruly() {
    final Random random = new Random(5);
    for (int round = 0; round < 200; round++) {
      final int n = 2 + random.nextInt(8);
      final boolean[][] before = new boolean[n][n];
      final ScheduleBuilder builder = Schedule.builder(new Registry());
      final List<SystemDeclaration> systems = new ArrayList<>();
      for (int s = 0; s < n; s++) {
        systems.add(builder.system("s" + s, c -> {}));
      }
      // A guaranteed cycle over a random subset, plus random edges.
      final int length = 2 + random.nextInt(n - 1);
      for (int i = 0; i < length; i++) {
        final int from = i;
        final int to = (i + 1) % length;
        before[from][to] = true;
        systems.get(to).after("s" + from);
      }
      for (int e = 0; e < n; e++) {
        final int a = random.nextInt(n);
        final int b = random.nextInt(n);
        if (a != b) {
          before[a][b] = true;
          systems.get(a).before("s" + b);
        }
      }
      final IllegalStateException refused =
          assertThrows(IllegalStateException.class, builder::build);
      final String message = refused.getMessage();
      final String cycle = message.substring(message.indexOf("make a cycle: ") + 14);
      final String[] names = cycle.split(" -> ");
      assertEquals(names[0], names[names.length - 1], message);
      for (int i = 0; i + 1 < names.length; i++) {
        final int a = Integer.parseInt(names[i].replace("'", "").substring(1));
        final int b = Integer.parseInt(names[i + 1].replace("'", "").substring(1));
        assertTrue(before[a][b], "named edge " + a + " -> " + b + " is declared: " + message);
      }
    }
  }

  @Test
  void unknownNamesAndStagesAreRefusedTogether() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("a", c -> {}).after("ghost").in("nowhere");
    builder.system("b", c -> {}).before("b");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 3 problem(s):\n"
            + "  system 'a' is in stage 'nowhere', which is not declared\n"
            + "  system 'a' is after 'ghost', which is not a declared system\n"
            + "  system 'b' names itself in before",
        refused.getMessage());
  }

  @Test
  void constraintsAcrossStagesMustAgreeWithTheStages() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("early", c -> {}).in(Schedule.PRE_UPDATE).after("late");
    builder.system("late", c -> {}).in(Schedule.POST_UPDATE);
    builder.system("fine", c -> {}).after("early");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 1 problem(s):\n"
            + "  system 'early' (stage 'pre-update') is after 'late', which runs in the later"
            + " stage 'post-update'",
        refused.getMessage());
  }

  @Test
  void aConflictOrderedOnlyThroughAThirdSystemIsAccepted() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    final List<String> ran = new ArrayList<>();
    builder.system("first", c -> ran.add("first")).writes(A);
    builder.system("middle", c -> ran.add("middle")).after("first");
    builder.system("last", c -> ran.add("last")).writes(A).after("middle");
    // 'first' and 'last' conflict; the order first -> middle -> last is enough between them.
    final Schedule schedule = builder.build();
    assertEquals(
        List.of(List.of("first"), List.of("middle"), List.of("last")),
        schedule.waves(Schedule.UPDATE));
    schedule.run();
    assertEquals(List.of("first", "middle", "last"), ran);
  }

  @Test
  void anUnorderedConflictIsRefusedWhateverOrdersTheSystemsHaveWithOthers() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("setup", c -> {}).before("y");
    builder.system("x", c -> {}).writes(A);
    builder.system("y", c -> {}).writes(A);
    builder.system("z", c -> {}).after("x");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 1 problem(s):\n"
            + "  stage 'update': systems 'x' and 'y' conflict on "
            + A.name()
            + ": both write it, and no order is declared between them: add after/before, or"
            + " ambiguousWith to run them in declaration order",
        refused.getMessage());
  }

  @Test
  void aCycleBehindADeadEndIsNamed() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    // The search from 'a' first meets 'sink', which leads nowhere, then finds the cycle.
    builder.system("a", c -> {}).before("sink", "b");
    builder.system("sink", c -> {});
    builder.system("b", c -> {}).before("c");
    builder.system("c", c -> {}).before("a");
    assertRefusedAsCycle(builder, "'a' -> 'b' -> 'c' -> 'a'");
  }

  @Test
  void aCycleAmongLaterSystemsIsNamedPastTheSystemsAlreadySearched() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    // 'p' and 'q' are searched first and hold no cycle; the search then starts again from 'q'.
    builder.system("p", c -> {}).before("q");
    builder.system("q", c -> {});
    builder.system("r", c -> {}).after("s");
    builder.system("s", c -> {}).after("r");
    assertRefusedAsCycle(builder, "'r' -> 's' -> 'r'");
  }

  @Test
  void anAmbiguityWithAnUnknownSystemOrItselfIsRefused() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("a", c -> {}).writes(A).ambiguousWith("ghost");
    builder.system("b", c -> {}).writes(A).ambiguousWith("b");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 3 problem(s):\n"
            + "  system 'a' is ambiguousWith 'ghost', which is not a declared system\n"
            + "  system 'b' names itself in ambiguousWith\n"
            + "  stage 'update': systems 'a' and 'b' conflict on "
            + A.name()
            + ": both write it, and no order is declared between them: add after/before, or"
            + " ambiguousWith to run them in declaration order",
        refused.getMessage());
  }

  @Test
  void stagesChainAndRunInDeclarationOrder() {
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder =
        Schedule.builder(new Registry()).stage("late").fixedStage("physics", 10, 1).stage("render");
    for (final String stage : List.of("render", "physics", "late", Schedule.UPDATE)) {
      builder.system("in " + stage, c -> ran.add(c.stage())).in(stage);
    }
    final Schedule schedule = builder.build();
    assertEquals(
        List.of(
            Schedule.PRE_UPDATE,
            Schedule.UPDATE,
            Schedule.POST_UPDATE,
            "late",
            "physics",
            "render"),
        schedule.stages());
    schedule.run();
    assertEquals(List.of(Schedule.UPDATE, "late", "physics", "render"), ran);
    final IllegalArgumentException twice =
        assertThrows(IllegalArgumentException.class, () -> builder.stage("late"));
    assertEquals("stage 'late' is declared already", twice.getMessage());
  }

  /** Builds and checks the refusal names exactly {@code cycle} in the update stage. */
  private static void assertRefusedAsCycle(final ScheduleBuilder builder, final String cycle) {
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 1 problem(s):\n"
            + "  stage 'update': the order constraints make a cycle: "
            + cycle,
        refused.getMessage());
  }
}
