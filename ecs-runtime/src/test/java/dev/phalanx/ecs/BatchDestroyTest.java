package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
      assertReleased(batched.storage(A), "seed " + seed);
      assertReleased(batched.storage(B), "seed " + seed);
      // Recycling continues the same way.
      for (int i = 0; i < 20; i++) {
        assertEquals(single.create(), batched.create(), "seed " + seed);
      }
      assertEquals(List.of(), batched.verify());
    }
  }

  /**
   * Checks that {@code storage} keeps no reference to a removed component, so that it can be
   * collected: the slots past its size and the holes are empty.
   */
  private static void assertReleased(final ObjectStorage<Payload> storage, final String where) {
    final long[] packed = storage.packed();
    final int capacity = storage.pageCount() * storage.pageSize();
    for (int position = 0; position < capacity; position++) {
      if (position >= storage.size() || Entity.isTombstone(packed[position])) {
        assertNull(storage.valueAt(position), where + ", position " + position);
      }
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

  @Test
  void aBatchTellsAViewOfEveryEntityThatStopsMatching() {
    // Rule: a view's leave signal listens to its storages' removals, so a batch takes the
    // entity-by-entity path and the view hears each destroyed entity that matched it, once, as
    // when destroying one by one; also when every storage of the registry is watched.
    int heard = 0;
    for (int seed = 0; seed < 10; seed++) {
      final Registry batched = new Registry();
      final Registry single = new Registry();
      final List<Long> alive = build(batched, seed);
      assertEquals(alive, build(single, seed));
      final List<Long> batchedLeft = new ArrayList<>();
      final List<Long> singleLeft = new ArrayList<>();
      batched.view(A, B).onLeave().connect((r, e) -> batchedLeft.add(e));
      single.view(A, B).onLeave().connect((r, e) -> singleLeft.add(e));
      // Every storage watched: no storage of the registry removes unobserved.
      final List<Long> batchedTagged = new ArrayList<>();
      final List<Long> singleTagged = new ArrayList<>();
      batched.view(TAG).onLeave().connect((r, e) -> batchedTagged.add(e));
      single.view(TAG).onLeave().connect((r, e) -> singleTagged.add(e));
      final Random random = new Random(2000 + seed);
      final long[] batch = new long[1 + random.nextInt(alive.size())];
      final List<Long> matching = new ArrayList<>();
      for (int i = 0; i < batch.length; i++) {
        batch[i] = alive.get(random.nextInt(alive.size()));
        if (!matching.contains(batch[i])
            && batched.storage(A).contains(batch[i])
            && batched.storage(B).contains(batch[i])) {
          matching.add(batch[i]);
        }
      }
      batched.destroy(batch, 0, batch.length);
      for (final long e : batch) {
        if (single.valid(e)) {
          single.destroy(e);
        }
      }
      assertEquals(matching, batchedLeft, "seed " + seed);
      assertEquals(singleLeft, batchedLeft, "seed " + seed);
      assertEquals(singleTagged, batchedTagged, "seed " + seed);
      assertEquals(RegistryTest.snapshot(single), RegistryTest.snapshot(batched), "seed " + seed);
      heard += batchedLeft.size();
    }
    assertTrue(heard > 20, heard + " entities left the view");
  }
}
