package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** Run conditions that read the world: resources, storages, and what changed since a system ran. */
class ScheduleConditionsTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);

  /** A resource. */
  static final class Score {
    int points;
  }

  @Test
  void resourceChangedSeesWritersAndOutsideChanges() {
    final Registry registry = new Registry();
    registry.context().emplace(Score.class, new Score());
    final boolean[] write = {false};
    final List<Long> reads = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system("writer", c -> c.resource(Score.class).points++)
        .in(Schedule.PRE_UPDATE)
        .writesResource(Score.class)
        .runIf(() -> write[0]);
    builder
        .system("reader", c -> reads.add(c.frame()))
        .readsResource(Score.class)
        .runIf(RunCondition.resourceChanged(Score.class));
    final Schedule schedule = builder.build();
    schedule.run(); // frame 0: first run, the resource exists: changed
    schedule.run(); // frame 1: nothing since
    write[0] = true;
    schedule.run(); // frame 2: the writer ran
    write[0] = false;
    schedule.run(); // frame 3: nothing
    registry.context().insertOrAssign(Score.class, new Score()); // replaced between frames
    schedule.run(); // frame 4
    schedule.run(); // frame 5: nothing
    registry.context().erase(Score.class); // removed: a change too
    schedule.run(); // frame 6
    assertEquals(List.of(0L, 2L, 4L, 6L), reads);
  }

  @Test
  void aSystemDoesNotSeeItsOwnWritesAsAChange() {
    final Registry registry = new Registry();
    registry.context().emplace(Score.class, new Score());
    final int[] runs = {0};
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system("loop", c -> runs[0]++)
        .writesResource(Score.class)
        .runIf(RunCondition.resourceChanged(Score.class));
    final Schedule schedule = builder.build();
    for (int i = 0; i < 5; i++) {
      schedule.run();
    }
    assertEquals(1, runs[0], "its first run only");
  }

  @Test
  void componentsChangedSeesDeclaredSystemsAndCommandsButNotQuietFrames() {
    for (final ForkJoinPool pool : new ForkJoinPool[] {null, new ForkJoinPool(2)}) {
      try {
        final Registry registry = new Registry();
        final long entity = registry.create();
        final int[] mode = {0};
        final List<Long> seen = new ArrayList<>();
        final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
        builder
            .system(
                "commands",
                c -> {
                  if (1 == mode[0]) {
                    c.commands().emplace(entity, A, new Payload(1));
                  } else if (2 == mode[0]) {
                    c.commands().remove(entity, A);
                  }
                })
            .in(Schedule.PRE_UPDATE);
        builder
            .system("grower", c -> c.storage(A).get(entity).value++)
            .in(Schedule.PRE_UPDATE)
            .writes(A)
            .runIf(() -> 3 == mode[0]);
        builder
            .system("watcher", c -> seen.add(c.frame()))
            .runIf(RunCondition.componentsChanged(A));
        final Schedule schedule = builder.build();
        schedule.run(); // frame 0: first run, A empty: not changed
        mode[0] = 1;
        schedule.run(); // frame 1: a command emplaced A (seen at the next stage's start)
        mode[0] = 0;
        schedule.run(); // frame 2: quiet
        mode[0] = 3;
        schedule.run(); // frame 3: a system that declares writing A ran
        mode[0] = 2;
        schedule.run(); // frame 4: a command removed A
        mode[0] = 0;
        schedule.run(); // frame 5: quiet
        registry.emplace(entity, A, new Payload(9)); // between frames
        schedule.run(); // frame 6
        assertEquals(List.of(1L, 3L, 4L, 6L), seen, "pool " + pool);
      } finally {
        if (null != pool) {
          pool.shutdown();
        }
      }
    }
  }

  /**
   * A command's change is seen even when the last system to run before the schedule's previous look
   * was a declared writer of the type: that writer ran before the look, so the change the next look
   * finds is not its own.
   */
  @Test
  void aCommandsChangeIsSeenWhenADeclaredWriterRanJustBeforeTheLook() {
    final Registry registry = new Registry();
    final long first = registry.create();
    final long second = registry.create();
    registry.emplace(first, A, new Payload(0));
    final List<Long> seen = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system("writer", c -> c.storage(A).get(first).value++)
        .in(Schedule.PRE_UPDATE)
        .writes(A)
        .runIf(c -> 0 == c.frame());
    builder.system("watcher", c -> seen.add(c.frame())).runIf(RunCondition.componentsChanged(A));
    builder.system(
        "commands",
        c -> {
          if (0 == c.frame()) {
            c.commands().emplace(second, A, new Payload(1));
          }
        });
    final Schedule schedule = builder.build();
    schedule.run(); // frame 0: first run; the command emplaces after the watcher ran
    schedule.run(); // frame 1: the command's change, seen at the post-update stage's start
    schedule.run(); // frame 2: quiet
    assertEquals(List.of(0L, 1L), seen);
  }

  /** A system that changes the structure it declares does not see its own change next frame. */
  @Test
  void aSystemDoesNotSeeItsOwnStructuralChangesAsAChange() {
    final Registry registry = new Registry();
    final long[] entities = new long[6];
    registry.create(entities);
    registry.emplace(entities[0], A, new Payload(0));
    final int[] runs = {0};
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system("grower", c -> c.storage(A).emplace(entities[++runs[0]], new Payload(runs[0])))
        .changesStructure(A)
        .runIf(RunCondition.componentsChanged(A));
    final Schedule schedule = builder.build();
    for (int i = 0; i < 5; i++) {
      schedule.run();
    }
    assertEquals(1, runs[0], "its first run only");
    assertEquals(2, registry.storage(A).size());
  }

  /**
   * A type with no storage yet has not changed; its storage's creation by a command is a change.
   */
  @Test
  void aTypeWithoutAStorageHasNotChangedUntilOneIsMade() {
    final ComponentType<Payload, ObjectStorage<Payload>> absent =
        Fixtures.gamma(DeletionPolicy.SWAP_AND_POP);
    final Registry registry = new Registry();
    final long entity = registry.create();
    final List<Long> seen = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system(
            "spawner",
            c -> {
              if (1 == c.frame()) {
                c.commands().emplace(entity, absent, new Payload(1));
              }
            })
        .in(Schedule.PRE_UPDATE);
    builder
        .system("watcher", c -> seen.add(c.frame()))
        .runIf(RunCondition.componentsChanged(absent));
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(null, registry.findStorage(absent));
    schedule.run();
    schedule.run();
    assertEquals(List.of(1L), seen);
  }

  @Test
  void conditionsReadResourcesAndStorages() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system("exists", c -> ran.add("exists"))
        .runIf(RunCondition.resourceExists(Score.class));
    builder
        .system("rich", c -> ran.add("rich"))
        .runIf(RunCondition.resource(Score.class, score -> score.points > 10));
    builder.system("any", c -> ran.add("any")).runIf(RunCondition.anyWithComponent(B));
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of(), ran);
    final Score score = registry.context().emplace(Score.class, new Score());
    registry.emplace(entity, B, new Payload(1));
    schedule.run();
    assertEquals(List.of("exists", "any"), ran);
    ran.clear();
    score.points = 11;
    final long other = registry.create();
    registry.emplace(other, B, new Payload(2));
    registry.remove(entity, B); // in place: a tombstone stays before the live element
    schedule.run();
    assertEquals(List.of("exists", "rich", "any"), ran);
    ran.clear();
    registry.remove(other, B); // only tombstones left
    assertTrue(registry.storage(B).size() > 0);
    schedule.run();
    assertEquals(List.of("exists", "rich"), ran);
  }

  @Test
  void aBodyAsksWhatChangedSinceItsRunBefore() {
    final Registry registry = new Registry();
    registry.context().emplace(Score.class, new Score());
    final List<Boolean> answers = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder
        .system("writer", c -> c.resource(Score.class).points++)
        .in(Schedule.PRE_UPDATE)
        .writesResource(Score.class)
        .runIf(c -> 1 != c.frame());
    builder.system("asker", c -> answers.add(c.resourceChanged(Score.class)));
    final Schedule schedule = builder.build();
    schedule.run(); // first run: the resource is there (and the writer ran before it)
    schedule.run(); // the writer did not run since the asker's run before this one
    schedule.run(); // the writer ran again, earlier in this frame
    assertEquals(List.of(true, false, true), answers);
  }

  @Test
  void aWorldConditionThrowingAtFrameKStopsThatFrameOnlyAndChangesAreStillSeen() {
    for (int k = 0; k < 5; k++) {
      final Registry registry = new Registry();
      registry.context().emplace(Score.class, new Score());
      final int failAt = k;
      final RuntimeException boom = new IllegalStateException("frame " + k);
      final List<Long> reads = new ArrayList<>();
      final ScheduleBuilder builder = Schedule.builder(registry);
      builder
          .system("writer", c -> c.resource(Score.class).points++)
          .in(Schedule.PRE_UPDATE)
          .writesResource(Score.class)
          .runIf(c -> 0 == c.frame() % 2);
      builder
          .system("reader", c -> reads.add(c.frame()))
          .readsResource(Score.class)
          .runIf(
              RunCondition.resourceChanged(Score.class)
                  .or(
                      c -> {
                        if (c.frame() == failAt) {
                          throw boom;
                        }
                        return false;
                      }));
      final Schedule schedule = builder.build();
      final List<Long> expected = new ArrayList<>();
      boolean pending = false;
      for (long frame = 0; frame < 6; frame++) {
        pending |= 0 == frame % 2; // the writer runs in even frames
        // A change makes the condition hold before the throwing part is asked.
        final boolean throwsNow = !pending && frame == failAt;
        if (throwsNow) {
          final SystemFailedException failure =
              assertThrows(SystemFailedException.class, schedule::run);
          assertSame(boom, failure.getCause());
          assertEquals("reader", failure.system());
        } else {
          schedule.run();
          if (pending) {
            expected.add(frame);
            pending = false;
          }
        }
      }
      assertEquals(expected, reads, "k " + k);
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void plainBooleanSuppliersStillWork() {
    final boolean[] on = {false};
    final int[] runs = {0};
    final ScheduleBuilder builder = Schedule.builder(new Registry());
    builder.system("plain", c -> runs[0]++).runIf(() -> on[0]);
    final Schedule schedule = builder.build();
    schedule.run();
    on[0] = true;
    schedule.run();
    assertEquals(1, runs[0]);
  }
}
