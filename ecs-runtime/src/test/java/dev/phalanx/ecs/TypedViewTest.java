package dev.phalanx.ecs;

import static dev.phalanx.ecs.CursorFixtures.TA;
import static dev.phalanx.ecs.CursorFixtures.TB;
import static dev.phalanx.ecs.CursorFixtures.TC;
import static dev.phalanx.ecs.CursorFixtures.TD;
import static dev.phalanx.ecs.CursorFixtures.TP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Typed views ({@link Registry#typedView}): the cursors they hand out point at the visited entity's
 * elements, and they keep every rule of a plain view (guards, exclusions, leaders), plus their own
 * (no nested iteration of one view object).
 */
class TypedViewTest {

  private static final int COUNT = 40;

  private final Registry registry = new Registry();
  private final IntStorage<A> as = registry.storage(TA);
  private final IntStorage<B> bs = registry.storage(TB);
  private final IntStorage<C> cs = registry.storage(TC);
  private final IntStorage<D> ds = registry.storage(TD);
  private final long[] entities = new long[COUNT];

  /**
   * Entity i has A(i); B(100 + i) if i is even; C(200 + i) if i is a multiple of 3; D(300 + i) if i
   * is a multiple of 4.
   */
  private void populate() {
    for (int i = 0; i < COUNT; i++) {
      final long e = registry.create();
      entities[i] = e;
      registry.emplace(e, TA, new A(i));
      if (0 == i % 2) {
        registry.emplace(e, TB, new B(100 + i));
      }
      if (0 == i % 3) {
        registry.emplace(e, TC, new C(200 + i));
      }
      if (0 == i % 4) {
        registry.emplace(e, TD, new D(300 + i));
      }
    }
  }

  private int indexOf(final long entity) {
    for (int i = 0; i < COUNT; i++) {
      if (entities[i] == entity) {
        return i;
      }
    }
    throw new AssertionError("unknown entity " + Entity.toString(entity));
  }

  /** Checks that {@code cursor} points at {@code entity}'s element in its storage. */
  private static void assertOn(final IntCursor cursor, final long entity) {
    assertEquals(entity, cursor.entity(), "cursor on another entity");
    assertEquals(cursor.storage().index(entity), cursor.currentPosition());
  }

  @Test
  void eachHandsCursorsOnTheVisitedEntityForEveryArity() {
    populate();
    final Set<Long> one = new HashSet<>();
    registry
        .typedView(TA)
        .each(
            (e, a) -> {
              assertOn(a, e);
              assertEquals(indexOf(e), a.value());
              assertTrue(one.add(e));
            });
    assertEquals(COUNT, one.size());

    final Set<Long> two = new HashSet<>();
    registry
        .typedView(TA, TB)
        .each(
            (e, a, b) -> {
              assertOn(a, e);
              assertOn(b, e);
              assertEquals(100 + a.value(), b.value());
              assertTrue(two.add(e));
            });
    assertEquals(COUNT / 2, two.size());

    final Set<Long> three = new HashSet<>();
    registry
        .typedView(TB, TA, TC)
        .each(
            (e, b, a, c) -> {
              assertEquals(100 + indexOf(e), b.value());
              assertEquals(indexOf(e), a.value());
              assertEquals(200 + indexOf(e), c.value());
              assertTrue(three.add(e));
            });
    assertEquals(7, three.size()); // 0, 6, 12, ..., 36

    final Set<Long> four = new HashSet<>();
    registry
        .typedView(TA, TB, TC, TD)
        .each(
            (e, a, b, c, d) -> {
              assertOn(d, e);
              assertEquals(300 + a.value(), d.value());
              assertEquals(200 + a.value(), c.value());
              assertTrue(four.add(e));
            });
    assertEquals(4, four.size()); // 0, 12, 24, 36
  }

  @Test
  void writesThroughTheCursorsLandInTheStorages() {
    populate();
    registry.typedView(TA, TB).each((e, a, b) -> b.setValue(b.value() + a.value()));
    for (int i = 0; i < COUNT; i += 2) {
      assertEquals(100 + 2 * i, registry.get(entities[i], TB).value());
    }
  }

  @Test
  void theCursorsAreMadeOnceAndEachAllocatesThemNoMore() {
    populate();
    final View2<IntCursor, IntCursor> view = registry.typedView(TA, TB);
    final List<IntCursor> firsts = new ArrayList<>();
    view.each((e, a, b) -> firsts.add(a));
    view.each((e, a, b) -> firsts.add(a));
    assertEquals(COUNT, firsts.size());
    for (final IntCursor cursor : firsts) {
      assertSame(firsts.get(0), cursor);
    }
  }

  @Test
  void aTypedViewIsAPlainViewToo() {
    populate();
    final View view = registry.typedView(TA, TB);
    final Set<Long> ids = new HashSet<>();
    view.each((long e) -> ids.add(e));
    assertEquals(COUNT / 2, ids.size());
    assertTrue(view.contains(entities[2]));
    assertFalse(view.contains(entities[3]));
    assertSame(bs, view.leader());
    final EntityIterator iterator = view.iterator();
    int n = 0;
    while (iterator.hasNext()) {
      assertTrue(ids.contains(iterator.nextLong()));
      n++;
    }
    assertEquals(COUNT / 2, n);
  }

  @Test
  void excludeAndLeadByKeepTheCursorTypesAndGetCursorsOfTheirOwn() {
    populate();
    final View2<IntCursor, IntCursor> view = registry.typedView(TA, TB);
    final View2<IntCursor, IntCursor> withoutC = view.exclude(cs);
    final View2<IntCursor, IntCursor> ledByA = view.leadBy(as);
    assertSame(as, ledByA.leader());
    final Set<Long> seen = new HashSet<>();
    withoutC.each(
        (e, a, b) -> {
          assertFalse(cs.contains(e));
          assertOn(a, e);
          assertOn(b, e);
          seen.add(e);
        });
    assertEquals(13, seen.size()); // 20 even entities minus the 7 multiples of 6
    final Set<Long> led = new HashSet<>();
    // Nested loops over distinct view objects are fine: each has its own cursors.
    ledByA.each(
        (e, a, b) -> {
          led.add(e);
          withoutC.each(
              (inner, a2, b2) -> {
                assertNotSame(a, a2);
                assertOn(a2, inner);
              });
          assertOn(a, e);
          assertOn(b, e);
        });
    assertEquals(COUNT / 2, led.size());
    // The excluded view keeps its leader.
    assertSame(as, ledByA.exclude(cs).leader());
  }

  @Test
  void aNestedEachOfTheSameViewObjectIsRefusedAndLeavesTheOuterCursorsAlone() {
    populate();
    final View2<IntCursor, IntCursor> view = registry.typedView(TA, TB);
    final int[] outer = {0};
    view.each(
        (e, a, b) -> {
          final int before = a.currentPosition();
          final IllegalStateException refused =
              assertThrows(IllegalStateException.class, () -> view.each((x, a2, b2) -> {}));
          assertTrue(refused.getMessage().contains("already iterating"), refused.getMessage());
          assertTrue(refused.getMessage().contains("A"), refused.getMessage());
          assertEquals(before, a.currentPosition());
          assertOn(a, e);
          outer[0]++;
        });
    assertEquals(COUNT / 2, outer[0]);
    // The plain forms of the same object do not use the cursors: nesting them is fine.
    final int[] pairs = {0};
    view.each((e, a, b) -> view.each((long x) -> pairs[0]++));
    assertEquals((COUNT / 2) * (COUNT / 2), pairs[0]);
  }

  @Test
  void aThrowingVisitorEndsTheIterationAndTheViewCanIterateAgain() {
    populate();
    final View1<IntCursor> view = registry.typedView(TA);
    assertThrows(
        IllegalArgumentException.class,
        () ->
            view.each(
                (e, a) -> {
                  throw new IllegalArgumentException("body");
                }));
    assertFalse(as.isIterated());
    final int[] n = {0};
    view.each((e, a) -> n[0]++);
    assertEquals(COUNT, n[0]);
    registry.destroy(entities[0]); // not refused: no guard left behind
  }

  @Test
  void removingTheVisitedEntityIsAllowedAndEveryOtherIsStillVisitedOnce() {
    populate();
    final Set<Long> seen = new HashSet<>();
    registry
        .typedView(TA, TB)
        .each(
            (e, a, b) -> {
              assertOn(a, e);
              assertOn(b, e);
              assertTrue(seen.add(e));
              registry.destroy(e);
            });
    assertEquals(COUNT / 2, seen.size());
    assertEquals(0, bs.size());
    assertEquals(COUNT / 2, as.size());
  }

  @Test
  void movingAnEntityStillToComeAcrossTheFloorIsRefusedBeforeAnythingChanges() {
    populate();
    final View2<IntCursor, IntCursor> view = registry.typedView(TA, TB); // led by B (20 elements)
    final long firstOfB = bs.packed()[0]; // visited last
    final ConcurrentModificationException refused =
        assertThrows(
            ConcurrentModificationException.class,
            () ->
                view.each(
                    (e, a, b) -> {
                      if (e != firstOfB) {
                        registry.remove(firstOfB, TB);
                      }
                    }));
    assertTrue(bs.contains(firstOfB), "the refused removal changed nothing");
    assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty());
    // The guard and the reentrancy flag were released.
    final int[] n = {0};
    view.each((e, a, b) -> n[0]++);
    assertEquals(COUNT / 2, n[0]);
  }

  @Test
  void entitiesAddedDuringTheIterationAreNotVisited() {
    populate();
    final int[] n = {0};
    registry
        .typedView(TA)
        .each(
            (e, a) -> {
              final long added = registry.create();
              registry.emplace(added, TA, new A(-1));
              assertTrue(a.value() >= 0);
              assertOn(a, e);
              n[0]++;
            });
    assertEquals(COUNT, n[0]);
  }

  @Test
  void anInPlaceLeaderSkipsItsHolesAndAllowsRemovalsOfEntitiesStillToCome() {
    final IntStorage<P> ps = registry.storage(TP);
    final Map<Long, Integer> values = new HashMap<>();
    for (int i = 0; i < COUNT; i++) {
      final long e = registry.create();
      entities[i] = e;
      registry.emplace(e, TA, new A(i));
      if (0 == i % 2) {
        registry.emplace(e, TP, new P(1000 + i));
        values.put(e, 1000 + i);
      }
    }
    registry.remove(entities[4], TP); // a hole in the leader
    values.remove(entities[4]);
    final long lastOfP = ps.packed()[0];
    final Set<Long> seen = new HashSet<>();
    registry
        .typedView(TP, TA)
        .each(
            (e, p, a) -> {
              assertOn(p, e);
              assertOn(a, e);
              assertEquals(values.get(e), p.value());
              assertTrue(seen.add(e));
              if (e != lastOfP && ps.contains(lastOfP)) {
                registry.remove(lastOfP, TP); // in place: moves nothing, allowed
              }
            });
    assertFalse(seen.contains(lastOfP));
    assertEquals(values.size() - 1, seen.size());
  }

  @Test
  void aTypedViewOfTheSameTypeTwiceHandsTwoCursorsOnTheSameElement() {
    populate();
    final int[] n = {0};
    registry
        .typedView(TA, TA)
        .each(
            (e, first, second) -> {
              assertNotSame(first, second);
              assertEquals(first.currentPosition(), second.currentPosition());
              n[0]++;
            });
    assertEquals(COUNT, n[0]);
  }
}
