package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import org.junit.jupiter.api.Test;

/**
 * A listener's exception is rethrown at the end of the commit even when the removals and destroys
 * that run after it have nothing to do: a removal of a type no storage holds, a removal or destroy
 * whose target the listener destroyed.
 */
class ChangeSetLaterFailuresTest {

  @Test
  void aListenersExceptionOutlivesRemovalsAndDestroysThatSkip() {
    final Registry registry = new Registry();
    final long kept = registry.create();
    final long removed = registry.create();
    final long doomed = registry.create();
    registry.emplace(removed, TA, new A(1));
    final RuntimeException boom = new RuntimeException("boom");
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              r.destroy(removed);
              r.destroy(doomed);
              throw boom;
            });
    final ChangeSet changes = new ChangeSet(registry);
    changes.create();
    changes.remove(kept, TY);
    changes.remove(removed, TA);
    changes.destroy(doomed);
    final RuntimeException thrown = assertThrows(RuntimeException.class, changes::commit);

    assertSame(boom, thrown);
    assertEquals(0, thrown.getSuppressed().length);
    assertTrue(registry.valid(kept));
    assertFalse(registry.valid(removed) || registry.valid(doomed));
    assertNull(registry.findStorage(TY), "a removal makes no storage");
    assertTrue(changes.isEmpty());
  }

  @Test
  void eachSkippedChangeAloneKeepsTheException() {
    for (int skipped = 0; skipped < 3; skipped++) {
      final Registry registry = new Registry();
      final long target = registry.create();
      registry.emplace(target, TA, new A(1));
      final RuntimeException boom = new RuntimeException("boom");
      final boolean destroying = skipped > 0;
      registry
          .onCreate()
          .connect(
              (r, e) -> {
                if (destroying) {
                  r.destroy(target);
                }
                throw boom;
              });
      final ChangeSet changes = new ChangeSet(registry);
      changes.create();
      switch (skipped) {
        case 0 -> changes.remove(target, TY);
        case 1 -> changes.remove(target, TA);
        default -> changes.destroy(target);
      }
      assertSame(boom, assertThrows(RuntimeException.class, changes::commit), "case " + skipped);
    }
  }
}
