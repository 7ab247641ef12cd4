package dev.phalanx.ecs.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs of destroys at the edges of the recorded stream: a run that ends exactly where the stream's
 * arrays do, and a run recorded after a clear over the longer run recorded before it (whose stale
 * commands lie just past the new ones).
 */
class CommandBufferDestroyRunEdgesTest {

  @Test
  void aRunOfDestroysThatFillsTheStreamIsAppliedWhole() {
    for (int n = 2; n <= 70; n++) {
      final Registry registry = new Registry();
      assertTrue(registry.destroysInBulk(), "nothing observes destroys: runs are batched");
      final CommandBuffer buffer = new CommandBuffer(registry);
      final long[] entities = new long[n];
      for (int i = 0; i < n; i++) {
        entities[i] = registry.create();
        buffer.destroy(entities[i]);
      }
      assertEquals(n, buffer.size());
      buffer.apply();
      for (int i = 0; i < n; i++) {
        assertFalse(registry.valid(entities[i]), n + " destroys, entity " + i);
      }
      assertEquals(0, registry.alive());
      assertEquals(0, buffer.skipped());
    }
  }

  @Test
  void aClearedRunIsNotAppliedWithTheShorterOneRecordedAfter() {
    final Registry registry = new Registry();
    final CommandBuffer buffer = new CommandBuffer(registry);
    final long[] old = new long[5];
    for (int i = 0; i < old.length; i++) {
      old[i] = registry.create();
      buffer.destroy(old[i]);
    }
    buffer.clear();
    final long a = registry.create();
    final long b = registry.create();
    buffer.destroy(a);
    buffer.destroy(b);
    buffer.apply();
    assertFalse(registry.valid(a));
    assertFalse(registry.valid(b));
    for (int i = 0; i < old.length; i++) {
      assertTrue(registry.valid(old[i]), "cleared destroy " + i + " not applied");
    }
    assertEquals(0, buffer.skipped());
    assertEquals(List.of(), registry.verify());
  }
}
