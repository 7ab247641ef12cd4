package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.GroupTypes.A;
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
}
