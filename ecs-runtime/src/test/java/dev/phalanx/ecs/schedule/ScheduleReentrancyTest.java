package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A schedule re-entered from its own systems: running a frame from inside a frame is refused with
 * {@link IllegalStateException} before anything of the nested frame runs; every query of the
 * schedule answers from inside a system; the next frame runs normally.
 */
class ScheduleReentrancyTest {

  @Test
  void aSystemThatRunsItsOwnScheduleIsRefusedAndTheNextFrameRuns() {
    final Registry registry = new Registry();
    final AtomicReference<Schedule> self = new AtomicReference<>();
    final List<String> answers = new ArrayList<>();
    final int[] runs = {0};
    final boolean[] nest = {true};
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "nesting",
        c -> {
          runs[0]++;
          final Schedule schedule = self.get();
          answers.add("frame " + schedule.frame());
          answers.add("systems " + schedule.systems());
          answers.add("timings " + schedule.timings().size());
          answers.add("stages " + schedule.stages().size());
          if (nest[0]) {
            schedule.run();
          }
        });
    builder.system("counted", c -> runs[0] += 10).after("nesting");
    final Schedule schedule = builder.build();
    self.set(schedule);
    final SystemFailedException failed = assertThrows(SystemFailedException.class, schedule::run);
    final IllegalStateException nested =
        assertInstanceOf(IllegalStateException.class, failed.getCause());
    assertTrue(nested.getMessage().contains("not re-entrant"), nested.getMessage());
    assertEquals(1, runs[0], "no system of the nested frame ran, and the failed wave stopped");
    assertTrue(answers.contains("systems [nesting, counted]"), answers.toString());
    nest[0] = false;
    schedule.run();
    assertEquals(12, runs[0], "the next frame runs every system");
    assertEquals(List.of(), registry.verify());
  }
}
