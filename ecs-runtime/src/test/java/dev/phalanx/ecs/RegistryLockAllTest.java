package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link Registry#lockAll}: every storage locked, the ones created meanwhile too; a permitted
 * thread passes one storage's lock; misuse refused before any change.
 */
class RegistryLockAllTest {

  @Test
  void everyStorageIsLockedTheNewOnesTooUntilUnlockAll() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.lockAll("a test", this);
    assertTrue(registry.storage(TA).isLocked());
    // Created while locked: starts locked.
    assertTrue(registry.storage(TB).isLocked());
    final ConcurrentModificationException refused =
        assertThrows(
            ConcurrentModificationException.class, () -> registry.emplace(e, TB, new B(2)));
    assertTrue(refused.getMessage().contains("a test"), refused.getMessage());
    assertFalse(registry.has(e, TB));
    registry.unlockAll();
    assertFalse(registry.storage(TA).isLocked());
    assertFalse(registry.storage(TB).isLocked());
    registry.emplace(e, TB, new B(2));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aPermittedThreadPassesOneStoragesLockAndNoOtherThreadDoes() throws InterruptedException {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.lockAll("a test", this);
    registry.storage(TA).permit(Thread.currentThread());
    registry.emplace(e, TA, new A(1));
    assertThrows(ConcurrentModificationException.class, () -> registry.emplace(e, TB, new B(2)));
    final AtomicReference<Throwable> other = new AtomicReference<>();
    final Thread thread =
        new Thread(
            () -> {
              try {
                registry.remove(e, TA);
              } catch (final RuntimeException refused) {
                other.set(refused);
              }
            });
    thread.start();
    thread.join();
    assertTrue(other.get() instanceof ConcurrentModificationException, String.valueOf(other));
    registry.unlockAll();
    assertTrue(registry.has(e, TA));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void lockingTwiceOrUnlockingWhatIsNotLockedIsRefused() {
    final Registry registry = new Registry();
    registry.storage(TA);
    assertThrows(IllegalStateException.class, registry::unlockAll);
    registry.lockAll("first", this);
    assertThrows(IllegalStateException.class, () -> registry.lockAll("second", this));
    registry.unlockAll();
    assertFalse(registry.storage(TA).isLocked(), "the refused lock took nothing");
  }
}
