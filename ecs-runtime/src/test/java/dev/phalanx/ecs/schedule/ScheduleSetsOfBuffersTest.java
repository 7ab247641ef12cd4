package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A system may register several sets of command buffers for its sync point, each once however often
 * it is registered; and a set of systems' calls chain, with what they declare holding.
 */
class ScheduleSetsOfBuffersTest {

  @Test
  void everyRegisteredSetIsAppliedOnceAtTheSyncPoint() {
    final Registry registry = new Registry();
    final List<String> applied = new ArrayList<>();
    final CommandBuffers[] sets = new CommandBuffers[3];
    for (int i = 0; i < sets.length; i++) {
      sets[i] = new CommandBuffers(registry);
    }
    final ScheduleBuilder builder = Schedule.builder(registry);
    builder.system(
        "recorder",
        c -> {
          for (int i = 0; i < sets.length; i++) {
            final String name = "set " + i;
            sets[i].forRun(0).queue(r -> applied.add(name));
            c.applyAtSyncPoint(sets[i]);
          }
          c.applyAtSyncPoint(sets[1]);
          c.applyAtSyncPoint(sets[0]);
        });
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of("set 0", "set 1", "set 2"), applied);
    schedule.run();
    assertEquals(6, applied.size(), "registered again in the next frame");
  }

  @Test
  void aSetsCallsReturnTheSetAndItsConditionsHold() {
    final Registry registry = new Registry();
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    final SystemSet set = builder.set("late");
    builder.system("a", c -> ran.add("a")).inSet("late");
    builder.system("b", c -> ran.add("b"));
    builder.system("c", c -> ran.add("c"));
    assertEquals("late", set.name());
    assertEquals("SystemSet[late]", set.toString());
    final boolean[] open = {false};
    assertSame(set, set.before("c"));
    assertSame(set, set.after("b"));
    assertSame(set, set.runIf(() -> open[0]));
    assertSame(set, set.runIf(RunCondition.resourceExists(String.class)));
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of("b", "c"), ran, "the set's conditions fail");
    open[0] = true;
    registry.context().emplace(String.class, "here");
    ran.clear();
    schedule.run();
    assertEquals(List.of("b", "a", "c"), ran);
  }
}
