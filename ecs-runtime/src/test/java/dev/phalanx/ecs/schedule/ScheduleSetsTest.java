package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** Named system sets: ordering, conditions, chains, and their names in the ambiguity report. */
class ScheduleSetsTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);

  private static SystemBody record(final List<String> ran) {
    return c -> {
      synchronized (ran) {
        ran.add(c.system());
      }
    };
  }

  @Test
  void aSetsOrderHoldsForEveryMemberAndSystemsMayNameSets() {
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.set("physics").after("input");
    builder.set("input");
    builder.system("render", record(ran)).after("physics");
    builder.system("collide", record(ran)).inSet("physics");
    builder.system("integrate", record(ran)).inSet("physics");
    builder.system("keys", record(ran)).inSet("input");
    builder.system("mouse", record(ran)).inSet("input");
    final Schedule schedule = builder.build();
    assertEquals(
        List.of(List.of("keys", "mouse"), List.of("collide", "integrate"), List.of("render")),
        schedule.waves(Schedule.UPDATE));
    schedule.run();
    assertEquals(List.of("keys", "mouse", "collide", "integrate", "render"), ran);
  }

  @Test
  void chainsRunSystemsAndSetsOneAfterAnother() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("c", c -> {});
    builder.system("b", c -> {});
    builder.system("a", c -> {});
    builder.set("late");
    builder.system("x", c -> {}).inSet("late");
    builder.system("y", c -> {}).inSet("late");
    builder.chain("a", "b", "c", "late");
    final Schedule schedule = builder.build();
    assertEquals(
        List.of(List.of("a"), List.of("b"), List.of("c"), List.of("x", "y")),
        schedule.waves(Schedule.UPDATE));
  }

  @Test
  void aChainedSetRunsItsMembersInDeclarationOrder() {
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final List<String> ran = new ArrayList<>();
      final ScheduleBuilder builder = Schedule.builder(new Registry()).executor(pool);
      final SystemSet steps = builder.set("steps").chain();
      builder.system("first", record(ran)).inSet("steps");
      builder.system("second", record(ran)).inSet("steps");
      builder.system("third", record(ran)).inSet("steps");
      builder.system("free", record(ran));
      assertSame(steps, builder.set("steps"), "set() returns the set declared first");
      final Schedule schedule = builder.build();
      assertEquals(
          List.of(List.of("first", "free"), List.of("second"), List.of("third")),
          schedule.waves(Schedule.UPDATE));
      schedule.run();
      ran.remove("free");
      assertEquals(List.of("first", "second", "third"), ran);
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aSetsConditionsHoldForEachMemberWithItsOwn() {
    final boolean[] paused = {false};
    final boolean[] loud = {true};
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.set("game").runIf(() -> !paused[0]);
    builder.system("move", record(ran)).inSet("game");
    builder.system("sound", record(ran)).inSet("game").runIf(() -> loud[0]);
    builder.system("menu", record(ran));
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of("move", "sound", "menu"), ran);
    ran.clear();
    loud[0] = false;
    schedule.run();
    assertEquals(List.of("move", "menu"), ran);
    ran.clear();
    loud[0] = true;
    paused[0] = true;
    schedule.run();
    assertEquals(List.of("menu"), ran);
  }

  @Test
  void theAmbiguityReportNamesSetsAndASetCanAllowIt() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.set("physics");
    builder.set("render");
    builder.system("push", c -> {}).inSet("physics").writes(A);
    builder.system("draw", c -> {}).inSet("render", "physics").reads(A);
    builder.system("log", c -> {}).reads(A);
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 2 problem(s):\n"
            + "  stage 'update': systems 'push' (in set 'physics') and 'draw' (in sets 'render',"
            + " 'physics') conflict on "
            + A.name()
            + ": one writes what the other reads, and no order is declared between them: add"
            + " after/before, or ambiguousWith to run them in declaration order\n"
            + "  stage 'update': systems 'push' (in set 'physics') and 'log' conflict on "
            + A.name()
            + ": one writes what the other reads, and no order is declared between them: add"
            + " after/before, or ambiguousWith to run them in declaration order",
        refused.getMessage());
    // Allowed against the whole set, and ordered within it: accepted.
    final ScheduleBuilder fixed = Schedule.builder(new Registry());
    fixed.set("physics").chain();
    fixed.system("push", c -> {}).inSet("physics").writes(A);
    fixed.system("draw", c -> {}).inSet("physics").reads(A);
    fixed.system("log", c -> {}).reads(A).ambiguousWith("physics");
    assertEquals(
        List.of(List.of("push"), List.of("draw", "log")), fixed.build().waves(Schedule.UPDATE));
  }

  @Test
  void setProblemsAreReportedWithTheRest() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.set("s").after("ghost").before("s");
    builder.system("a", c -> {}).inSet("nowhere", "s");
    builder.system("b", c -> {}).after("a");
    builder.set("t").before("b");
    builder.system("c", c -> {}).inSet("t").after("b");
    builder.chain("a", "phantom");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 5 problem(s):\n"
            + "  system 'a' is in set 'nowhere', which is not declared\n"
            + "  set 's' is after 'ghost', which is not a declared system or set\n"
            + "  set 's' names itself in before\n"
            + "  a chain names 'phantom', which is not a declared system or set\n"
            + "  stage 'update': the order constraints make a cycle: 'b' -> 'c' -> 'b'",
        refused.getMessage());
  }

  @Test
  void systemsAndSetsShareOneNamespace() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("x", c -> {});
    builder.set("y");
    assertThrows(IllegalArgumentException.class, () -> builder.set("x"));
    assertThrows(IllegalArgumentException.class, () -> builder.system("y", c -> {}));
  }

  @Test
  void aSetSpanningStagesOrdersOnlyWithinEachStage() {
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.set("io").after("tick");
    builder.system("tick", record(ran)).in(Schedule.PRE_UPDATE);
    builder.system("read", record(ran)).in(Schedule.PRE_UPDATE).inSet("io");
    builder.system("write", record(ran)).in(Schedule.POST_UPDATE).inSet("io");
    final Schedule schedule = builder.build();
    assertEquals(List.of(List.of("tick"), List.of("read")), schedule.waves(Schedule.PRE_UPDATE));
    schedule.run();
    assertEquals(List.of("tick", "read", "write"), ran);
    // Before a system of a later stage is an error, named per member.
    final ScheduleBuilder wrong = Schedule.builder(new Registry());
    wrong.set("io").after("late");
    wrong.system("late", c -> {}).in(Schedule.POST_UPDATE);
    wrong.system("early", c -> {}).in(Schedule.PRE_UPDATE).inSet("io");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, wrong::build);
    assertEquals(
        "cannot build the schedule: 1 problem(s):\n"
            + "  system 'early' (stage 'pre-update') is after 'late', which runs in the later"
            + " stage 'post-update'",
        refused.getMessage());
  }

  @Test
  void aSystemsSetsAreReadBackInTheOrderItJoinedThem() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.set("physics");
    builder.set("late");
    builder.system("collide", c -> {}).inSet("physics", "late").inSet("physics");
    builder.system("alone", c -> {});
    final Schedule schedule = builder.build();
    assertEquals(List.of("physics", "late"), schedule.sets("collide"));
    assertEquals(List.of(), schedule.sets("alone"));
    assertThrows(UnsupportedOperationException.class, () -> schedule.sets("alone").add("x"));
    final IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> schedule.sets("colide"));
    assertEquals("no system 'colide' in [collide, alone]", unknown.getMessage());
  }
}
