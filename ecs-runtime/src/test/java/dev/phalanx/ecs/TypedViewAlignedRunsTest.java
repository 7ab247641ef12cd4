package dev.phalanx.ecs;

import static dev.phalanx.ecs.CursorFixtures.TA;
import static dev.phalanx.ecs.CursorFixtures.TE;
import static dev.phalanx.ecs.CursorFixtures.TF;
import static dev.phalanx.ecs.CursorFixtures.TG;
import static dev.phalanx.ecs.CursorFixtures.TH;
import static dev.phalanx.ecs.CursorFixtures.TP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.CursorFixtures.A;
import dev.phalanx.ecs.CursorFixtures.E;
import dev.phalanx.ecs.CursorFixtures.F;
import dev.phalanx.ecs.CursorFixtures.G;
import dev.phalanx.ecs.CursorFixtures.H;
import dev.phalanx.ecs.CursorFixtures.IntCursor;
import dev.phalanx.ecs.CursorFixtures.IntStorage;
import dev.phalanx.ecs.CursorFixtures.P;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Typed views of every arity walk a run of the leader without lookups while the other storages hold
 * its entities at the same positions (same page size, filled in the same order), and test each
 * storage per entity once a visitor changes one. The visitor here breaks the alignment mid-run (a
 * component of an entity a few positions ahead removed, so another element moves into its place;
 * the visited entity destroyed; entities created); every entity that is a member when reached is
 * visited once, with every cursor on its own element.
 */
class TypedViewAlignedRunsTest {

  private static final int COUNT = 200;

  private final Registry registry = new Registry();
  private final IntStorage<E> es = registry.storage(TE);
  private final IntStorage<F> fs = registry.storage(TF);
  private final IntStorage<G> gs = registry.storage(TG);
  private final IntStorage<H> hs = registry.storage(TH);
  private final List<Long> members = new ArrayList<>();

  /** Entities with all four types in creation order, then F-, G- and H-only ones. */
  private void populate() {
    for (int i = 0; i < COUNT; i++) {
      members.add(createWithAll());
    }
    // Extra entities keep E the smallest storage, so E leads and the visitor may remove other
    // types from entities not visited yet.
    for (int i = 0; i < COUNT; i++) {
      final long e = registry.create();
      registry.emplace(e, TF, new F(-1));
      registry.emplace(e, TG, new G(-1));
      registry.emplace(e, TH, new H(-1));
    }
  }

  private long createWithAll() {
    final long e = registry.create();
    registry.emplace(e, TE, new E(1));
    registry.emplace(e, TF, new F(2));
    registry.emplace(e, TG, new G(3));
    registry.emplace(e, TH, new H(4));
    return e;
  }

  private Set<Long> expected(final int arity) {
    final Set<Long> pending = new HashSet<>();
    for (final long e : members) {
      if (registry.valid(e)
          && es.contains(e)
          && (arity < 2 || fs.contains(e))
          && (arity < 3 || gs.contains(e))
          && (arity < 4 || hs.contains(e))) {
        pending.add(e);
      }
    }
    return pending;
  }

  /** The visitor's changes after checking the visit of {@code e} at {@code position} of E. */
  private void visit(
      final int arity,
      final Set<Long> pending,
      final Random random,
      final long e,
      final int position,
      final IntCursor... cursors) {
    assertTrue(pending.remove(e), () -> "not a member when reached, or visited twice: " + e);
    for (final IntCursor cursor : cursors) {
      assertEquals(e, cursor.entity(), () -> "a cursor is not on " + e);
    }
    final int roll = random.nextInt(10);
    final int ahead = position - 1 - random.nextInt(4);
    if (roll < 3 && ahead >= 0 && pending.contains(es.packed()[ahead]) && arity > 1) {
      final long victim = es.packed()[ahead];
      // One of the other types: another element moves into the victim's place there.
      final IntStorage<?> storage = arity == 2 ? fs : (roll == 0 ? fs : roll == 1 ? gs : hs);
      if (storage != hs || arity == 4) {
        storage.remove(victim);
        pending.remove(victim);
      }
    } else if (roll == 3) {
      registry.destroy(e);
    } else if (roll == 4) {
      members.add(createWithAll());
    }
  }

  @Test
  void everyArityStaysCorrectWhenTheVisitorBreaksTheAlignment() {
    for (int seed = 0; seed < 20; seed++) {
      final Random random = new Random(seed);
      for (int arity = 1; arity <= 4; arity++) {
        // A fresh world per arity: every run starts aligned.
        populate();
        final Set<Long> pending = expected(arity);
        final int a = arity;
        switch (arity) {
          case 1 ->
              registry
                  .typedView(TE)
                  .each((e, ce) -> visit(a, pending, random, e, ce.currentPosition(), ce));
          case 2 ->
              registry
                  .typedView(TE, TF)
                  .leadBy(es)
                  .each((e, ce, cf) -> visit(a, pending, random, e, ce.currentPosition(), ce, cf));
          case 3 ->
              registry
                  .typedView(TE, TF, TG)
                  .leadBy(es)
                  .each(
                      (e, ce, cf, cg) ->
                          visit(a, pending, random, e, ce.currentPosition(), ce, cf, cg));
          default ->
              registry
                  .typedView(TE, TF, TG, TH)
                  .leadBy(es)
                  .each(
                      (e, ce, cf, cg, ch) ->
                          visit(a, pending, random, e, ce.currentPosition(), ce, cf, cg, ch));
        }
        assertEquals(Set.of(), pending, "seed " + seed + ", arity " + arity);
        assertTrue(registry.verify().isEmpty(), registry.verify().toString());
        registry.clear();
        members.clear();
      }
    }
  }

  /**
   * An in-place leader (P) with a swap-and-pop storage of the same page size (A), filled in the
   * same order. The visitor removes P from an entity ahead (allowed: it leaves a hole), then
   * creates an entity with P and A: P fills that hole below the visited position, A appends. The
   * run is no longer aligned there, which only the leader's stamp tells.
   */
  @Test
  void anInPlaceLeaderWhoseHoleIsFilledMidRunIsTestedPerEntity() {
    final IntStorage<P> ps = registry.storage(TP);
    final IntStorage<A> as = registry.storage(TA);
    for (int seed = 0; seed < 20; seed++) {
      final Random random = new Random(seed);
      final List<Long> created = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        final long e = registry.create();
        registry.emplace(e, TP, new P(i));
        registry.emplace(e, TA, new A(i));
        created.add(e);
      }
      final Set<Long> pending = new HashSet<>(created);
      registry
          .typedView(TP, TA)
          .leadBy(ps)
          .each(
              (e, cp, ca) -> {
                assertTrue(pending.remove(e), () -> "not a member when reached: " + e);
                assertEquals(e, cp.entity());
                assertEquals(e, ca.entity());
                final int ahead = cp.currentPosition() - 1 - random.nextInt(3);
                if (random.nextInt(3) == 0 && ahead >= 0 && pending.contains(ps.packed()[ahead])) {
                  final long victim = ps.packed()[ahead];
                  ps.remove(victim);
                  pending.remove(victim);
                  final long born = registry.create();
                  registry.emplace(born, TP, new P(-1));
                  registry.emplace(born, TA, new A(-1));
                  // It fills the hole below the visited position: it is visited too.
                  pending.add(born);
                }
              });
      assertEquals(Set.of(), pending, "seed " + seed);
      assertTrue(registry.verify().isEmpty(), registry.verify().toString());
      registry.clear();
    }
  }

  private static void check(final Set<Long> seen, final long e, final IntCursor... cursors) {
    assertTrue(seen.add(e), () -> "visited twice: " + e);
    for (final IntCursor cursor : cursors) {
      assertEquals(e, cursor.entity(), () -> "a cursor is not on " + e);
    }
  }

  /**
   * Every arity's each, from {@code firstArity} on (one type alone always), visits exactly {@code
   * expected}, each cursor on the visited entity.
   */
  private void assertEveryArityVisits(final Set<Long> expected, final int firstArity) {
    final Set<Long> seen1 = new HashSet<>();
    registry.typedView(TE).each((e, a) -> check(seen1, e, a));
    assertEquals(expected, seen1);
    if (firstArity <= 2) {
      final Set<Long> seen2 = new HashSet<>();
      registry.typedView(TE, TF).leadBy(es).each((e, a, b) -> check(seen2, e, a, b));
      assertEquals(expected, seen2, "arity 2");
    }
    if (firstArity <= 3) {
      final Set<Long> seen3 = new HashSet<>();
      registry.typedView(TE, TF, TG).leadBy(es).each((e, a, b, c) -> check(seen3, e, a, b, c));
      assertEquals(expected, seen3, "arity 3");
    }
    final Set<Long> seen4 = new HashSet<>();
    registry
        .typedView(TE, TF, TG, TH)
        .leadBy(es)
        .each((e, a, b, c, d) -> check(seen4, e, a, b, c, d));
    assertEquals(expected, seen4, "arity 4");
  }

  @Test
  void aViewOfOneEntityVisitsIt() {
    final long only = createWithAll();
    assertEveryArityVisits(Set.of(only), 1);
  }

  /**
   * A run aligned everywhere but at its last position (the first one visited): the comparison that
   * decides whether a run is aligned covers the whole run. Each of F, G, H in turn has its last two
   * elements swapped (the component of the second to last entity removed and added again).
   */
  @Test
  void aRunMisalignedOnlyAtItsTopIsTestedPerEntity() {
    for (final IntStorage<?> misaligned : List.of(fs, gs, hs)) {
      final Set<Long> all = new HashSet<>();
      for (int i = 0; i < 8; i++) {
        all.add(createWithAll());
      }
      final long secondToLast = es.packed()[6];
      if (misaligned == fs) {
        registry.remove(secondToLast, TF);
        registry.emplace(secondToLast, TF, new F(9));
      } else if (misaligned == gs) {
        registry.remove(secondToLast, TG);
        registry.emplace(secondToLast, TG, new G(9));
      } else {
        registry.remove(secondToLast, TH);
        registry.emplace(secondToLast, TH, new H(9));
      }
      assertEquals(secondToLast, misaligned.packed()[7]);
      assertEveryArityVisits(all, misaligned == fs ? 2 : misaligned == gs ? 3 : 4);
      registry.clear();
    }
  }

  /**
   * An in-place leader (P, pages of 4) with holes and three or four more types of another page
   * size: the runs are never aligned, each entity is tested, and the leader's holes are skipped.
   */
  @Test
  void anInPlaceLeaderOfAnotherPageSizeSkipsItsHolesAtEveryArity() {
    final IntStorage<P> ps = registry.storage(TP);
    final Set<Long> alive = new HashSet<>();
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      final long e = createWithAll();
      registry.emplace(e, TP, new P(i));
      all.add(e);
      alive.add(e);
    }
    for (int i = 0; i < all.size(); i += 4) {
      registry.destroy(all.get(i));
      alive.remove(all.get(i));
    }
    assertTrue(ps.hasTombstones());
    final Set<Long> seen3 = new HashSet<>();
    registry.typedView(TP, TE, TF).leadBy(ps).each((e, p, a, b) -> check(seen3, e, p, a, b));
    assertEquals(alive, seen3);
    final Set<Long> seen4 = new HashSet<>();
    registry
        .typedView(TP, TE, TF, TG)
        .leadBy(ps)
        .each((e, p, a, b, c) -> check(seen4, e, p, a, b, c));
    assertEquals(alive, seen4);
  }
}
