package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A set of command buffers registered for a sync point is registered for that frame only: in a
 * later frame, a set the system does not register again is not applied by the schedule, whether the
 * earlier frame reached its sync point or stopped before it.
 */
class ScheduleSetRegistrationTest {

  private final Registry registry = new Registry();
  private final List<String> applied = new ArrayList<>();
  private final CommandBuffers set = new CommandBuffers(registry);

  private ScheduleBuilder recorder(final boolean[] failFirstFrame) {
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "recorder",
        c -> {
          final String name = "frame " + c.frame();
          set.forRun(0).queue(r -> applied.add(name));
          if (0 == c.frame()) {
            c.applyAtSyncPoint(set);
          }
        });
    builder
        .system(
            "failing",
            c -> {
              if (failFirstFrame[0] && 0 == c.frame()) {
                throw new IllegalStateException("boom");
              }
            })
        .after("recorder");
    return builder;
  }

  @Test
  void aSetAppliedAtOneSyncPointIsNotAppliedAtTheNextUnlessRegisteredAgain() {
    final Schedule schedule = recorder(new boolean[] {false}).build();
    schedule.run();
    assertEquals(List.of("frame 0"), applied);
    schedule.run();
    assertEquals(List.of("frame 0"), applied, "frame 1 did not register the set");
    assertEquals(1, set.size());
    set.apply();
    assertEquals(List.of("frame 0", "frame 1"), applied);
  }

  @Test
  void aSetDiscardedByAFailedFrameIsNotAppliedAtTheNextUnlessRegisteredAgain() {
    final Schedule schedule = recorder(new boolean[] {true}).build();
    assertThrows(SystemFailedException.class, schedule::run);
    assertEquals(List.of(), applied);
    assertEquals(0, set.size(), "discarded with the failed frame");
    schedule.run();
    assertEquals(List.of(), applied, "frame 1 did not register the set");
    assertEquals(1, set.size());
  }
}
