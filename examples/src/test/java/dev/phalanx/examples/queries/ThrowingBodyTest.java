package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Fault injection into the per-entity loops that walk page runs: a loop body that throws at its
 * k-th call, for every k of a two-page world, through a generated view (aligned runs), an owning
 * group (page-walking cursors and the copy dispatch), a non-owning group (aligned runs over its
 * members) and a typed view. After each throw the exception reaches the caller unchanged, nothing
 * is left iterated (so no change is refused later), the registry's invariants hold, and the query
 * can iterate again (its nesting flag was reset).
 */
class ThrowingBodyTest {

  private static final int N = 4096 + 50;

  /** The exception the bodies throw. */
  private static final class Boom extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Boom() {
      super("boom", null, false, false);
    }
  }

  private final Registry registry = new Registry();
  private final Position_Storage positions = registry.storage(Position_Traits.TYPE);
  private final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
  private final Mass_Storage masses = registry.storage(Mass_Traits.TYPE);

  private void populate() {
    for (int i = 0; i < N; i++) {
      final long e = registry.create();
      positions.emplace(e, i, -i);
      velocities.emplace(e, 1, 2);
      masses.emplace(e, i);
    }
  }

  /**
   * Runs {@code pass} (one iteration whose body throws {@link Boom} at its call number {@code k},
   * returning the number of calls made when it does not throw) for every k.
   */
  private void everyK(final IntFunction<Integer> pass, final List<SparseSet> walked) {
    final int calls = pass.apply(Integer.MAX_VALUE);
    assertEquals(N, calls);
    for (int k = 1; k <= calls; k++) {
      final int at = k;
      assertThrows(Boom.class, () -> pass.apply(at), () -> "k = " + at);
      for (final SparseSet set : walked) {
        assertFalse(set.isIterated(), () -> set.describe() + " still iterated after k = " + at);
      }
      if (0 == k % 257 || k == calls) {
        assertTrue(registry.verify().isEmpty(), registry.verify().toString());
        assertEquals(N, pass.apply(Integer.MAX_VALUE), "a full pass after k = " + at);
      }
    }
  }

  /** A body counting its calls and throwing at call {@code k}. */
  private static final class Counter {
    int calls;

    void call(final int k) {
      if (++calls == k) {
        throw new Boom();
      }
    }
  }

  @Test
  void aGeneratedViewRecovers() {
    populate();
    final MovingQuery query = MovingQuery.of(registry);
    everyK(
        k -> {
          final Counter counter = new Counter();
          query.each((e, p, v) -> counter.call(k));
          return counter.calls;
        },
        List.of(positions, velocities));
  }

  @Test
  void anOwningGroupRecovers() {
    populate();
    final MoversQuery query = MoversQuery.of(registry);
    everyK(
        k -> {
          final Counter counter = new Counter();
          query.each((e, p, v) -> counter.call(k));
          return counter.calls;
        },
        List.of(positions, velocities));
  }

  @Test
  void aNonOwningGroupRecovers() {
    populate();
    final WeighedQuery query = WeighedQuery.of(registry);
    everyK(
        k -> {
          final Counter counter = new Counter();
          query.each((e, p, m) -> counter.call(k));
          return counter.calls;
        },
        List.of(positions, masses, query.group().members()));
  }

  @Test
  void aTypedViewRecovers() {
    populate();
    everyK(
        k -> {
          final Counter counter = new Counter();
          registry
              .typedView(Position_Traits.TYPE, Velocity_Traits.TYPE)
              .each((e, p, v) -> counter.call(k));
          return counter.calls;
        },
        List.of(positions, velocities));
  }
}
