package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.Registry;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-run command buffers of a parallel pass, applied together in run-key order. */
class CommandBuffersTest {

  private final Registry registry = new Registry();
  private final CommandBuffers commands = new CommandBuffers(registry);

  @Test
  void aRunKeyHasOneBufferAndMustNotBeNegative() {
    final CommandBuffer three = commands.forRun(3);
    assertSame(three, commands.forRun(3));
    assertSame(commands.forRun(0), commands.forRun(0));
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> commands.forRun(-1));
    assertEquals("a run key is a non-negative int, got -1", error.getMessage());
  }

  @Test
  void aRunClearedOnItsOwnStillLendsItsNewHandlesToTheOtherRuns() {
    // Rule: a run's buffer cleared directly draws a new id like one cleared by the set's apply;
    // its new handles resolve in the other runs, its old ones are refused.
    commands.forRun(0).create();
    commands.forRun(9);
    commands.apply();
    final CommandBuffer five = commands.forRun(5);
    final long old = five.create();
    five.clear();
    final long fresh = five.create();
    commands.forRun(9).emplace(fresh, TA, new A(5));
    assertThrows(IllegalArgumentException.class, () -> commands.forRun(9).destroy(old));
    commands.apply();
    assertEquals(0, commands.skipped());
    assertEquals(1, registry.storage(TA).size());
    assertEquals(5, registry.get(registry.storage(TA).packed()[0], TA).value());
  }

  @Test
  void sizeAndSkippedAddUpEveryRunAndApplyEmptiesThem() {
    final long doomed = registry.create();
    commands.forRun(2).destroy(doomed);
    commands.forRun(2).destroy(doomed); // the second finds it dead: skipped
    final long spawned = commands.forRun(7).create();
    commands.forRun(7).emplace(spawned, TA, new A(7));
    commands.forRun(1).destroy(registry.create());
    assertEquals(4, commands.size());
    assertEquals(0, commands.skipped());
    commands.apply();
    assertEquals(1, commands.skipped());
    assertEquals(0, commands.size());
    assertTrue(commands.forRun(7).isEmpty());
    assertFalse(registry.valid(doomed));
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void runsApplyInKeyOrderWhateverTheOrderTheyWereFirstUsedIn() {
    final int[] keys = {5, 1, 9, 3};
    for (final int key : keys) {
      final CommandBuffer buffer = commands.forRun(key);
      buffer.emplace(buffer.create(), TA, new A(key));
    }
    commands.apply();
    // Reserved entities are created run by run, in key order: indices 0, 1, 2, 3.
    final int[] expected = {1, 3, 5, 9};
    for (int index = 0; index < expected.length; index++) {
      assertEquals(expected[index], registry.get(Entity.of(index, 0), TA).value());
    }
  }

  @Test
  void applyIsRefusedDuringAnIterationAndKeepsTheCommands() {
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    commands.forRun(0).destroy(e);
    registry
        .view(TA)
        .each(
            entity -> assertThrows(ConcurrentModificationException.class, () -> commands.apply()));
    assertEquals(1, commands.size());
    assertTrue(registry.valid(e));
    commands.apply();
    assertFalse(registry.valid(e));
  }

  @Test
  void aThrowingListenerStopsNoCommandAndIsRethrownAfterAll() {
    final IllegalStateException boom = new IllegalStateException("boom");
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              throw boom;
            });
    final CommandBuffer first = commands.forRun(0);
    first.emplace(first.create(), TA, new A(0));
    final CommandBuffer second = commands.forRun(1);
    second.emplace(second.create(), TA, new A(1));
    final IllegalStateException thrown = assertThrows(IllegalStateException.class, commands::apply);
    assertSame(boom, thrown);
    assertEquals(2, registry.storage(TA).size());
    assertEquals(0, commands.size());
  }
}
