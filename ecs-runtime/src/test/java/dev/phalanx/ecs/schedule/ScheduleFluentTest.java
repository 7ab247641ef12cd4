package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The builder's and a declaration's calls return the object they were called on, so that calls
 * chain; and what the chained calls declare holds.
 */
class ScheduleFluentTest {

  @Test
  void chainAndRunIfReturnWhatTheyWereCalledOn() {
    final Registry registry = new Registry();
    final List<String> ran = new ArrayList<>();
    final ScheduleBuilder builder = Schedule.builder(registry);
    final SystemDeclaration first = builder.system("first", c -> ran.add("first"));
    final SystemDeclaration second = builder.system("second", c -> ran.add("second"));
    final boolean[] open = {false};
    assertSame(
        second, second.runIf(RunCondition.resourceExists(String.class)).runIf(() -> open[0]));
    assertSame(first, first.runIf(RunCondition.resourceExists(Integer.class)));
    assertSame(builder, builder.chain("second", "first"));
    final Schedule schedule = builder.build();
    schedule.run();
    assertEquals(List.of(), ran, "no resource: neither runs");
    registry.context().emplace(String.class, "here");
    registry.context().emplace(Integer.class, 1);
    open[0] = true;
    schedule.run();
    assertEquals(List.of("second", "first"), ran, "chained: second, then first");
  }
}
