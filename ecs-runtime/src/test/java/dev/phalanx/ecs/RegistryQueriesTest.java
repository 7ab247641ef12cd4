package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.internal.RecordedFields;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The registry's public queries about its own state that features and users build on. */
class RegistryQueriesTest {

  private final Registry registry = new Registry();

  /**
   * The count of parallel passes stays put during a pass (every task reads the value read before
   * it), and moves on once the pass has ended, also when its body threw.
   */
  @Test
  void parallelPassesMovesOnAtTheEndOfEachParallelPass() throws InterruptedException {
    final OwningGroup group = registry.owningGroup(TA);
    for (int i = 0; i < 10_000; i++) {
      registry.emplace(registry.create(), TA, new A(i));
    }
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final int before = registry.parallelPasses();
      final Set<Integer> seen = ConcurrentHashMap.newKeySet();
      group.parallelEachChunk(pool, 64, (from, to) -> seen.add(registry.parallelPasses()));
      assertEquals(Set.of(before), seen, "read during the pass");
      final int after = registry.parallelPasses();
      assertNotEquals(before, after);
      final IllegalStateException boom = new IllegalStateException("boom");
      assertThrows(
          IllegalStateException.class,
          () ->
              group.parallelEachChunk(
                  pool,
                  (from, to) -> {
                    throw boom;
                  }));
      assertNotEquals(after, registry.parallelPasses(), "a pass that threw has ended too");
      final int settled = registry.parallelPasses();
      registry.emplace(registry.create(), TA, new A(-1));
      registry.view(TA).each(e -> {});
      assertEquals(settled, registry.parallelPasses(), "nothing but a parallel pass moves it");
    } finally {
      pool.shutdown();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The identifiers available are the released ones plus those never created up to the limit; a
   * bulk creation of more is refused having created nothing, one of exactly as many succeeds.
   */
  @Test
  void availableCountsTheEntitiesThatCanStillBeCreated() {
    final Registry limited = new Registry(4);
    assertEquals(4, limited.entities().available());
    final long first = limited.create();
    limited.create();
    assertEquals(2, limited.entities().available());
    limited.destroy(first);
    assertEquals(3, limited.entities().available(), "a released identifier counts");
    assertThrows(IllegalStateException.class, () -> limited.create(new long[4]));
    assertEquals(1, limited.alive(), "a refused creation creates nothing");
    assertEquals(3, limited.entities().available());
    limited.create(new long[3]);
    assertEquals(0, limited.entities().available());
    assertThrows(IllegalStateException.class, limited::create);
  }

  /** A batch destroy is done in bulk only while nothing can observe or refuse it. */
  @Test
  void destroysInBulkOnlyWhileNothingObserves() {
    registry.storage(TA);
    assertTrue(registry.destroysInBulk());
    registry.storage(TA).onDestroy().connect((r, e) -> {});
    assertFalse(registry.destroysInBulk(), "a removal listener");
    final Registry other = new Registry();
    other.onDestroy().connect((r, e) -> {});
    assertFalse(other.destroysInBulk(), "a destroy listener");
    final Registry locked = new Registry();
    locked.storage(TA).lock("a test of", "locks");
    assertFalse(locked.destroysInBulk(), "a lock");
    locked.storage(TA).unlock();
    assertTrue(locked.destroysInBulk());
    final boolean[] during = new boolean[1];
    locked.emplace(locked.create(), TA, new A(1));
    locked.view(TA).each(e -> during[0] = locked.destroysInBulk());
    assertFalse(during[0], "an iteration");
  }

  /** The lock's holder, as it named itself, while the set is locked; nothing once unlocked. */
  @Test
  void lockDescriptionNamesTheOutermostHolder() {
    final Storage<A> storage = registry.storage(TA);
    assertNull(storage.lockDescription());
    storage.lock("a scheduler's wave of", "systems");
    storage.lock("an inner lock", null);
    assertEquals("a scheduler's wave of systems", storage.lockDescription());
    storage.unlock();
    storage.unlock();
    assertNull(storage.lockDescription());
  }

  /** Replaying a typed emplace reaches the storage's applyRecorded: refused by a plain storage. */
  @Test
  void replayRecordedCallsTheStoragesApplyRecorded() {
    final long e = registry.create();
    final RecordedFields none =
        new RecordedFields() {
          @Override
          public long nextWord() {
            throw new AssertionError();
          }

          @Override
          public Object nextRef() {
            throw new AssertionError();
          }
        };
    final IllegalStateException refused =
        assertThrows(
            IllegalStateException.class, () -> registry.storage(TA).replayRecorded(e, none));
    assertTrue(refused.getMessage().contains("has no typed recording"), refused.getMessage());
  }
}
