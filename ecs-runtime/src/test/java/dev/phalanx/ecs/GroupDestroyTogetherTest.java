package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
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
    final boolean spanning = random.nextBoolean();
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
        assertEquals(slow.size(), fast.size(), "seed " + seed);
        for (int position = 0; position < fast.size(); position++) {
          assertEquals(slow.entityAt(position), fast.entityAt(position), "seed " + seed);
        }
      }
      assertEquals(List.of(), together.verify());
    }
    assertTrue(spanned > 1000, "the spanning path was taken " + spanned + " times");
  }
}
