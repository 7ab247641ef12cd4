package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.command.CommandBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Destroying an entity whose storages are observed only by one owning group that spans them takes a
 * path of its own (the entity leaves and loses every owned element at once, without planning). It
 * must leave the registry exactly as the planned path does: a twin registry takes that path because
 * its group has a leave listener. Seeded random worlds, where the group sometimes spans its
 * storages (every entity with A also has B) and sometimes not, and a third, unobserved storage.
 */
class GroupDestroyTogetherTest {

  private static List<Long> build(final Registry registry, final long seed) {
    final Random random = new Random(seed);
    final List<Long> alive = new ArrayList<>();
    // Two worlds in three span (a seeded Random's first draws are alike for nearby seeds).
    final boolean spanning = seed % 3 != 0;
    for (int i = 0; i < 120; i++) {
      final long e = registry.create();
      alive.add(e);
      final int kind = random.nextInt(8);
      if (kind > 0 || spanning) {
        registry.emplace(e, TA, new A(i));
        registry.emplace(e, TB, new B(i));
      } else if (random.nextBoolean()) {
        registry.emplace(e, TA, new A(i));
      }
      if (random.nextInt(3) == 0) {
        registry.emplace(e, TC, new C(i));
      }
    }
    return alive;
  }

  @Test
  void destroyingWithASpanningGroupEqualsThePlannedPath() {
    int spanned = 0;
    for (int seed = 0; seed < 40; seed++) {
      final Registry together = new Registry();
      final Registry planned = new Registry();
      final OwningGroup fast = together.owningGroup(TA, TB);
      final OwningGroup slow = planned.owningGroup(TA, TB);
      slow.onLeave().connect((r, e) -> {});
      final List<Long> alive = build(together, seed);
      assertEquals(alive, build(planned, seed));
      final Random random = new Random(500 + seed);
      while (!alive.isEmpty()) {
        final long e = alive.remove(random.nextInt(alive.size()));
        if (fast.size() == together.storage(TA).size()
            && fast.size() == together.storage(TB).size()
            && fast.contains(e)) {
          spanned++;
        }
        together.destroy(e);
        planned.destroy(e);
        assertEquals(
            RegistryTest.snapshot(planned), RegistryTest.snapshot(together), "seed " + seed);
        assertSameMembers(slow, fast, seed);
      }
      assertEquals(List.of(), together.verify());
    }
    assertTrue(spanned > 1000, "the spanning path was taken " + spanned + " times");
  }

  /**
   * A batch, direct or recorded in a buffer, is removed storage by storage when every group spans
   * its owned storages alone; the twin's destroy listener on the third storage keeps it on the
   * entity-by-entity path.
   */
  @Test
  void aBatchWithASpanningGroupEqualsDestroyingOneByOne() {
    int spanning = 0;
    for (int seed = 0; seed < 60; seed++) {
      final Registry bulk = new Registry();
      final Registry single = new Registry();
      final OwningGroup fast = bulk.owningGroup(TA, TB);
      final OwningGroup slow = single.owningGroup(TA, TB);
      // A listener on another storage, so that the group itself is alike in both.
      bulk.storage(TC);
      single.storage(TC).onDestroy().connect((r, e) -> {});
      final List<Long> alive = build(bulk, seed);
      assertEquals(alive, build(single, seed));
      if (fast.size() == bulk.storage(TA).size() && fast.size() == bulk.storage(TB).size()) {
        spanning++;
      }
      final Random random = new Random(900 + seed);
      final long[] batch = new long[random.nextInt(alive.size() + 1)];
      for (int i = 0; i < batch.length; i++) {
        batch[i] = alive.get(random.nextInt(alive.size()));
      }
      final CommandBuffer bulkCommands = new CommandBuffer(bulk);
      final CommandBuffer singleCommands = new CommandBuffer(single);
      if (seed % 2 == 0) {
        bulk.destroy(batch, 0, batch.length);
        single.destroy(batch, 0, batch.length);
      } else {
        for (final long e : batch) {
          bulkCommands.destroy(e);
          singleCommands.destroy(e);
        }
        bulkCommands.apply();
        singleCommands.apply();
        assertEquals(singleCommands.skipped(), bulkCommands.skipped(), "seed " + seed);
      }
      assertEquals(RegistryTest.snapshot(single), RegistryTest.snapshot(bulk), "seed " + seed);
      assertSameMembers(slow, fast, seed);
      for (int i = 0; i < 10; i++) {
        assertEquals(single.create(), bulk.create(), "seed " + seed);
      }
      assertEquals(List.of(), bulk.verify(), "seed " + seed);
    }
    assertTrue(spanning > 10 && spanning < 50, spanning + " spanning worlds of 60");
  }

  /**
   * A second group that observes an owned storage (a non-owning group over it alone, or one
   * excluding it) keeps the batch off the bulk path, even though the owning group spans: that
   * group's members must be kept too.
   */
  @Test
  void anotherGroupOnAnOwnedStorageKeepsBatchesOneByOne() {
    for (int seed = 0; seed < 40; seed++) {
      final Registry bulk = new Registry();
      final Registry single = new Registry();
      for (final Registry registry : List.of(bulk, single)) {
        // The same storages in the same order in both.
        registry.storage(TA);
        registry.storage(TB);
        registry.storage(TC);
      }
      // The owning group owns A and B, or A alone (then nothing else it owns sees the observer).
      final boolean alone = seed % 4 >= 2;
      final OwningGroup fast = alone ? bulk.owningGroup(TA) : bulk.owningGroup(TA, TB);
      final OwningGroup slow = alone ? single.owningGroup(TA) : single.owningGroup(TA, TB);
      final ComponentType<?, ?>[] none = {};
      final ComponentType<?, ?>[] get =
          seed % 2 == 0 ? new ComponentType<?, ?>[] {TA} : new ComponentType<?, ?>[] {TC};
      final ComponentType<?, ?>[] exclude =
          seed % 2 == 0 ? none : new ComponentType<?, ?>[] {alone ? TA : TB};
      final Group otherFast = bulk.nonOwningGroup(get, exclude);
      final Group otherSlow = single.nonOwningGroup(get, exclude);
      single.storage(TC).onDestroy().connect((r, e) -> {});
      final List<Long> alive = build(bulk, seed);
      assertEquals(alive, build(single, seed));
      final Random random = new Random(1300 + seed);
      final long[] batch = new long[1 + random.nextInt(alive.size())];
      for (int i = 0; i < batch.length; i++) {
        batch[i] = alive.get(random.nextInt(alive.size()));
      }
      bulk.destroy(batch, 0, batch.length);
      single.destroy(batch, 0, batch.length);
      assertEquals(RegistryTest.snapshot(single), RegistryTest.snapshot(bulk), "seed " + seed);
      assertEquals(slow.size(), fast.size(), "seed " + seed);
      assertSameMembers(otherSlow, otherFast, seed);
      assertEquals(List.of(), bulk.verify(), "seed " + seed);
    }
  }

  /** Asserts that two twins' groups hold the same members in the same order. */
  private static void assertSameMembers(final Group expected, final Group actual, final int seed) {
    assertEquals(expected.size(), actual.size(), "seed " + seed);
    for (int position = 0; position < actual.size(); position++) {
      assertEquals(expected.entityAt(position), actual.entityAt(position), "seed " + seed);
    }
  }
}
