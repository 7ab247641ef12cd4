package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Queries with optional terms against a plain model. Seeded runs change the world between passes
 * (creations with any mix of components, destroys, each component removed or added, a storage
 * sorted) and, during passes, the visited entity's optional components (written through the cursor,
 * removed, added). Every pass must visit exactly the model's members, each once and the same
 * entities as the query without the optional terms, with each optional cursor on the entity's own
 * values when it has the component and {@code null} when it has not, and a tag's presence right.
 */
class OptionalTermsTest {

  private final Registry registry = new Registry();
  private final Position_Storage positions = registry.storage(Position_Traits.TYPE);
  private final Boost_Storage boosts = registry.storage(Boost_Traits.TYPE);
  private final Charge_Storage charges = registry.storage(Charge_Traits.TYPE);
  private final Map<Long, float[]> positionModel = new HashMap<>();
  private final Map<Long, float[]> boostModel = new HashMap<>();
  private final Map<Long, Integer> chargeModel = new HashMap<>();
  private final Set<Long> marked = new HashSet<>();
  private final Set<Long> frozen = new HashSet<>();
  private final List<Long> live = new ArrayList<>();
  private int counter;

  // -----------------------------------------------------------------------------------------------
  // The model.
  // -----------------------------------------------------------------------------------------------

  private void create(final Random random) {
    final long e = registry.create();
    live.add(e);
    if (random.nextInt(4) != 0) {
      addPosition(e);
    }
    if (random.nextBoolean()) {
      addBoost(e);
    }
    if (random.nextBoolean()) {
      addCharge(e);
    }
    if (random.nextInt(3) == 0) {
      mark(e);
    }
    if (random.nextInt(8) == 0) {
      freeze(e);
    }
  }

  private void addPosition(final long e) {
    final float x = counter++;
    positions.emplace(e, x, -x);
    positionModel.put(e, new float[] {x, -x});
  }

  private void addBoost(final long e) {
    final float x = counter++;
    boosts.emplace(e, x, x / 2);
    boostModel.put(e, new float[] {x, x / 2});
  }

  private void addCharge(final long e) {
    final int level = counter++;
    charges.emplace(e, level);
    chargeModel.put(e, level);
  }

  private void mark(final long e) {
    registry.emplace(e, Marked_Traits.TYPE, new Marked());
    marked.add(e);
  }

  private void freeze(final long e) {
    registry.emplace(e, Frozen_Traits.TYPE, new Frozen());
    frozen.add(e);
  }

  private void removeBoost(final long e) {
    assertTrue(boosts.remove(e));
    boostModel.remove(e);
  }

  private void toggleMark(final long e) {
    if (marked.remove(e)) {
      registry.remove(e, Marked_Traits.TYPE);
    } else {
      mark(e);
    }
  }

  private void destroy(final long e) {
    registry.destroy(e);
    live.remove(e);
    positionModel.remove(e);
    boostModel.remove(e);
    chargeModel.remove(e);
    marked.remove(e);
    frozen.remove(e);
  }

  /** The entities with a position and no frozen tag: whatever their optional components. */
  private Set<Long> placed() {
    final Set<Long> members = new HashSet<>();
    for (final long e : live) {
      if (positionModel.containsKey(e) && !frozen.contains(e)) {
        members.add(e);
      }
    }
    return members;
  }

  private long pick(final Random random) {
    return live.get(random.nextInt(live.size()));
  }

  /** One change between passes. */
  private void changeBetween(final Random random) {
    final int op = random.nextInt(12);
    if (op < 4 || live.size() < 8) {
      create(random);
      return;
    }
    final long e = pick(random);
    switch (op) {
      case 4 -> destroy(e);
      case 5 -> {
        if (boostModel.containsKey(e)) {
          removeBoost(e);
        } else {
          addBoost(e);
        }
      }
      case 6 -> toggleMark(e);
      case 7 -> {
        if (positions.remove(e)) {
          positionModel.remove(e);
        } else {
          addPosition(e);
        }
      }
      case 8 -> {
        if (frozen.remove(e)) {
          registry.remove(e, Frozen_Traits.TYPE);
        } else {
          freeze(e);
        }
      }
      case 9 -> {
        if (charges.remove(e)) {
          chargeModel.remove(e);
        } else {
          addCharge(e);
        }
      }
      case 10 -> boosts.sort((a, b) -> Long.compare(b, a)); // off the lead's order
      default -> positions.sort(Long::compare);
    }
  }

  /**
   * Checks an optional boost against the model: on the entity's values when it has one, null when
   * it has none.
   */
  private void assertBoost(final long e, final Boost_ReadCursor boost) {
    final float[] expected = boostModel.get(e);
    if (null == expected) {
      assertNull(boost, () -> "a boost cursor for " + e + ", which has no boost");
      return;
    }
    assertNotNull(boost, () -> "no boost cursor for " + e + ", which has one");
    assertEquals(e, boost.currentEntity());
    assertEquals(expected[0], boost.x());
    assertEquals(expected[1], boost.y());
  }

  private void assertPosition(final long e, final Position_Cursor position) {
    assertEquals(e, position.currentEntity());
    assertEquals(positionModel.get(e)[0], position.x());
    assertEquals(positionModel.get(e)[1], position.y());
  }

  /** During a pass: change the visited entity's optional components (not its membership). */
  private void changeVisited(final long e, final Boost_Cursor boost, final Random random) {
    final int op = random.nextInt(6);
    if (op == 0 && null != boost) {
      boost.setX(boost.x() + 1);
      boostModel.get(e)[0] += 1;
    } else if (op == 1 && null != boost) {
      removeBoost(e);
    } else if (op == 2 && null == boost) {
      addBoost(e);
    } else if (op == 3) {
      toggleMark(e);
    }
  }

  // -----------------------------------------------------------------------------------------------
  // Tests.
  // -----------------------------------------------------------------------------------------------

  @Test
  void aViewWithOptionalTermsVisitsWhatItWouldWithoutThem() {
    final BoostedQuery boosted = BoostedQuery.of(registry);
    final PlacedQuery placed = PlacedQuery.of(registry);
    for (int seed = 0; seed < 6; seed++) {
      final Random random = new Random(500 + seed);
      for (int pass = 0; pass < 60; pass++) {
        final int changes = random.nextInt(12);
        for (int i = 0; i < changes; i++) {
          changeBetween(random);
        }
        final Set<Long> expected = placed();
        final Set<Long> plain = new HashSet<>();
        placed.each((e, p) -> assertTrue(plain.add(e)));
        final Set<Long> seen = new HashSet<>();
        final boolean changing = random.nextBoolean();
        boosted.each(
            (e, p, b, m) -> {
              assertTrue(seen.add(e), () -> "visited twice: " + e);
              assertPosition(e, p);
              assertBoost(e, b);
              assertEquals(marked.contains(e), m, () -> "mark of " + e);
              if (changing) {
                // The view hands a read-only cursor; write through the storage's own.
                changeVisited(e, null == b ? null : boosts.cursor().moveToEntity(e), random);
              }
            });
        final String where = "seed " + seed + ", pass " + pass;
        assertEquals(expected, seen, where);
        assertEquals(plain, seen, where);
      }
    }
  }

  @Test
  void aNonOwningGroupWithOptionalTermsLooksThemUpPerMember() {
    final BoostedMembersQuery members = BoostedMembersQuery.of(registry);
    for (int seed = 0; seed < 6; seed++) {
      final Random random = new Random(600 + seed);
      for (int pass = 0; pass < 60; pass++) {
        final int changes = random.nextInt(12);
        for (int i = 0; i < changes; i++) {
          changeBetween(random);
        }
        final Set<Long> seen = new HashSet<>();
        final boolean changing = random.nextBoolean();
        members.each(
            (e, p, b, m) -> {
              assertTrue(seen.add(e), () -> "visited twice: " + e);
              assertPosition(e, p);
              assertBoost(e, b);
              assertEquals(marked.contains(e), m, () -> "mark of " + e);
              if (changing) {
                changeVisited(e, b, random);
              }
            });
        assertEquals(placed(), seen, "seed " + seed + ", pass " + pass);
        final Set<Long> inOrder = new HashSet<>();
        members.eachInOrder(
            (e, p, b, m) -> {
              assertTrue(inOrder.add(e));
              assertBoost(e, b);
              assertEquals(marked.contains(e), m);
            });
        assertEquals(placed(), inOrder, "in order: seed " + seed + ", pass " + pass);
      }
    }
  }

  @Test
  void anOwningGroupLooksItsOptionalTermUpAndEachChangedSinceIgnoresIt() {
    final ChargedQuery charged = ChargedQuery.of(registry);
    final Random random = new Random(700);
    for (int pass = 0; pass < 80; pass++) {
      final int changes = random.nextInt(12);
      for (int i = 0; i < changes; i++) {
        changeBetween(random);
      }
      final Set<Long> seen = new HashSet<>();
      charged.each(
          (e, c, b) -> {
            assertTrue(seen.add(e));
            assertEquals(chargeModel.get(e), c.level());
            assertBoost(e, b);
            changeVisited(e, b, random);
          });
      assertEquals(chargeModel.keySet(), seen, "pass " + pass);
    }
    // A written boost does not make a member changed; a written charge does, and its boost comes
    // along.
    final long tick = registry.advanceChangeTick();
    final List<Long> members = new ArrayList<>(chargeModel.keySet());
    long boostedOnly = -1;
    long chargedOnly = -1;
    for (final long e : members) {
      if (boostModel.containsKey(e) && boostedOnly < 0) {
        boostedOnly = e;
        boosts.setX(e, 99f);
        boostModel.get(e)[0] = 99f;
      } else if (chargedOnly < 0) {
        chargedOnly = e;
        charges.setLevel(e, -1);
        chargeModel.put(e, -1);
      }
    }
    assertTrue(boostedOnly >= 0 && chargedOnly >= 0);
    final Set<Long> changed = new HashSet<>();
    charged.eachChangedSince(
        tick,
        (e, c, b) -> {
          assertTrue(changed.add(e));
          assertEquals(chargeModel.get(e), c.level());
          assertBoost(e, b);
        });
    assertEquals(Set.of(chargedOnly), changed);
    assertTrue(boosts.changedSince(boostedOnly, tick));
  }

  @Test
  void theGuidesExampleScalesByTheBoostWhereThereIsOne() {
    final long plain = registry.create();
    positions.emplace(plain, 1f, 0f);
    final long boostedOnce = registry.create();
    positions.emplace(boostedOnce, 1f, 0f);
    boosts.emplace(boostedOnce, 3f, 0f);
    final long boostedTwice = registry.create();
    positions.emplace(boostedTwice, 1f, 0f);
    boosts.emplace(boostedTwice, 3f, 0f);
    registry.emplace(boostedTwice, Marked_Traits.TYPE, new Marked());
    // tag::optional[]
    final BoostedQuery boosted = BoostedQuery.of(registry);
    boosted.each(
        (entity, position, boost, marked) -> {
          final float dx = null == boost ? 0f : boost.x(); // null: this entity has no Boost
          position.setX(position.x() + (marked ? 2 * dx : dx));
        });
    // end::optional[]
    assertEquals(1f, positions.x(plain));
    assertEquals(4f, positions.x(boostedOnce));
    assertEquals(7f, positions.x(boostedTwice));
  }

  @Test
  void anOptionalTermAllocatesNothing() {
    final Random random = new Random(800);
    for (int i = 0; i < 2_000; i++) {
      create(random);
    }
    final BoostedQuery boosted = BoostedQuery.of(registry);
    final Sum sum = new Sum();
    for (int i = 0; i < 50; i++) {
      boosted.each(sum);
    }
    assertEquals(0, Allocations.allocatedBy(() -> boosted.each(sum)));
    assertFalse(sum.total == 0);
  }

  /** A visitor kept in a field, so that a pass allocates no lambda. */
  private static final class Sum implements BoostedQuery.Visitor {
    private double total;

    @Override
    public void visit(
        final long entity,
        final Position_Cursor position,
        final Boost_ReadCursor boost,
        final boolean marked) {
      total += position.x() + (null == boost ? 0 : boost.x()) + (marked ? 1 : 0);
    }
  }
}
