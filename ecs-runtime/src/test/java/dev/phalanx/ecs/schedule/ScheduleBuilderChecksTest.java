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
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link ScheduleBuilder#build()} reports, in the cases the other schedule tests leave out: a
 * system before one of an earlier stage (the first stage included), a builder built again, a
 * conflict with a system that a cycle holds back; and the wave a lock message names.
 */
class ScheduleBuilderChecksTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  /**
   * A system before one of an earlier stage is refused, the first stage (index 0) included; before
   * one of a later stage is fine; before one whose stage is not declared is reported once, as the
   * undeclared stage, not as an order against the stages.
   */
  @Test
  void aSystemBeforeOneOfAnEarlierStageIsRefused() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("early", c -> {}).in(Schedule.PRE_UPDATE);
    builder.system("late", c -> {}).before("early");
    builder.system("lost", c -> {}).in("nowhere");
    builder.system("sure", c -> {}).in(Schedule.POST_UPDATE).before("lost");
    builder.system("fine", c -> {}).in(Schedule.PRE_UPDATE).before("late");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 2 problem(s):\n"
            + "  system 'lost' is in stage 'nowhere', which is not declared\n"
            + "  system 'late' (stage 'update') is before 'early', which runs in the earlier"
            + " stage 'pre-update'",
        refused.getMessage());
  }

  /** Before a system of a middle stage, from a later one: refused the same way. */
  @Test
  void aSystemBeforeOneOfAMiddleStageIsRefused() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("middle", c -> {});
    builder.system("last", c -> {}).in(Schedule.POST_UPDATE).before("middle");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 1 problem(s):\n"
            + "  system 'last' (stage 'post-update') is before 'middle', which runs in the earlier"
            + " stage 'update'",
        refused.getMessage());
  }

  /**
   * A builder may be built again (after more declarations, say): each build works the constraints
   * out afresh, so a problem is reported once however many builds came before, whether it comes
   * from a system's own after/before, a set's or a chain.
   */
  @Test
  void aBuilderBuiltAgainReportsEachProblemOnce() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("early", c -> {}).in(Schedule.PRE_UPDATE).after("late");
    builder.system("late", c -> {}).in(Schedule.POST_UPDATE).before("middle");
    builder.system("middle", c -> {});
    builder.set("s").before("first");
    builder.system("setMember", c -> {}).in(Schedule.POST_UPDATE).inSet("s");
    builder.system("first", c -> {}).in(Schedule.PRE_UPDATE);
    builder.system("chained", c -> {}).in(Schedule.POST_UPDATE);
    builder.chain("chained", "first");
    final String expected =
        "cannot build the schedule: 4 problem(s):\n"
            + "  system 'early' (stage 'pre-update') is after 'late', which runs in the later"
            + " stage 'post-update'\n"
            + "  system 'late' (stage 'post-update') is before 'middle', which runs in the earlier"
            + " stage 'update'\n"
            + "  system 'setMember' (stage 'post-update') is before 'first', which runs in the"
            + " earlier stage 'pre-update'\n"
            + "  system 'chained' (stage 'post-update') is before 'first', which runs in the"
            + " earlier stage 'pre-update'";
    for (int build = 0; build < 3; build++) {
      final IllegalStateException refused =
          assertThrows(IllegalStateException.class, builder::build);
      assertEquals(expected, refused.getMessage(), "build " + build);
    }
    // A later declaration is taken into account; the earlier ones still once each.
    builder.system("more", c -> {}).in(Schedule.PRE_UPDATE).after("middle");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        expected.replace("4 problem(s)", "5 problem(s)")
            + "\n  system 'more' (stage 'pre-update') is after 'middle', which runs in the later"
            + " stage 'update'",
        refused.getMessage());
  }

  /**
   * A builder fixed after a refusal builds, and the schedule it builds is the one a new builder
   * with the same declarations builds.
   */
  @Test
  void aBuilderFixedAfterARefusalBuildsTheSameScheduleAsANewOne() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("w1", c -> {}).writes(A);
    builder.system("w2", c -> {}).writes(A).after("w3");
    builder.system("r", c -> {}).reads(A).ambiguousWith("w1", "w2", "w3");
    assertThrows(IllegalStateException.class, builder::build);
    builder.system("w3", c -> {}).writes(A).after("w1");
    builder.system("r2", c -> {}).reads(B);
    final Schedule again = builder.build();
    final ScheduleBuilder fresh = Schedule.builder(new Registry());
    fresh.system("w1", c -> {}).writes(A);
    fresh.system("w2", c -> {}).writes(A).after("w3");
    fresh.system("r", c -> {}).reads(A).ambiguousWith("w1", "w2", "w3");
    fresh.system("w3", c -> {}).writes(A).after("w1");
    fresh.system("r2", c -> {}).reads(B);
    assertEquals(fresh.build().waves(Schedule.UPDATE), again.waves(Schedule.UPDATE));
    assertEquals(
        List.of(List.of("w1", "r2"), List.of("r"), List.of("w3"), List.of("w2")),
        again.waves(Schedule.UPDATE));
  }

  /**
   * The systems a cycle holds back are still checked for conflicts, each pair once: here 'y', on
   * the cycle, writes what 'free', placed before it, writes.
   */
  @Test
  void aConflictWithASystemHeldBackByACycleIsReportedOnce() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("free", c -> {}).writes(A);
    builder.system("x", c -> {}).after("y");
    builder.system("y", c -> {}).after("x").writes(A);
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 2 problem(s):\n"
            + "  stage 'update': the order constraints make a cycle: 'x' -> 'y' -> 'x'\n"
            + "  stage 'update': systems 'free' and 'y' conflict on "
            + A.name()
            + ": both write it, and no order is declared between them: add after/before, or"
            + " ambiguousWith to run them in declaration order",
        refused.getMessage());
  }

  /**
   * Of two cycles held back behind a free system, the message names the one found first, from the
   * first system on a cycle, each system once; the other's systems are still checked for conflicts.
   * A cycle through the first system is found from it.
   */
  @Test
  void theCycleNamedIsTheFirstFoundInDeclarationOrder() {
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("free", c -> {});
    builder.system("p", c -> {}).after("q").writes(B);
    builder.system("q", c -> {}).after("r");
    builder.system("r", c -> {}).after("p");
    builder.system("u", c -> {}).after("v").writes(B);
    builder.system("v", c -> {}).after("u");
    final IllegalStateException refused = assertThrows(IllegalStateException.class, builder::build);
    assertEquals(
        "cannot build the schedule: 2 problem(s):\n"
            + "  stage 'update': the order constraints make a cycle: 'p' -> 'r' -> 'q' -> 'p'\n"
            + "  stage 'update': systems 'p' and 'u' conflict on "
            + B.name()
            + ": both write it, and no order is declared between them: add after/before, or"
            + " ambiguousWith to run them in declaration order",
        refused.getMessage());

    final ScheduleBuilder first = Schedule.builder(new Registry());
    first.system("a", c -> {}).after("b");
    first.system("b", c -> {}).after("a");
    first.system("c", c -> {});
    final IllegalStateException cycle = assertThrows(IllegalStateException.class, first::build);
    assertEquals(
        "cannot build the schedule: 1 problem(s):\n"
            + "  stage 'update': the order constraints make a cycle: 'a' -> 'b' -> 'a'",
        cycle.getMessage());
  }

  /**
   * An undeclared structural change from a system names the system and its whole wave, in order;
   * one from a thread the wave's systems do not run on names the wave's systems.
   */
  @Test
  void aLockMessageNamesTheWaveItsSystemsAndTheSystemRunning() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    registry.storage(A);
    final Throwable[] fromOtherThread = {null};
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system("calm", c -> {}).reads(B);
    builder.system("sneaky", c -> registry.emplace(entity, A, new Payload(1))).reads(A);
    builder.system("third", c -> {}).reads(B);
    final SystemFailedException failure =
        assertThrows(SystemFailedException.class, builder.build()::run);
    assertInstanceOf(ConcurrentModificationException.class, failure.getCause());
    final String message = failure.getCause().getMessage();
    assertTrue(
        message.contains(
            "the schedule (running system 'sneaky' of stage 'update', in wave [calm, sneaky,"
                + " third]: a system changes the structure only of the storages it declares"),
        message);

    final ScheduleBuilder other = Schedule.builder(registry);
    other.system("alone", c -> {}).reads(B);
    other.system(
        "spawner",
        c -> {
          final Thread thread =
              new Thread(
                  () -> {
                    try {
                      registry.emplace(entity, A, new Payload(2));
                    } catch (final RuntimeException thrown) {
                      fromOtherThread[0] = thrown;
                    }
                  });
          thread.start();
          try {
            thread.join();
          } catch (final InterruptedException interrupted) {
            Thread.currentThread().interrupt();
          }
        });
    other.build().run();
    assertInstanceOf(ConcurrentModificationException.class, fromOtherThread[0]);
    final String fromThread = fromOtherThread[0].getMessage();
    assertTrue(
        fromThread.contains(
            "the schedule (running systems [alone, spawner] of stage 'update': a system changes"),
        fromThread);
    assertFalse(registry.has(entity, A));
    assertEquals(List.of(), registry.verify());
  }
}
