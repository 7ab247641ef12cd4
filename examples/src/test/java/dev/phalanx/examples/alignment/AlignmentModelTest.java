package dev.phalanx.examples.alignment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A non-owning group's {@code each} remembers across passes how far each storage holds the members
 * at their positions ({@code Query.Alignment}). Seeded runs against a plain model: between passes
 * the world changes in every way that moves elements (removals, destroys, group and storage sorts,
 * in-place holes and refills, compaction, clearing, re-adds, a storage sorted back into the group's
 * order) or only appends; during passes the visitor destroys or strips the visited entity, removes
 * elements of non-members (moving members of the storages under the cursors), fills holes and adds
 * joining entities, and sorts or compacts a storage (the member set is walked, the storages are
 * not, so that is allowed: it moves elements below the visited position). Every pass must visit
 * exactly the model's members, each once, with both cursors on the entity's own values. A stale
 * remembered alignment would put a cursor on another entity's element: the values would differ.
 */
class AlignmentModelTest {

  private final Registry registry = new Registry();
  private final Spot_Storage spots = registry.storage(Spot_Traits.TYPE);
  private final Health_Storage healths = registry.storage(Health_Traits.TYPE);
  private final Map<Long, float[]> spotModel = new HashMap<>();
  private final Map<Long, Integer> healthModel = new HashMap<>();
  private final List<Long> live = new ArrayList<>();
  private AliveQuery alive;
  private int counter;

  private long create(final boolean spot, final boolean health) {
    final long e = registry.create();
    live.add(e);
    if (spot) {
      addSpot(e);
    }
    if (health) {
      addHealth(e);
    }
    return e;
  }

  private void addSpot(final long e) {
    final float x = counter++;
    spots.emplace(e, x, -x);
    spotModel.put(e, new float[] {x, -x});
  }

  private void addHealth(final long e) {
    final int value = counter++;
    healths.emplace(e, value);
    healthModel.put(e, value);
  }

  private void destroy(final long e) {
    registry.destroy(e);
    live.remove(e);
    spotModel.remove(e);
    healthModel.remove(e);
  }

  private Set<Long> members() {
    final Set<Long> members = new HashSet<>();
    for (final long e : live) {
      if (spotModel.containsKey(e) && healthModel.containsKey(e)) {
        members.add(e);
      }
    }
    return members;
  }

  private long pick(final Random random) {
    return live.get(random.nextInt(live.size()));
  }

  /** One change between passes; most of them appends, which keep the storages aligned. */
  private void changeBetween(final Random random) {
    final int op = random.nextInt(20);
    if (op < 8 || live.size() < 10) {
      create(true, true);
    } else if (op == 8) {
      create(random.nextBoolean(), random.nextBoolean());
    } else if (op == 9) {
      destroy(pick(random));
    } else if (op == 10) {
      final long e = pick(random);
      if (spots.remove(e)) {
        spotModel.remove(e);
      }
    } else if (op == 11) {
      final long e = pick(random);
      if (healths.remove(e)) { // in-place: a hole
        healthModel.remove(e);
      }
    } else if (op == 12) {
      final long e = pick(random); // a re-add: appended, or into a hole
      if (!healths.contains(e)) {
        addHealth(e);
      } else if (!spots.contains(e)) {
        addSpot(e);
      }
    } else if (op == 13) {
      alive.sortByFloatKey(e -> -spots.x(e));
    } else if (op == 14) {
      spots.sort((a, b) -> Long.compare(b, a));
    } else if (op == 15) {
      healths.compact();
    } else if (op == 16) {
      healths.compact();
      spots.sortAs(alive.group().members());
      healths.sortAs(alive.group().members()); // aligned again
    } else if (op == 17 && random.nextInt(4) == 0) {
      registry.clear(Health_Traits.TYPE);
      healthModel.clear();
      for (final long e : live) {
        if (spotModel.containsKey(e) && random.nextBoolean()) {
          addHealth(e);
        }
      }
    } else if (op == 18) {
      alive.insertionSortByLongKey(e -> healths.value(e));
    } else {
      for (int i = 0; i < 20; i++) {
        create(true, true);
      }
    }
  }

  /** A pass whose visitor checks and writes the cursors and, with {@code changes}, the world. */
  private void pass(final Random random, final boolean changes) {
    final Set<Long> pending = members();
    alive.each(
        (e, spot, health) -> {
          assertTrue(pending.remove(e), () -> "not a member when reached, or visited twice: " + e);
          assertArrayEquals(spotModel.get(e), new float[] {spot.x(), spot.y()}, "spot cursor");
          assertEquals(healthModel.get(e), health.value(), "health cursor");
          spot.setX(spot.x() + 0.5f);
          spotModel.get(e)[0] += 0.5f;
          health.setValue(health.value() + 1);
          healthModel.put(e, healthModel.get(e) + 1);
          if (!changes) {
            return;
          }
          final int op = random.nextInt(12);
          if (op == 0) {
            destroy(e);
          } else if (op == 1) {
            healths.remove(e);
            healthModel.remove(e);
          } else if (op == 2) {
            spots.remove(e);
            spotModel.remove(e);
          } else if (op == 3) {
            create(true, true); // joins: appended, not visited in this pass
          } else if (op == 4 || op == 5) {
            // A non-member loses an element: swap-and-pop moves a member of the spot storage.
            final long other = pick(random);
            if (!healthModel.containsKey(other) && spots.remove(other)) {
              spotModel.remove(other);
            }
          } else if (op == 6) {
            final long other = pick(random); // in-place: a hole in the health storage
            if (!spotModel.containsKey(other) && healths.remove(other)) {
              healthModel.remove(other);
            }
          } else if (op == 7) {
            create(false, true); // may fill a hole of the health storage
          } else if (op == 8 && random.nextInt(8) == 0) {
            // The storages are not walked (the member set is): they may be rearranged, which
            // moves elements below the visited position.
            spots.sort((a, b) -> Long.compare(a * 31 % 17, b * 31 % 17));
          } else if (op == 9 && random.nextInt(8) == 0) {
            healths.compact();
          }
        });
    assertTrue(pending.isEmpty(), () -> "members not visited: " + pending);
    for (final long e : live) {
      assertEquals(spotModel.containsKey(e), spots.contains(e));
      assertEquals(healthModel.containsKey(e), healths.contains(e));
      if (spotModel.containsKey(e)) {
        assertArrayEquals(spotModel.get(e), new float[] {spots.x(e), spots.y(e)});
      }
      if (healthModel.containsKey(e)) {
        assertEquals(healthModel.get(e), healths.value(e));
      }
    }
    assertEquals(members().size(), alive.size());
    assertTrue(registry.verify().isEmpty(), () -> registry.verify().toString());
  }

  @Test
  void eachVisitsTheModelsMembersWhateverChangesBetweenAndDuringPasses() {
    for (int seed = 0; seed < 12; seed++) {
      final Random random = new Random(seed);
      final boolean groupFirst = seed % 2 == 0;
      if (groupFirst) {
        alive = AliveQuery.of(registry);
      }
      for (int i = 0; i < 60; i++) {
        create(true, true);
      }
      if (!groupFirst) {
        alive = AliveQuery.of(registry); // over filled storages
      }
      for (int round = 0; round < 60; round++) {
        final int changes = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(6);
        for (int i = 0; i < changes; i++) {
          changeBetween(random);
        }
        pass(random, random.nextInt(3) == 0);
        pass(random, false); // the same world again: the remembered alignment is reused
      }
      registry.clear();
      live.clear();
      spotModel.clear();
      healthModel.clear();
    }
  }

  /** A group made over filled storages takes the members in the storages' order: aligned. */
  @Test
  void aGroupMadeOverFilledStoragesHoldsItsMembersInTheirOrder() {
    for (int i = 0; i < 100; i++) {
      create(true, true);
    }
    alive = AliveQuery.of(registry);
    final long[] members = Arrays.copyOf(alive.group().members().packed(), alive.size());
    assertArrayEquals(Arrays.copyOf(spots.packed(), spots.size()), members);
    assertArrayEquals(Arrays.copyOf(healths.packed(), healths.size()), members);
  }

  private static float sum;

  /** A pass allocates nothing: the remembered alignment is refreshed in place. */
  @Test
  void aPassAllocatesNothing() {
    alive = AliveQuery.of(registry);
    for (int i = 0; i < 1_000; i++) {
      create(true, true);
    }
    final AliveQuery.Visitor visitor = (e, spot, health) -> sum += spot.x() + health.value();
    final Runnable append = () -> create(true, true);
    for (int i = 0; i < 2_000; i++) {
      alive.each(visitor);
    }
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 20; i++) {
        alive.each(visitor);
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
    }
    assertEquals(0, least, "bytes allocated by 20 passes");
    append.run(); // after an append, the next pass compares only the tail: still nothing
    least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long before = threads.getThreadAllocatedBytes(id);
      alive.each(visitor);
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
    }
    assertEquals(0, least, "bytes allocated by a pass after an append");
  }
}
