package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A one-entity destroy that nothing can observe takes a short path (no destroying stack, no
 * listener bookkeeping). It must give exactly the result of the careful path, and the registry must
 * leave it whenever anything could observe or refuse a removal: a destroy or removal listener on
 * any storage, a listener on the registry's own destroy signal, a group, an iteration.
 */
class PlainDestroyTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);
  private static final ComponentType<Object, EmptyStorage<Object>> TAG =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  /** Creates, fills and destroys at random; the same seed gives the same calls. */
  private static void churn(final Registry registry, final long seed) {
    final Random random = new Random(seed);
    final List<Long> alive = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      if (!alive.isEmpty() && random.nextInt(3) == 0) {
        registry.destroy(alive.remove(random.nextInt(alive.size())));
        continue;
      }
      final long e = registry.create();
      alive.add(e);
      if (random.nextBoolean()) {
        registry.emplace(e, A, new Payload(i));
      }
      if (random.nextInt(3) == 0) {
        registry.emplace(e, B, new Payload(-i));
      }
      if (random.nextInt(5) == 0) {
        registry.emplace(e, TAG, new Object());
      }
    }
  }

  @Test
  void theShortPathLeavesWhatTheCarefulPathLeaves() {
    for (int seed = 0; seed < 30; seed++) {
      final Registry plain = new Registry();
      final Registry careful = new Registry();
      // An empty listener on the registry's signal sends every destroy down the careful path.
      careful.onDestroy().connect((r, e) -> {});
      assertTrue(plain.destroysPlainly());
      assertFalse(careful.destroysPlainly());
      churn(plain, seed);
      churn(careful, seed);
      assertEquals(RegistryTest.snapshot(careful), RegistryTest.snapshot(plain), "seed " + seed);
      for (int i = 0; i < 20; i++) {
        assertEquals(careful.create(), plain.create(), "seed " + seed);
      }
      assertEquals(List.of(), plain.verify());
    }
  }

  /** Each way of observing a removal, as a connect and its undo. */
  private record Observer(String name, Consumer<Registry> attach, Consumer<Registry> detach) {}

  private static final ComponentListener SEEN = (r, e) -> r.context().insertOrAssign(Long.class, e);

  private static List<Observer> observers() {
    return List.of(
        new Observer(
            "a storage's destroy listener",
            r -> r.storage(A).onDestroy().connect(SEEN),
            r -> r.storage(A).onDestroy().disconnect(SEEN)),
        new Observer(
            "a destroy listener on a storage created later",
            r -> r.storage(TAG).onDestroy().connect(SEEN),
            r -> r.storage(TAG).onDestroy().disconnect(SEEN)),
        new Observer(
            "the registry's destroy listener",
            r -> r.onDestroy().connect(SEEN),
            r -> r.onDestroy().disconnect(SEEN)));
  }

  @Test
  void anyListenerSendsDestroysDownTheCarefulPathUntilItIsDisconnected() {
    for (final Observer observer : observers()) {
      final Registry registry = new Registry();
      registry.storage(A);
      assertTrue(registry.destroysPlainly(), observer.name());
      observer.attach().accept(registry);
      assertFalse(registry.destroysPlainly(), observer.name());
      final long e = registry.create();
      registry.emplace(e, A, new Payload(1));
      registry.emplace(e, TAG, new Object());
      registry.destroy(e);
      assertEquals(e, (long) registry.context().get(Long.class), observer.name() + " was not told");
      observer.detach().accept(registry);
      assertTrue(registry.destroysPlainly(), observer.name());
      assertEquals(List.of(), registry.verify(), observer.name());
    }
  }

  @Test
  void aGroupSendsDestroysDownTheCarefulPath() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(A);
    assertFalse(registry.destroysPlainly());
    final long[] entities = new long[10];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      registry.emplace(entities[i], A, new Payload(i));
    }
    for (int i = 0; i < entities.length; i += 2) {
      registry.destroy(entities[i]);
    }
    assertEquals(5, group.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aDestroyThatWouldBreakAnIterationIsStillRefusedAndChangesNothing() {
    final Registry registry = new Registry();
    final long[] entities = new long[4];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      registry.emplace(entities[i], A, new Payload(i));
    }
    assertTrue(registry.destroysPlainly());
    final ObjectStorage<Payload> storage = registry.storage(A);
    // The walk starts at the last position; destroying the first entity would move the last one,
    // already visited, into a position still to come.
    final int[] visits = {0};
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            registry
                .view(A)
                .each(
                    e -> {
                      visits[0]++;
                      registry.destroy(entities[0]);
                    }));
    assertEquals(1, visits[0]);
    assertTrue(registry.valid(entities[0]));
    assertEquals(4, storage.size());
    assertEquals(List.of(), registry.verify());
  }
}
