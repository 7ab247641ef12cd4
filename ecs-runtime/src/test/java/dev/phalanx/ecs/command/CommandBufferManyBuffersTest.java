package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.Registry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Many live buffers at once, more than the JVM-wide table of reservation slots first holds: every
 * buffer keeps a slot of its own as the table grows, so each accepts its own handles, refuses every
 * other buffer's, and no two handles are equal.
 */
class CommandBufferManyBuffersTest {

  private static final int BUFFERS = 1_100;

  @Test
  void everyLiveBufferOwnsItsHandlesWhileTheSlotTableGrows() {
    final Registry registry = new Registry();
    final CommandBuffer[] buffers = new CommandBuffer[BUFFERS];
    final long[] handles = new long[BUFFERS];
    final Set<Long> distinct = new HashSet<>();
    for (int i = 0; i < BUFFERS; i++) {
      buffers[i] = new CommandBuffer(registry);
      handles[i] = buffers[i].create();
      assertTrue(distinct.add(handles[i]), "handle " + i + " is new");
    }
    for (int i = 0; i < BUFFERS; i++) {
      final CommandBuffer buffer = buffers[i];
      buffer.emplace(handles[i], TA, new A(i));
      final long foreign = handles[(i + 1) % BUFFERS];
      assertThrows(
          IllegalArgumentException.class,
          () -> buffer.destroy(foreign),
          "buffer " + i + " refuses the next buffer's handle");
      assertEquals(1, buffer.size(), "buffer " + i + " holds its emplace");
    }
    for (int i = 0; i < BUFFERS; i++) {
      buffers[i].apply();
      final long created = buffers[i].entityOf(handles[i]);
      assertEquals(new A(i), registry.get(created, TA), "buffer " + i);
      assertEquals(Entity.NULL, buffers[(i + 1) % BUFFERS].entityOf(handles[i]));
    }
    assertEquals(BUFFERS, registry.alive());
    assertEquals(List.of(), registry.verify());
  }
}
