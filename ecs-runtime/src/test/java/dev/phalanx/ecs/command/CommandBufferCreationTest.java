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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The creation of reserved entities at the start of an apply: a refused creation (too few
 * identifiers) creates nothing and applies nothing, the buffer kept; a create listener's exception
 * stops nothing, every command is applied and the exception rethrown at the end.
 */
class CommandBufferCreationTest {

  @Test
  void aRefusedCreationCreatesNothingAndKeepsTheBuffer() {
    final Registry registry = new Registry(2);
    final long kept = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    final long first = commands.create();
    final long second = commands.create();
    commands.emplace(first, TA, new A(1));
    commands.emplace(second, TA, new A(2));
    commands.destroy(kept);
    assertEquals(1, registry.entities().available());
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, commands::apply);
    assertTrue(refused.getMessage().startsWith("cannot create 2 entities"), refused.getMessage());
    assertEquals(1, registry.alive());
    assertTrue(registry.valid(kept), "no command applied");
    assertEquals(0, registry.storage(TA).size());
    assertEquals(3, commands.size(), "the buffer is kept");
    assertEquals(Entity.NULL, commands.entityOf(first));
    // Once identifiers are free, the same buffer applies in full.
    registry.destroy(kept);
    commands.apply();
    assertEquals(2, registry.alive());
    assertEquals(1, registry.get(commands.entityOf(first), TA).value());
    assertEquals(2, registry.get(commands.entityOf(second), TA).value());
    assertEquals(1, commands.skipped(), "the destroy of the dead entity");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRefusedCreationOfASetCreatesNothingAndKeepsEveryBuffer() {
    final Registry registry = new Registry(2);
    registry.create();
    final CommandBuffers set = new CommandBuffers(registry);
    final long first = set.forRun(0).create();
    final long second = set.forRun(8).create();
    set.forRun(8).emplace(first, TA, new A(1));
    assertThrows(IllegalStateException.class, set::apply);
    assertEquals(1, registry.alive());
    assertEquals(1, set.size());
    assertEquals(Entity.NULL, set.entityOf(first));
    assertEquals(Entity.NULL, set.entityOf(second));
  }

  @Test
  void aThrowingCreateListenerLeavesEveryCommandAppliedAndIsRethrown() {
    final Registry registry = new Registry();
    final long doomed = registry.create();
    final List<Long> told = new ArrayList<>();
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              told.add(e);
              throw new IllegalStateException("listener " + told.size());
            });
    final CommandBuffer commands = new CommandBuffer(registry);
    final long[] handles = {commands.create(), commands.create(), commands.create()};
    for (int i = 0; i < handles.length; i++) {
      commands.emplace(handles[i], TA, new A(i));
    }
    commands.destroy(doomed);
    final IllegalStateException thrown = assertThrows(IllegalStateException.class, commands::apply);
    assertEquals("listener 1", thrown.getMessage());
    assertEquals(2, thrown.getSuppressed().length, "the later listeners' exceptions");
    assertEquals(3, told.size(), "every creation announced");
    for (int i = 0; i < handles.length; i++) {
      final long entity = commands.entityOf(handles[i]);
      assertEquals(told.get(i), entity);
      assertEquals(i, registry.get(entity, TA).value());
    }
    assertFalse(registry.valid(doomed));
    assertTrue(commands.isEmpty());
    assertEquals(0, commands.skipped());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aThrowingCreateListenerLeavesEveryCommandOfASetApplied() {
    final Registry registry = new Registry();
    final IllegalStateException boom = new IllegalStateException("boom");
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              throw boom;
            });
    final CommandBuffers set = new CommandBuffers(registry);
    final long first = set.forRun(0).create();
    final long second = set.forRun(4).create();
    set.forRun(0).emplace(second, TA, new A(2));
    set.forRun(4).emplace(first, TA, new A(1));
    assertSame(boom, assertThrows(IllegalStateException.class, set::apply));
    assertEquals(1, registry.get(set.entityOf(first), TA).value());
    assertEquals(2, registry.get(set.entityOf(second), TA).value());
    assertEquals(0, set.size());
  }

  @Test
  void aThrowingCreateListenerOfALateReservationStopsNothing() {
    // A handle reserved during the apply is created when first named; its listener's exception
    // is rethrown at the end, and the commands after it are applied.
    final Registry registry = new Registry();
    final CommandBuffer commands = new CommandBuffer(registry);
    final IllegalStateException boom = new IllegalStateException("boom");
    final long other = registry.create();
    final long[] late = new long[1];
    commands.queue(
        r -> {
          r.onCreate()
              .connect(
                  (rr, e) -> {
                    throw boom;
                  });
          late[0] = commands.create();
          commands.emplace(late[0], TA, new A(7));
          commands.emplace(other, TA, new A(8));
        });
    assertSame(boom, assertThrows(IllegalStateException.class, commands::apply));
    assertEquals(7, registry.get(commands.entityOf(late[0]), TA).value());
    assertEquals(8, registry.get(other, TA).value());
    assertTrue(commands.isEmpty());
  }
}
