package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.TY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.X;
import dev.phalanx.ecs.GroupTypes.Y;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The enter and leave signals of views, and how a view's lists combine. */
class ViewSignalsTest {

  private final Registry registry = new Registry();
  private final List<String> events = new ArrayList<>();

  private View monitored(final View view) {
    view.onLeave().connect((r, e) -> events.add("leave " + Entity.index(e)));
    view.onEnter().connect((r, e) -> events.add("enter " + Entity.index(e)));
    return view;
  }

  /** exclude() twice excludes both lists. */
  @Test
  void excludingTwiceExcludesBoth() {
    final long a = registry.create();
    final long x = registry.create();
    final long y = registry.create();
    for (final long e : new long[] {a, x, y}) {
      registry.emplace(e, TA, new A(0));
    }
    registry.emplace(x, TX, new X(0));
    registry.emplace(y, TY, new Y(0));
    final View view = registry.view(TA).exclude(registry.storage(TX)).exclude(registry.storage(TY));
    final Set<Long> seen = new HashSet<>();
    view.each(seen::add);
    assertEquals(Set.of(a), seen);
  }

  /** onLeave() may be the first signal asked for. */
  @Test
  void onLeaveMayBeAskedForFirst() {
    final View view = registry.view(TA);
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    view.onLeave().connect((r, entity) -> events.add("leave " + Entity.index(entity)));
    registry.remove(e, TA);
    assertEquals(List.of("leave 0"), events);
  }

  /** A view over a plain sparse set, included or excluded, has no signals. */
  @Test
  void aViewOverAPlainSetHasNoSignals() {
    final SparseSet plain = new SparseSet(DeletionPolicy.SWAP_AND_POP);
    final Storage<A> as = registry.storage(TA);
    assertThrows(IllegalStateException.class, () -> View.of(plain).onEnter());
    assertThrows(IllegalStateException.class, () -> View.of(plain, as).onLeave());
    final IllegalStateException excluded =
        assertThrows(
            IllegalStateException.class,
            () -> View.of(new SparseSet[] {as}, new SparseSet[] {plain}).onEnter());
    assertTrue(excluded.getMessage().startsWith("sparse set is not a storage"));
  }

  /** An exception thrown by an enter or leave listener reaches the change's caller. */
  @Test
  void aThrowingEnterOrLeaveListenerIsHeardOnEveryPath() {
    final View view = registry.view(new ComponentType<?, ?>[] {TA}, new ComponentType<?, ?>[] {TX});
    final IllegalStateException thrown = new IllegalStateException("listener");
    view.onEnter()
        .connect(
            (r, e) -> {
              throw thrown;
            });
    view.onLeave()
        .connect(
            (r, e) -> {
              throw thrown;
            });
    final long e = registry.create();
    // Gaining the included component, then the excluded one, losing it, losing the included one.
    assertSame(
        thrown, assertThrows(IllegalStateException.class, () -> registry.emplace(e, TA, new A(0))));
    assertSame(
        thrown, assertThrows(IllegalStateException.class, () -> registry.emplace(e, TX, new X(0))));
    assertSame(thrown, assertThrows(IllegalStateException.class, () -> registry.remove(e, TX)));
    assertSame(thrown, assertThrows(IllegalStateException.class, () -> registry.remove(e, TA)));
    assertTrue(registry.orphan(e));
  }

  /**
   * A destroyed or cleared entity that did not match enters nothing and leaves nothing, even when
   * its excluded component goes before its included one; one that matched leaves.
   */
  @Test
  void aDestroyedEntityThatDidNotMatchNeitherEntersNorLeaves() {
    final View view =
        monitored(registry.view(new ComponentType<?, ?>[] {TA}, new ComponentType<?, ?>[] {TX}));
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    registry.emplace(e, TX, new X(0));
    final long matching = registry.create();
    registry.emplace(matching, TA, new A(1));
    events.clear();
    registry.destroy(e); // removes X (created last) first: e would match for a moment
    assertEquals(List.of(), events);
    registry.destroy(matching);
    assertEquals(List.of("leave 1"), events);
    assertEquals(0, view.sizeHint());

    events.clear();
    final long again = registry.create();
    registry.emplace(again, TA, new A(2));
    registry.emplace(again, TX, new X(2));
    final long other = registry.create();
    registry.emplace(other, TA, new A(3));
    events.clear();
    registry.clear();
    assertEquals(List.of("leave " + Entity.index(other)), events);
  }

  /** A view over standalone storages tells entries when an excluded component goes. */
  @Test
  void aViewOverStandaloneStoragesTellsEntries() {
    final ObjectStorage<A> as = TA.createStorage();
    final ObjectStorage<X> xs = TX.createStorage();
    monitored(View.of(new SparseSet[] {as}, new SparseSet[] {xs}));
    final long e = Entity.of(1, 0);
    as.emplace(e, new A(0));
    xs.emplace(e, new X(0));
    xs.remove(e);
    assertEquals(List.of("enter 1", "leave 1", "enter 1"), events);
  }

  /** With two excluded types, gaining the second one when the first is there changes nothing. */
  @Test
  void gainingASecondExcludedComponentLeavesNothing() {
    monitored(
        registry.view(new ComponentType<?, ?>[] {TA, TB}, new ComponentType<?, ?>[] {TX, TY}));
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    registry.emplace(e, TB, new B(0));
    assertEquals(List.of("enter 0"), events);
    registry.emplace(e, TX, new X(0));
    assertEquals(List.of("enter 0", "leave 0"), events);
    registry.emplace(e, TY, new Y(0));
    registry.remove(e, TX);
    assertEquals(List.of("enter 0", "leave 0"), events);
    registry.remove(e, TY);
    assertEquals(List.of("enter 0", "leave 0", "enter 0"), events);
  }

  /** A four-type view holds the entities that have all four. */
  @Test
  void aFourTypeViewNeedsAllFour() {
    final ComponentType<?, ?> tc = GroupTypes.TC;
    final ComponentType<?, ?> td = GroupTypes.TD;
    final long all = registry.create();
    final long three = registry.create();
    registry.emplace(all, TA, new A(0));
    registry.emplace(all, TB, new B(0));
    registry.emplace(all, GroupTypes.TC, new GroupTypes.C(0));
    registry.emplace(all, GroupTypes.TD, new GroupTypes.D(0));
    registry.emplace(three, TA, new A(0));
    registry.emplace(three, TB, new B(0));
    registry.emplace(three, GroupTypes.TC, new GroupTypes.C(0));
    final View view = registry.view(TA, TB, tc, td);
    final Set<Long> seen = new HashSet<>();
    view.each(seen::add);
    assertEquals(Set.of(all), seen);
    assertTrue(view.contains(all));
  }
}
