package dev.phalanx.examples.docs.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffers;
import dev.phalanx.ecs.schedule.RunCondition;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import dev.phalanx.ecs.schedule.ScheduleState;
import dev.phalanx.ecs.schedule.SystemContext;
import dev.phalanx.ecs.schedule.SystemFailedException;
import dev.phalanx.ecs.schedule.SystemTiming;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.ecs.snapshot.ValueCodec;
import dev.phalanx.examples.docs.quickstart.Asleep_Traits;
import dev.phalanx.examples.docs.quickstart.MovingQuery;
import dev.phalanx.examples.docs.quickstart.Position_Storage;
import dev.phalanx.examples.docs.quickstart.Position_Traits;
import dev.phalanx.examples.docs.quickstart.Velocity_Storage;
import dev.phalanx.examples.docs.quickstart.Velocity_Traits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The guide's "Systems and schedules" section (docs/guide.md), compiled and run. */
class SchedulesGuideTest {

  /** A resource: the frame's score, kept in the registry's context. */
  static final class Score {
    int asleep;
  }

  private static Registry world(final int entities) {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < entities; i++) {
      final long e = registry.create();
      positions.emplace(e, i, 0f);
      velocities.emplace(e, 1f, 0f);
    }
    return registry;
  }

  @Test
  void aFrameOfThreeSystems() {
    final Registry registry = world(1_000);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      // tag::schedule[]
      final MovingQuery moving = MovingQuery.of(registry); // declare groups before build()
      final PlacedQuery placed = PlacedQuery.of(registry);
      registry.context().emplace(Score.class, new Score());
      final ScheduleBuilder plan = Schedule.builder(registry).executor(pool);
      plan.system(
              "move",
              context ->
                  moving.eachChunk(
                      (from, to, x, y, dx, dy) -> {
                        for (int i = from; i < to; i++) {
                          x[i] += dx[i];
                        }
                      }))
          .uses(moving); // writes Position and Velocity, iterates them and Asleep
      plan.system(
              "sleep",
              context ->
                  placed.each(
                      (entity, position) -> {
                        if (position.x() >= 1_000) {
                          context.commands().emplace(entity, Asleep_Traits.TYPE); // at the sync
                        }
                      }))
          .uses(placed) // reads Position
          .after("move"); // it reads what "move" writes: an order is required
      plan.system("count", context -> context.resource(Score.class).asleep = sleeping(context))
          .in(Schedule.POST_UPDATE) // after the update stage's sync point
          .reads(Asleep_Traits.TYPE)
          .writesResource(Score.class);
      final Schedule schedule = plan.build(); // checks order and conflicts, once
      schedule.run(); // one frame: stage by stage, wave by wave, sync points between
      // end::schedule[]
      assertEquals(1, registry.context().get(Score.class).asleep);
      schedule.run();
      assertEquals(2, registry.context().get(Score.class).asleep);
      assertEquals(List.of(List.of("move"), List.of("sleep")), schedule.waves(Schedule.UPDATE));
      assertEquals(List.of(), registry.verify());
    } finally {
      pool.shutdown();
    }
  }

  private static int sleeping(final SystemContext context) {
    return context.storage(Asleep_Traits.TYPE).size();
  }

  @Test
  void conflictsAreReportedBeforeTheFirstFrame() {
    final Registry registry = world(10);
    final MovingQuery moving = MovingQuery.of(registry);
    final PlacedQuery placed = PlacedQuery.of(registry);
    // tag::conflict[]
    final ScheduleBuilder plan = Schedule.builder(registry);
    plan.system("move", context -> moving.each((e, position, velocity) -> {})).uses(moving);
    plan.system("draw", context -> placed.each((e, position) -> {})).uses(placed);
    final IllegalStateException refused = assertThrows(IllegalStateException.class, plan::build);
    // "draw" reads Position, which "move" writes, and nothing orders them. Either order them,
    // plan.system(...).after("move"), or allow the race: plan.system(...).ambiguousWith("move")
    // runs them one after the other, in declaration order.
    // end::conflict[]
    assertTrue(refused.getMessage().contains("'move'"), refused.getMessage());
    assertTrue(refused.getMessage().contains("'draw'"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Position_Traits.TYPE.name()), refused.getMessage());
  }

  @Test
  void perRunBuffersAreAppliedAtTheSyncPoint() {
    final Registry registry = world(3_000);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      // tag::commands[]
      final OwningGroup group = registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
      final CommandBuffers perRun = new CommandBuffers(registry);
      final ScheduleBuilder plan = Schedule.builder(registry);
      plan.system(
              "sleep",
              context -> {
                perRun.parallelEachChunk(
                    group,
                    pool,
                    (commands, entities, from, to) -> {
                      for (int i = from; i < to; i++) {
                        commands.emplace(entities[i], Asleep_Traits.TYPE); // one buffer per run
                      }
                    });
                context.applyAtSyncPoint(perRun); // applied at the sync point, in run order
              })
          .reads(Position_Traits.TYPE)
          .iterates(Position_Traits.TYPE)
          .iterates(Velocity_Traits.TYPE);
      plan.build().run();
      // end::commands[]
      assertEquals(3_000, registry.storage(Asleep_Traits.TYPE).size());
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void setsAndChains() {
    final boolean[] paused = {false};
    final ScheduleBuilder plan = Schedule.builder(new Registry());
    plan.system("sound", context -> {});
    plan.system("music", context -> {});
    // tag::sets[]
    plan.set("input");
    plan.set("physics").after("input").runIf(() -> !paused[0]); // every member, after every input
    plan.system("keys", context -> {}).inSet("input");
    plan.system("collide", context -> {}).inSet("physics");
    plan.system("integrate", context -> {}).inSet("physics");
    plan.system("render", context -> {}).after("physics"); // after both members
    plan.chain("sound", "music"); // "music" after "sound"
    // end::sets[]
    final Schedule schedule = plan.build();
    assertEquals(
        List.of(
            List.of("sound", "keys"), List.of("music", "collide", "integrate"), List.of("render")),
        schedule.waves(Schedule.UPDATE));
  }

  @Test
  void stepping() {
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder plan = Schedule.builder(new Registry());
    plan.system("input", context -> ran.add("input"));
    plan.system("ai", context -> ran.add("ai")).after("input");
    plan.system("move", context -> ran.add("move")).after("ai");
    plan.system("render", context -> ran.add("render")).after("move");
    final Schedule schedule = plan.build();
    // tag::stepping[]
    schedule.alwaysRun("render", true);
    schedule.pause(); // run() now runs "render" only; frame() stands still
    schedule.stepSystem();
    schedule.run(); // runs nextSystem(), then "render"
    schedule.disable("ai"); // never stepped onto, never run
    schedule.stepFrame();
    schedule.run(); // the rest of the frame; frame() advances by one
    schedule.resume();
    // end::stepping[]
    assertEquals(List.of("input", "render", "move", "render"), ran);
    assertEquals(1, schedule.frame());
    assertEquals(List.of("ai"), schedule.disabled());
    ran.clear();
    schedule.run();
    assertEquals(List.of("input", "move", "render"), ran);
  }

  @Test
  void conditionsThatSeeTheWorld() {
    final Registry registry = world(10);
    registry.context().emplace(Score.class, new Score());
    final int[] redraws = {0};
    final ScheduleBuilder plan = Schedule.builder(registry);
    plan.system("count", context -> context.resource(Score.class).asleep++)
        .in(Schedule.PRE_UPDATE)
        .writesResource(Score.class)
        .runIf(context -> 0 == context.frame() % 10);
    // tag::conditions[]
    plan.system("scoreboard", context -> redraws[0]++)
        .runIf(RunCondition.resourceChanged(Score.class)) // a writer ran since, or it was replaced
        .runIf(RunCondition.anyWithComponent(Position_Traits.TYPE)) // and both must hold
        .runIf(RunCondition.resource(Score.class, score -> score.asleep < 1_000));
    // end::conditions[]
    final Schedule schedule = plan.build();
    for (int frame = 0; frame < 20; frame++) {
      schedule.run();
    }
    assertEquals(2, redraws[0]); // frames 0 and 10
  }

  @Test
  void fixedStepsTimingsAndFailures() {
    final Registry registry = world(10);
    final int[] physicsSteps = {0};
    final boolean[] paused = {false};
    final boolean[] menuOpen = {false};
    // tag::fixed[]
    final ScheduleBuilder plan =
        Schedule.builder(registry)
            .fixedStage("physics", TimeUnit.MILLISECONDS.toNanos(20), 4) // 50 Hz, at most 4 a frame
            .timingWindow(600); // timings over the last 600 runs
    plan.system("integrate", context -> physicsSteps[0]++).in("physics");
    plan.system("ai", context -> {}).runIf(() -> !paused[0]).runIf(() -> !menuOpen[0]); // both hold
    final Schedule schedule = plan.build();
    schedule.run(TimeUnit.MILLISECONDS.toNanos(50)); // 50 ms passed: two steps, 10 ms carried over
    final SystemTiming ai = schedule.timing("ai"); // count, mean, p50, p95, max
    // end::fixed[]
    assertEquals(2, physicsSteps[0]);
    assertEquals(1, ai.runs());
    schedule.run(TimeUnit.MILLISECONDS.toNanos(10)); // 20 ms accumulated: one more step
    assertEquals(3, physicsSteps[0]);

    final ScheduleBuilder failing = Schedule.builder(registry);
    failing.system(
        "fragile",
        context -> {
          context.commands().destroy(registry.storage(Position_Traits.TYPE).at(0));
          throw new IllegalStateException("boom");
        });
    final Schedule broken = failing.build();
    final int before = registry.alive();
    final SystemFailedException failure = assertThrows(SystemFailedException.class, broken::run);
    assertEquals("fragile", failure.system());
    assertEquals(before, registry.alive(), "the failed stage's commands were discarded");
    assertEquals(List.of(), registry.verify());
  }

  /** How a saved {@link Score} is written: the resource opts in to saving with this codec. */
  static final ValueCodec<Score> SCORE =
      new ValueCodec<>() {
        @Override
        public void write(final Score value, final DataOutput out) throws IOException {
          out.writeInt(value.asleep);
        }

        @Override
        public Score read(final DataInput in) throws IOException {
          final Score score = new Score();
          score.asleep = in.readInt();
          return score;
        }
      };

  /** A server's schedule: built the same way for the saved server and the restored one. */
  private static Schedule scoring(final Registry registry, final List<Long> frames) {
    final ScheduleBuilder plan = Schedule.builder(registry);
    plan.system(
            "score",
            context -> {
              context.resource(Score.class).asleep++;
              frames.add(context.frame());
            })
        .writesResource(Score.class);
    return plan.build();
  }

  @Test
  void savingTheScheduleWithTheWorld() throws IOException {
    final Registry registry = world(10);
    registry.context().emplace(Score.class, new Score());
    final List<Long> frames = new ArrayList<>();
    final Schedule schedule = scoring(registry, frames);
    for (int i = 0; i < 5; i++) {
      schedule.run();
    }
    // tag::state[]
    final ScheduleState state = ScheduleState.of(schedule).resource(Score.class, "score", SCORE);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    state.writeTo(new SnapshotWriter(registry)).write(out); // the world, then the state's blocks
    final Registry restored = new Registry(); // a new server: same systems, same declarations
    final Map<String, byte[]> extras =
        new SnapshotLoader(restored)
            .types(Position_Traits.TYPE, Velocity_Traits.TYPE)
            .load(new ByteArrayInputStream(out.toByteArray()));
    final Schedule again = scoring(restored, frames);
    ScheduleState.of(again).resource(Score.class, "score", SCORE).restore(extras); // checked first
    // end::state[]
    assertEquals(5, again.frame());
    assertEquals(5, restored.context().get(Score.class).asleep);
    frames.clear();
    again.run();
    assertEquals(List.of(5L), frames, "context.frame() goes on");
    assertEquals(6, restored.context().get(Score.class).asleep);
  }
}
