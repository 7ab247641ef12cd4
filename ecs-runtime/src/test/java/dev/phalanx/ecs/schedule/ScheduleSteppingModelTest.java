package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random sequences of pause, resume, stepFrame, stepSystem, disable, enable, alwaysRun and run
 * against a plain model of which systems each {@code run()} runs, the frame counter, the next
 * system a step runs and the disabled systems; on 1 and 2 threads. With one thread the order is
 * compared too; with two, the systems of one wave may run in any order.
 */
class ScheduleSteppingModelTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  private static final int NONE = 0;
  private static final int FRAME = 1;
  private static final int SYSTEM = 2;

  /** The model: the plan's order and what the rules of {@link Schedule} say of it. */
  private static final class Model {
    final List<String> plan;
    final boolean[] disabled;
    final boolean[] always;
    final long[] runs;
    boolean paused;
    int request = NONE;
    int cursor;
    long frame;

    Model(final List<String> plan, final List<String> always) {
      this.plan = plan;
      this.disabled = new boolean[plan.size()];
      this.always = new boolean[plan.size()];
      this.runs = new long[plan.size()];
      for (final String name : always) {
        this.always[plan.indexOf(name)] = true;
      }
    }

    int firstEnabled(final int from) {
      for (int p = from; p < plan.size(); p++) {
        if (!disabled[p]) {
          return p;
        }
      }
      return -1;
    }

    /** {@return the systems the next run() runs, in plan order}, and moves the model on. */
    List<String> run() {
      int from = 0;
      int to = 0;
      boolean ends = false;
      if (!paused && 0 == cursor) {
        to = plan.size();
        ends = true;
      } else if (!paused || FRAME == request) {
        from = cursor;
        to = plan.size();
        ends = true;
      } else if (SYSTEM == request) {
        final int next = firstEnabled(cursor);
        if (next < 0) {
          ends = true;
        } else {
          from = next;
          to = next + 1;
          ends = firstEnabled(next + 1) < 0;
        }
      }
      request = NONE;
      final List<String> ran = new ArrayList<>();
      final boolean partial = paused || cursor > 0;
      for (int p = 0; p < plan.size(); p++) {
        final boolean inRange = p >= from && p < to;
        if (!disabled[p] && (inRange || (partial && always[p]))) {
          ran.add(plan.get(p));
          runs[p]++;
        }
      }
      if (ends) {
        frame++;
        cursor = 0;
      } else if (to > from) {
        cursor = to;
      }
      return ran;
    }

    Optional<String> next() {
      final int next = firstEnabled(cursor);
      return next < 0 ? Optional.empty() : Optional.of(plan.get(next));
    }

    List<String> disabledNames(final List<String> systems) {
      final List<String> names = new ArrayList<>();
      for (final String name : systems) {
        if (disabled[plan.indexOf(name)]) {
          names.add(name);
        }
      }
      return names;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void randomStepSequencesMatchTheModel(final int threads) {
    final ForkJoinPool pool = 1 == threads ? null : new ForkJoinPool(threads);
    try {
      for (int seed = 0; seed < 40; seed++) {
        check(pool, seed);
      }
    } finally {
      if (null != pool) {
        pool.shutdown();
      }
    }
  }

  private static void check(final ForkJoinPool pool, final long seed) {
    final Registry registry = new Registry();
    final long entity = registry.create();
    registry.emplace(entity, A, new Payload(0));
    registry.emplace(entity, B, new Payload(0));
    final List<String> log = Collections.synchronizedList(new ArrayList<>());
    final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
    builder.system("input", c -> log.add("input")).in(Schedule.PRE_UPDATE).alwaysRun();
    builder.system("spawn", c -> log.add("spawn")).in(Schedule.PRE_UPDATE).writes(A);
    builder.system("moveA", c -> log.add("moveA")).writes(A);
    builder.system("moveB", c -> log.add("moveB")).writes(B);
    builder.system("free", c -> log.add("free"));
    builder.system("both", c -> log.add("both")).reads(A).reads(B).after("moveA", "moveB");
    builder.system("render", c -> log.add("render")).in(Schedule.POST_UPDATE).reads(A);
    builder.system("audio", c -> log.add("audio")).in(Schedule.POST_UPDATE).reads(B);
    final Schedule schedule = builder.build();
    final List<String> plan = new ArrayList<>();
    final List<Integer> waveOf = new ArrayList<>();
    int waves = 0;
    for (final String stage : schedule.stages()) {
      for (final List<String> wave : schedule.waves(stage)) {
        for (final String name : wave) {
          plan.add(name);
          waveOf.add(waves);
        }
        waves++;
      }
    }
    final Model model = new Model(plan, List.of("input"));
    final Random random = new Random(seed);
    final List<String> trace = new ArrayList<>();
    for (int op = 0; op < 300; op++) {
      final int kind = random.nextInt(12);
      final String name = plan.get(random.nextInt(plan.size()));
      final int at = plan.indexOf(name);
      switch (kind) {
        case 0 -> {
          trace.add("pause");
          schedule.pause();
          model.paused = true;
        }
        case 1 -> {
          trace.add("resume");
          schedule.resume();
          model.paused = false;
          model.request = NONE;
        }
        case 2 -> {
          trace.add("stepFrame");
          schedule.stepFrame();
          model.paused = true;
          model.request = FRAME;
        }
        case 3, 4 -> {
          trace.add("stepSystem");
          schedule.stepSystem();
          model.paused = true;
          model.request = SYSTEM;
        }
        case 5 -> {
          trace.add("disable " + name);
          schedule.disable(name);
          model.disabled[at] = true;
        }
        case 6 -> {
          trace.add("enable " + name);
          schedule.enable(name);
          model.disabled[at] = false;
        }
        case 7 -> {
          final boolean always = random.nextBoolean();
          trace.add("alwaysRun " + name + " " + always);
          schedule.alwaysRun(name, always);
          model.always[at] = always;
        }
        default -> {
          log.clear();
          schedule.run();
          final List<String> expected = model.run();
          final List<String> ran = new ArrayList<>(log);
          trace.add("run " + ran);
          if (null == pool) {
            assertEquals(expected, ran, () -> "seed " + seed + ": " + trace);
          } else {
            // Waves run in order; within a wave, in any order.
            for (int k = 1; k < ran.size(); k++) {
              final int before = waveOf.get(plan.indexOf(ran.get(k - 1)));
              final int after = waveOf.get(plan.indexOf(ran.get(k)));
              assertTrue(before <= after, () -> "seed " + seed + ": " + trace);
            }
            ran.sort(Comparator.comparingInt(plan::indexOf));
            assertEquals(expected, ran, () -> "seed " + seed + ": " + trace);
          }
        }
      }
      assertEquals(model.frame, schedule.frame(), () -> "seed " + seed + ": " + trace);
      assertEquals(model.paused, schedule.isPaused(), () -> "seed " + seed + ": " + trace);
      assertEquals(model.next(), schedule.nextSystem(), () -> "seed " + seed + ": " + trace);
      assertEquals(
          model.disabledNames(schedule.systems()),
          schedule.disabled(),
          () -> "seed " + seed + ": " + trace);
    }
    for (int p = 0; p < plan.size(); p++) {
      assertEquals(model.runs[p], schedule.timing(plan.get(p)).runs(), plan.get(p));
    }
    assertEquals(List.of(), registry.verify());
  }
}
