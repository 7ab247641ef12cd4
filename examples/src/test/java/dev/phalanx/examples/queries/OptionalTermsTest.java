package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.EntityComparator;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * Queries with optional terms against a plain model. Seeded runs change the world between passes
 * (creations with any mix of components, destroys, each component removed or added, a storage
 * sorted) and, during passes, the visited entity's optional components (written through the cursor,
 * removed, added). Every pass must visit exactly the model's members, each once and the same
 * entities as the query without the optional terms, with each optional cursor on the entity's own
 * values when it has the component and {@code null} when it has not, and a tag's presence right.
 *
 * <p>{@link Steered} and {@link SteeredMembers} have optional terms of their page size (8), whose
 * cursors walk the runs that their storages hold at the lead's positions: their worlds fill each
 * optional storage in the lead's order, then spoil that order in one way or another (outsiders in
 * some places, entities left out, a prefix only, neighbours swapped, a sort), and their visitors
 * remove optional components ahead of the loop, so that a run trusted to agree when it does not
 * hands a cursor to an entity without the component, or one on another entity's values.
 */
class OptionalTermsTest {

  private final Registry registry = new Registry();
  private final Position_Storage positions = registry.storage(Position_Traits.TYPE);
  private final Boost_Storage boosts = registry.storage(Boost_Traits.TYPE);
  private final Charge_Storage charges = registry.storage(Charge_Traits.TYPE);
  private final Map<Long, float[]> positionModel = new HashMap<>();
  private final Map<Long, float[]> boostModel = new HashMap<>();
  private final Map<Long, Integer> chargeModel = new HashMap<>();
  private final Heading_Storage headings = registry.storage(Heading_Traits.TYPE);
  private final Trail_Storage trails = registry.storage(Trail_Traits.TYPE);
  private final Map<Long, Float> headingModel = new HashMap<>();
  private final Map<Long, Float> trailModel = new HashMap<>();
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
    headingModel.remove(e);
    trailModel.remove(e);
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

  // -----------------------------------------------------------------------------------------------
  // Optional terms walked with the lead: Steered and SteeredMembers, pages of 8.
  // -----------------------------------------------------------------------------------------------

  /** The ways {@link #fill} spoils the lead's order in an optional storage. */
  private enum Layout {
    /** The lead's order: every run agrees. */
    SAME,
    /** Some places taken by outsiders: the runs holding them disagree, the others agree. */
    OUTSIDERS_AMONG,
    /** Some entities left out (partially present): every position after the first one shifts. */
    GAPS,
    /** A prefix only, ending anywhere: the runs past it are not held. */
    PREFIX,
    /** Some neighbours swapped, on a page or across a page boundary. */
    SWAPS,
    /** Outsiders first: nothing agrees. */
    OUTSIDERS_FIRST,
    /** Outsiders after the lead's entities: every run still agrees. */
    OUTSIDERS_AFTER,
    /** None: every entity gets {@code null}. */
    NONE
  }

  /** Creates {@code n} entities with a heading: both queries' leads hold them in this order. */
  private List<Long> steer(final int n) {
    final List<Long> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      live.add(e);
      addHeading(e);
      order.add(e);
    }
    return order;
  }

  private void addHeading(final long e) {
    final float angle = counter++;
    headings.emplace(e, angle);
    headingModel.put(e, angle);
  }

  private void addTrail(final long e) {
    final float length = counter++;
    trails.emplace(e, length);
    trailModel.put(e, length);
  }

  /** An entity with no heading, to take a place in an optional storage. */
  private long outsider() {
    final long e = registry.create();
    live.add(e);
    return e;
  }

  /** Gives the entities of {@code order} an optional component through {@code add}, laid out so. */
  private void fill(
      final List<Long> order, final LongConsumer add, final Layout layout, final Random random) {
    final List<Long> filled = new ArrayList<>();
    for (final long e : order) {
      if (Layout.OUTSIDERS_AMONG == layout && random.nextInt(6) == 0) {
        filled.add(outsider());
      } else if (Layout.GAPS != layout || random.nextInt(6) != 0) {
        filled.add(e);
      }
    }
    if (Layout.SWAPS == layout) {
      for (int i = 1; i < filled.size(); i += 1 + random.nextInt(8)) {
        filled.set(i - 1, filled.set(i, filled.get(i - 1)));
      }
    }
    if (Layout.OUTSIDERS_FIRST == layout) {
      filled.add(0, outsider());
    }
    final int end = Layout.PREFIX == layout ? random.nextInt(filled.size() + 1) : filled.size();
    for (final long e : Layout.NONE == layout ? List.<Long>of() : filled.subList(0, end)) {
      add.accept(e);
    }
    if (Layout.OUTSIDERS_AFTER == layout) {
      add.accept(outsider());
      add.accept(outsider());
    }
  }

  /** Sorts the boosts and trails into the lead's order again (outsiders last): runs agree again. */
  private void sortLikeTheLead(final SparseSet lead) {
    final EntityComparator likeLead =
        (a, b) -> {
          final int byLead =
              Integer.compare(
                  lead.contains(a) ? lead.index(a) : Integer.MAX_VALUE,
                  lead.contains(b) ? lead.index(b) : Integer.MAX_VALUE);
          return 0 != byLead ? byLead : Long.compare(a, b);
        };
    boosts.sort(likeLead);
    trails.compact(); // an in-place storage sorts without its tombstones
    trails.sort(likeLead);
  }

  private void dropBoost(final long e) {
    if (boostModel.containsKey(e)) {
      removeBoost(e);
    }
  }

  private void dropTrail(final long e) {
    if (trailModel.containsKey(e)) {
      assertTrue(trails.remove(e));
      trailModel.remove(e);
    }
  }

  /** What {@link #steeredPass} checks of a visit: both queries' visitors, read-only. */
  @FunctionalInterface
  private interface Steer {
    void visit(
        long entity, Heading_ReadCursor heading, Boost_ReadCursor boost, Trail_ReadCursor trail);
  }

  /** A query's pass over the steered entities, handing each visit to a {@link Steer}. */
  @FunctionalInterface
  private interface SteeredEach {
    void each(Steer steer);
  }

  private static SteeredEach each(final SteeredQuery query) {
    return steer -> query.each(steer::visit);
  }

  private static SteeredEach each(final SteeredMembersQuery query) {
    return steer -> query.each(steer::visit);
  }

  /**
   * Runs {@code each} once, checking every visit against the model and that every entity with a
   * heading is visited once; {@code during} runs after each check, with the entity's position in
   * {@code lead}.
   */
  private void steeredPass(final SparseSet lead, final SteeredEach each, final IntConsumer during) {
    final Set<Long> expected = new HashSet<>(headingModel.keySet());
    final Set<Long> seen = new HashSet<>();
    each.each(
        (e, heading, boost, trail) -> {
          assertTrue(seen.add(e), () -> "visited twice: " + e);
          assertEquals(e, heading.currentEntity());
          assertEquals(headingModel.get(e), heading.angle());
          assertBoost(e, boost);
          final Float length = trailModel.get(e);
          if (null == length) {
            assertNull(trail, () -> "a trail cursor for " + e + ", which has no trail");
          } else {
            assertNotNull(trail, () -> "no trail cursor for " + e + ", which has one");
            assertEquals(e, trail.currentEntity());
            assertEquals(length, trail.length());
          }
          during.accept(lead.index(e));
        });
    assertEquals(expected, seen);
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  /** Runs a pass of the view, then one of the group, changing nothing during them. */
  private void steeredPasses(final SteeredQuery view, final SteeredMembersQuery members) {
    steeredPass(view.view().leader(), each(view), at -> {});
    steeredPass(members.group().members(), each(members), at -> {});
  }

  /**
   * A change during a pass, around the visited entity at {@code at} of {@code lead}: removes or
   * adds optional components of it, of entities ahead (visited later) or behind (visited already).
   */
  private void changeAround(final SparseSet lead, final int at, final Random random) {
    final long e = lead.packed()[at];
    final int ahead = at - 1 - random.nextInt(10);
    final long next = ahead >= 0 ? lead.packed()[ahead] : e;
    final int behind = at + 1 + random.nextInt(10);
    final long last = behind < lead.size() ? lead.packed()[behind] : e;
    switch (random.nextInt(24)) {
      case 0 -> dropBoost(next);
      case 1 -> dropTrail(next);
      case 2 -> dropBoost(e);
      case 3 -> dropTrail(e);
      case 4 -> dropBoost(last);
      case 5 -> dropTrail(last);
      case 6 -> {
        if (!boostModel.containsKey(next)) {
          addBoost(next);
        }
      }
      case 7 -> {
        if (!trailModel.containsKey(e)) {
          addTrail(e);
        }
      }
      default -> {
        // Most visits change nothing, so that runs stay whole.
      }
    }
  }

  @Test
  void anOptionalTermInTheLeadsOrderComesOnEveryEntityOfEveryPage() {
    final SteeredQuery view = SteeredQuery.of(registry);
    final SteeredMembersQuery members = SteeredMembersQuery.of(registry);
    final List<Long> order = steer(8 * 4 + 3);
    final Random random = new Random(900);
    fill(order, this::addBoost, Layout.SAME, random);
    fill(order, this::addTrail, Layout.OUTSIDERS_AFTER, random);
    steeredPasses(view, members);
    steeredPasses(view, members);
  }

  @Test
  void anOptionalTermOutOfPlaceOnSomePagesIsLookedUpThere() {
    final SteeredQuery view = SteeredQuery.of(registry);
    final SteeredMembersQuery members = SteeredMembersQuery.of(registry);
    final List<Long> order = steer(8 * 5 + 3);
    // Outsiders take the first place of page 1 and the last of page 3: a walk of those pages would
    // hand their boosts to the members there, which have none.
    for (int i = 0; i < order.size(); i++) {
      addBoost(i == 8 || i == 31 ? outsider() : order.get(i));
    }
    // Trails on the first two pages and half of the third only: the storage ends mid-page.
    for (int i = 0; i < 8 * 2 + 4; i++) {
      addTrail(order.get(i));
    }
    steeredPasses(view, members);
    // Page 2 loses its last boost and every position after it shifts: only pages 0 and 1 agree.
    dropBoost(order.get(23));
    steeredPasses(view, members);
  }

  @Test
  void anOptionalStorageSortedOtherwiseIsLookedUpUntilSortedBack() {
    final SteeredQuery view = SteeredQuery.of(registry);
    final SteeredMembersQuery members = SteeredMembersQuery.of(registry);
    final List<Long> order = steer(8 * 3 + 5);
    final Random random = new Random(901);
    fill(order, this::addBoost, Layout.SAME, random);
    fill(order, this::addTrail, Layout.SAME, random);
    steeredPasses(view, members);
    boosts.sort((a, b) -> Long.compare(b, a));
    trails.sort((a, b) -> Long.compare(a ^ 5, b ^ 5));
    steeredPasses(view, members);
    sortLikeTheLead(view.view().leader());
    steeredPasses(view, members);
  }

  @Test
  void optionalComponentsRemovedAheadDuringAPassEndTheirWalk() {
    final SteeredQuery view = SteeredQuery.of(registry);
    final SteeredMembersQuery members = SteeredMembersQuery.of(registry);
    final Random random = new Random(902);
    for (int round = 0; round < 4; round++) {
      final boolean group = 1 == round % 2;
      final boolean trail = round >= 2;
      final List<Long> order = steer(8 * 4 + 3);
      fill(order, this::addBoost, Layout.SAME, random);
      fill(order, this::addTrail, Layout.SAME, random);
      final SparseSet lead = group ? members.group().members() : view.view().leader();
      // At offset 5 of each page, the entity two places ahead loses its boost (swap-and-pop moves
      // the last boost into its place) or its trail (in-place deletion leaves a tombstone there):
      // either way it has none, and a walk that went on would hand it a cursor.
      steeredPass(
          lead,
          group ? each(members) : each(view),
          at -> {
            if (at % 8 == 5) {
              final long ahead = lead.packed()[at - 2];
              if (trail) {
                dropTrail(ahead);
              } else {
                dropBoost(ahead);
              }
            }
          });
      steeredPasses(view, members);
      registry.clear();
      live.clear();
      headingModel.clear();
      boostModel.clear();
      trailModel.clear();
    }
  }

  @Test
  void optionalTermsMatchTheModelWhateverTheirStoragesOrder() {
    final SteeredQuery view = SteeredQuery.of(registry);
    final SteeredMembersQuery members = SteeredMembersQuery.of(registry);
    final Layout[] layouts = Layout.values();
    for (int seed = 0; seed < 40; seed++) {
      final Random random = new Random(1000 + seed);
      final List<Long> order = steer(1 + random.nextInt(8 * 7));
      fill(order, this::addBoost, layouts[random.nextInt(layouts.length)], random);
      fill(order, this::addTrail, layouts[random.nextInt(layouts.length)], random);
      for (int pass = 0; pass < 8; pass++) {
        final SparseSet lead = pass % 2 == 0 ? view.view().leader() : members.group().members();
        final boolean changing = random.nextBoolean();
        steeredPass(
            lead,
            pass % 2 == 0 ? each(view) : each(members),
            at -> {
              if (changing) {
                changeAround(lead, at, random);
              }
            });
        switch (random.nextInt(5)) {
          case 0 -> sortLikeTheLead(lead);
          case 1 -> boosts.sort((a, b) -> Long.compare(b, a));
          case 2 -> {
            // A newcomer with every component, appended in every storage.
            final long e = steer(1).get(0);
            addBoost(e);
            addTrail(e);
          }
          case 3 -> {
            if (!headingModel.isEmpty()) {
              destroy(headingModel.keySet().iterator().next());
            }
          }
          default -> {
            // The next pass sees the storages as this one left them.
          }
        }
      }
      registry.clear();
      live.clear();
      headingModel.clear();
      boostModel.clear();
      trailModel.clear();
    }
  }

  @Test
  void walkedOptionalTermsAllocateNothing() {
    final SteeredQuery view = SteeredQuery.of(registry);
    final SteeredMembersQuery members = SteeredMembersQuery.of(registry);
    final Random random = new Random(903);
    final List<Long> order = steer(8 * 200);
    // Boosts walked on every page, trails on some pages and looked up on the others.
    fill(order, this::addBoost, Layout.SAME, random);
    fill(order, this::addTrail, Layout.OUTSIDERS_AMONG, random);
    final SteeredSum sum = new SteeredSum();
    for (int i = 0; i < 50; i++) {
      view.each(sum);
      members.each(sum);
    }
    assertEquals(0, Allocations.allocatedBy(() -> view.each(sum)));
    assertEquals(0, Allocations.allocatedBy(() -> members.each(sum)));
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

  /** A visitor of both steered queries kept in a field, so that a pass allocates no lambda. */
  private static final class SteeredSum
      implements SteeredQuery.Visitor, SteeredMembersQuery.Visitor {
    private double total;

    @Override
    public void visit(
        final long entity,
        final Heading_Cursor heading,
        final Boost_Cursor boost,
        final Trail_ReadCursor trail) {
      total += heading.angle() + (null == boost ? 0 : boost.x()) + (null == trail ? 0 : 1);
    }

    @Override
    public void visit(
        final long entity,
        final Heading_Cursor heading,
        final Boost_Cursor boost,
        final Trail_Cursor trail) {
      total += heading.angle() + (null == boost ? 0 : boost.x()) + (null == trail ? 0 : 1);
    }
  }
}
