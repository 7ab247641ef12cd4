package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.util.ConcurrentModificationException;
import org.junit.jupiter.api.Test;

/**
 * An apply outside a sync point is refused before anything changes, with the message a
 * rearrangement of the locked or iterated storage gets, naming the lock's holder.
 */
class CommandBufferSyncPointTest {

  private final Registry registry = new Registry();
  private final CommandBuffer commands = new CommandBuffer(registry);

  @Test
  void anApplyWhileAStorageIsLockedNamesTheLocksHolder() {
    final Storage<A> storage = registry.storage(TA);
    final long e = registry.create();
    commands.emplace(e, TA, new A(1));
    storage.lock("a scheduler's wave of", "systems");
    try {
      final ConcurrentModificationException refused =
          assertThrows(ConcurrentModificationException.class, commands::apply);
      assertEquals(
          "cannot apply commands while an iteration or a lock holds "
              + storage.describe()
              + ": a scheduler's wave of systems is reading it, and structural changes are"
              + " refused until it ends",
          refused.getMessage());
    } finally {
      storage.unlock();
    }
    assertEquals(1, commands.size(), "the buffer is kept");
    commands.apply();
    assertEquals(1, registry.get(e, TA).value());
  }

  @Test
  void anApplyDuringAnIterationIsRefused() {
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    commands.destroy(e);
    registry
        .view(TA)
        .each(
            x -> {
              final ConcurrentModificationException refused =
                  assertThrows(ConcurrentModificationException.class, commands::apply);
              assertEquals(
                  "cannot apply commands while an iteration or a lock holds "
                      + registry.storage(TA).describe()
                      + ": an iteration over it is in progress",
                  refused.getMessage());
            });
    assertEquals(1, commands.size());
    commands.apply();
    assertEquals(0, registry.alive());
  }
}
