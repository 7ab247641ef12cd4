package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A batch destroy ({@code registry.destroy(batch, from, to)}) leaves a registry exactly as
 * destroying the same entities one by one does: same storages, element order, holes, identifiers
 * and recycling. With no listener, group or iteration the batch runs storage by storage (a path of
 * its own); with a listener it takes the entity-by-entity path. Seeded random twins, both ways.
 */
class BatchDestroyTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);
  private static final ComponentType<Object, EmptyStorage<Object>> TAG =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  /** Builds the same world in {@code registry} for a given seed; returns its live entities. */
  private static List<Long> build(final Registry registry, final long seed) {
    final Random random = new Random(seed);
    final List<Long> alive = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      if (!alive.isEmpty() && random.nextInt(4) == 0) {
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
    return alive;
  }

  private static void check(final boolean listened) {
    for (int seed = 0; seed < 30; seed++) {
      final Registry batched = new Registry();
      final Registry single = new Registry();
      if (listened) {
        batched.storage(B).onDestroy().connect((r, e) -> {});
        single.storage(B).onDestroy().connect((r, e) -> {});
      }
      final List<Long> alive = build(batched, seed);
      assertEquals(alive, build(single, seed));
      // A random batch, some entities listed twice.
      final Random random = new Random(1000 + seed);
      final long[] batch = new long[random.nextInt(alive.size() + 1)];
      for (int i = 0; i < batch.length; i++) {
        batch[i] = alive.get(random.nextInt(alive.size()));
      }
      batched.destroy(batch, 0, batch.length);
      for (final long e : batch) {
        if (single.valid(e)) {
          single.destroy(e);
        }
      }
      assertEquals(RegistryTest.snapshot(single), RegistryTest.snapshot(batched), "seed " + seed);
      // Recycling continues the same way.
      for (int i = 0; i < 20; i++) {
        assertEquals(single.create(), batched.create(), "seed " + seed);
      }
      assertEquals(List.of(), batched.verify());
    }
  }

  @Test
  void aBatchWithoutObserversEqualsDestroyingOneByOne() {
    check(false);
  }

  @Test
  void aBatchWithAListenerEqualsDestroyingOneByOne() {
    check(true);
  }
}
