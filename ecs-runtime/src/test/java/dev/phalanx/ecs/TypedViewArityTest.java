package dev.phalanx.ecs;

import static dev.phalanx.ecs.CursorFixtures.TA;
import static dev.phalanx.ecs.CursorFixtures.TB;
import static dev.phalanx.ecs.CursorFixtures.TC;
import static dev.phalanx.ecs.CursorFixtures.TD;
import static dev.phalanx.ecs.CursorFixtures.TP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.CursorFixtures.A;
import dev.phalanx.ecs.CursorFixtures.B;
import dev.phalanx.ecs.CursorFixtures.C;
import dev.phalanx.ecs.CursorFixtures.D;
import dev.phalanx.ecs.CursorFixtures.IntCursor;
import dev.phalanx.ecs.CursorFixtures.IntStorage;
import dev.phalanx.ecs.CursorFixtures.P;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Typed views of every arity ({@link View1} to {@link View4}) under every choice of leader: the
 * cursors always point at the visited entity's elements, holes of an in-place leader are skipped,
 * exclusions apply, and the iteration guard knows the visited position.
 */
class TypedViewArityTest {

  private static final int COUNT = 48;

  private final Registry registry = new Registry();
  private final IntStorage<A> as = registry.storage(TA);
  private final IntStorage<B> bs = registry.storage(TB);
  private final IntStorage<C> cs = registry.storage(TC);
  private final IntStorage<D> ds = registry.storage(TD);
  private final long[] entities = new long[COUNT];

  /** Entity i has A(i), B(i) unless i % 5 == 0, C(i) unless i % 7 == 0, D(i) unless i % 3 == 0. */
  private void populate() {
    for (int i = 0; i < COUNT; i++) {
      final long e = registry.create();
      entities[i] = e;
      registry.emplace(e, TA, new A(i));
      if (0 != i % 5) {
        registry.emplace(e, TB, new B(i));
      }
      if (0 != i % 7) {
        registry.emplace(e, TC, new C(i));
      }
      if (0 != i % 3) {
        registry.emplace(e, TD, new D(i));
      }
    }
    // Scatter the positions so that no two storages line up.
    bs.sort(Long::compare);
    cs.sort((l, r) -> Long.compare(r, l));
    ds.sort((l, r) -> Integer.compare(Entity.index(l) % 4, Entity.index(r) % 4));
  }

  private Set<Long> expected(final IntStorage<?>... sets) {
    final Set<Long> result = new HashSet<>();
    for (final long e : entities) {
      boolean all = true;
      for (final IntStorage<?> set : sets) {
        all &= set.contains(e);
      }
      if (all) {
        result.add(e);
      }
    }
    return result;
  }

  /** Checks that {@code cursor} is on {@code entity}'s element, whose value is its index. */
  private static void assertOn(final IntCursor cursor, final long entity) {
    assertEquals(cursor.storage().index(entity), cursor.currentPosition());
    assertEquals(Entity.index(entity), cursor.value());
  }

  /** Every arity, led by each of its sets in turn, visits its entities with cursors on them. */
  @Test
  void everyLeaderPositionsEveryCursorOnTheVisitedEntity() {
    populate();
    final IntStorage<?>[] sets = {as, bs, cs, ds};
    for (final IntStorage<?> lead : sets) {
      final Set<Long> one = new HashSet<>();
      registry.typedView(TA).leadBy(as).each((e, a) -> assertOn(a, e));
      final Set<Long> two = new HashSet<>();
      final Set<Long> three = new HashSet<>();
      final Set<Long> four = new HashSet<>();
      if (lead == as || lead == bs) {
        registry
            .typedView(TA, TB)
            .leadBy(lead)
            .each(
                (e, a, b) -> {
                  assertOn(a, e);
                  assertOn(b, e);
                  assertTrue(two.add(e));
                });
        assertEquals(expected(as, bs), two);
      }
      if (lead != ds) {
        registry
            .typedView(TA, TB, TC)
            .leadBy(lead)
            .each(
                (e, a, b, c) -> {
                  assertOn(a, e);
                  assertOn(b, e);
                  assertOn(c, e);
                  assertTrue(three.add(e));
                });
        assertEquals(expected(as, bs, cs), three);
      }
      registry
          .typedView(TA, TB, TC, TD)
          .leadBy(lead)
          .each(
              (e, a, b, c, d) -> {
                assertOn(a, e);
                assertOn(b, e);
                assertOn(c, e);
                assertOn(d, e);
                assertTrue(four.add(e));
              });
      assertEquals(expected(as, bs, cs, ds), four, lead.describe());
      registry.typedView(TA).each((e, a) -> one.add(e));
      assertEquals(COUNT, one.size());
    }
  }

  /** exclude() on a typed view of each arity returns a typed view that skips the excluded. */
  @Test
  void excludeAndLeadByKeepEveryArityWorking() {
    populate();
    final Set<Long> one = new HashSet<>();
    registry.typedView(TA).exclude(bs).each((e, a) -> one.add(e));
    assertEquals(expected(as), union(one, expected(as, bs)));
    assertTrue(disjoint(one, expected(bs)));

    final Set<Long> three = new HashSet<>();
    registry
        .typedView(TA, TB, TC)
        .exclude(ds)
        .each(
            (e, a, b, c) -> {
              assertOn(c, e);
              three.add(e);
            });
    final Set<Long> abc = expected(as, bs, cs);
    abc.removeAll(expected(ds));
    assertEquals(abc, three);

    final Set<Long> four = new HashSet<>();
    registry
        .typedView(TA, TB, TC, TD)
        .leadBy(as)
        .exclude(registry.storage(TP))
        .each(
            (e, a, b, c, d) -> {
              assertOn(d, e);
              four.add(e);
            });
    assertEquals(expected(as, bs, cs, ds), four);

    final Set<Long> led = new HashSet<>();
    registry.typedView(TA, TB, TC).leadBy(cs).each((e, a, b, c) -> led.add(e));
    assertEquals(expected(as, bs, cs), led);
  }

  private static Set<Long> union(final Set<Long> a, final Set<Long> b) {
    final Set<Long> result = new HashSet<>(a);
    result.addAll(b);
    return result;
  }

  private static boolean disjoint(final Set<Long> a, final Set<Long> b) {
    for (final long e : a) {
      if (b.contains(e)) {
        return false;
      }
    }
    return true;
  }

  /** A typed view that names one in-place storage several times never visits its holes. */
  @Test
  void anInPlaceStorageNamedOnceOrSeveralTimesSkipsItsHoles() {
    final IntStorage<P> ps = registry.storage(TP);
    final List<Long> live = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      final long e = registry.create();
      registry.emplace(e, TP, new P(i));
      live.add(e);
    }
    for (final int i : new int[] {0, 5, 11}) {
      registry.remove(live.get(i), TP);
    }
    live.remove(11);
    live.remove(5);
    live.remove(0);
    assertTrue(ps.hasTombstones());
    final Set<Long> expected = new HashSet<>(live);

    final Set<Long> one = new HashSet<>();
    registry.typedView(TP).each((e, p) -> assertTrue(one.add(e)));
    assertEquals(expected, one);
    final Set<Long> two = new HashSet<>();
    registry.typedView(TP, TP).each((e, p, q) -> assertTrue(two.add(e)));
    assertEquals(expected, two);
    final Set<Long> three = new HashSet<>();
    registry.typedView(TP, TP, TP).each((e, p, q, r) -> assertTrue(three.add(e)));
    assertEquals(expected, three);
    final Set<Long> four = new HashSet<>();
    registry.typedView(TP, TP, TP, TP).each((e, p, q, r, s) -> assertTrue(four.add(e)));
    assertEquals(expected, four);
  }

  /**
   * Each arity tells the guard which position it visits: removing an entity still to come from the
   * swap-and-pop leader is refused, removing the visited one is allowed.
   */
  @Test
  void everyArityRefusesToMoveAnEntityStillToComeAcrossTheVisitedPosition() {
    populate();
    final List<Consumer<Runnable>> loops =
        List.of(
            body -> registry.typedView(TA).each((e, a) -> body.run()),
            body -> registry.typedView(TA, TB).leadBy(as).each((e, a, b) -> body.run()),
            body -> registry.typedView(TA, TB, TC).leadBy(as).each((e, a, b, c) -> body.run()),
            body ->
                registry.typedView(TA, TB, TC, TD).leadBy(as).each((e, a, b, c, d) -> body.run()));
    for (final Consumer<Runnable> loop : loops) {
      final long firstOfA = as.packed()[0]; // visited last
      final int size = as.size();
      assertThrows(
          ConcurrentModificationException.class,
          () -> loop.accept(() -> registry.remove(firstOfA, TA)));
      assertTrue(as.contains(firstOfA));
      assertEquals(size, as.size());
      assertFalse(as.isIterated());
    }
  }

  /** Each arity allows the visited entity to lose its leading component, and visits all once. */
  @Test
  void everyArityAllowsRemovingTheVisitedEntity() {
    final List<Consumer<Consumer<Long>>> loops =
        List.of(
            body -> registry.typedView(TA).each((e, a) -> body.accept(e)),
            body -> registry.typedView(TA, TB).leadBy(as).each((e, a, b) -> body.accept(e)),
            body -> registry.typedView(TA, TB, TC).leadBy(as).each((e, a, b, c) -> body.accept(e)),
            body ->
                registry
                    .typedView(TA, TB, TC, TD)
                    .leadBy(as)
                    .each((e, a, b, c, d) -> body.accept(e)));
    for (final Consumer<Consumer<Long>> loop : loops) {
      final Set<Long> members = new HashSet<>();
      for (int i = 0; i < 6; i++) {
        final long e = registry.create();
        registry.emplace(e, TA, new A(i));
        registry.emplace(e, TB, new B(i));
        registry.emplace(e, TC, new C(i));
        registry.emplace(e, TD, new D(i));
        members.add(e);
      }
      final Set<Long> visited = new HashSet<>();
      loop.accept(
          e -> {
            assertTrue(visited.add(e));
            registry.remove(e, TA);
          });
      assertEquals(members, visited);
      assertEquals(0, as.size());
    }
  }

  /** The refusal of a nested each names the view's arity and sets, in order. */
  @Test
  void aNestedEachNamesTheViewAndItsSets() {
    populate();
    final View2<IntCursor, IntCursor> view = registry.typedView(TA, TB);
    final IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> view.each((e, a, b) -> view.each((f, a2, b2) -> {})));
    assertTrue(
        refused.getMessage().startsWith("View2 over storage of A, storage of B is already"),
        refused.getMessage());
  }
}
