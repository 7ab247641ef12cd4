package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.TY;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.FaultWorld.Injected;
import dev.phalanx.ecs.FaultWorld.Kind;
import dev.phalanx.ecs.FaultWorld.Layout;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fault injection into {@link ChangeSet#commit()}: on the worlds of {@link FaultWorld} (owning,
 * nested, partial-owning and non-owning groups; construct, update and destroy listeners on every
 * storage) plus creation listeners and every group's enter and leave listeners, the listener call
 * number k throws, for every k of a clean commit (only call k, and every call from k on). Each time
 * the first exception comes out with the later ones suppressed, every change of the set is made
 * (the world, its layout and the listener calls equal the clean commit's), {@code verify()} is
 * empty, and the set is empty and commits again. Then refusals: a set whose n-th change is invalid
 * (for every n) is refused, changes nothing, keeps its changes, and is reusable after a clear.
 */
class ChangeSetFaultInjectionTest {

  private static final long SEED = 42;
  private static final int COUNT = 24;

  /** The set under test's staging state: the set, its staged handles, its row writer. */
  static final class Staging {
    final FaultWorld world;
    final ChangeSet changes;
    final long[] handles = new long[3];
    final ColumnRows rows = new ColumnRows();
    // The rows' values: elements of standalone storages.
    private final java.util.Map<ComponentType<?, ?>, Storage<?>> sources =
        new java.util.HashMap<>();
    private int keys;

    Staging(final FaultWorld world) {
      this.world = world;
      this.changes = new ChangeSet(world.registry);
    }

    /** {@return a row of {@link #rows} holding {@code type}'s value {@code n}} */
    @SuppressWarnings({"unchecked", "rawtypes"})
    int row(final ComponentType<?, ?> type, final int n) {
      final Storage source = sources.computeIfAbsent(type, ComponentType::createStorage);
      final long key = Entity.of(100 + keys++, 0);
      source.emplace(key, value(type, n));
      return rows.add(source, key);
    }
  }

  /** One change of the set, and an invalid variant of it. */
  record Step(
      String name,
      java.util.function.Consumer<Staging> valid,
      java.util.function.Consumer<Staging> invalid) {
    @Override
    public String toString() {
      return name;
    }
  }

  static long pick(
      final Staging s, final ComponentType<?, ?>[] with, final ComponentType<?, ?>[] without) {
    return s.world.pick(0, with, without);
  }

  static long dead(final Staging s) {
    return s.world.created.get(0); // destroyed by the world's set-up
  }

  /** The changes: entries into every group, copies, writes, exits, destructions. */
  static List<Step> steps() {
    final List<Step> steps = new ArrayList<>();
    steps.add(
        new Step(
            "emplace A on h0",
            s -> s.changes.emplace(s.handles[0], TA, value(TA, 1)),
            s -> s.changes.emplace(pick(s, types(TA), types()), TA, value(TA, 1))));
    steps.add(
        new Step(
            "emplace B on h0 (enters <A,B>)",
            s -> s.changes.emplace(s.handles[0], TB, value(TB, 2)),
            s -> s.changes.emplace(dead(s), TB, value(TB, 2))));
    steps.add(
        new Step(
            "emplace A, B, C on h1 (enters nested <A,B,C>)",
            s -> {
              s.changes.emplace(s.handles[1], TA, value(TA, 3));
              s.changes.emplace(s.handles[1], TB, value(TB, 3));
              s.changes.emplace(s.handles[1], TC, value(TC, 3));
            },
            s -> {
              s.changes.emplace(s.handles[1], TA, value(TA, 3));
              s.changes.emplace(s.handles[1], TB, value(TB, 3));
              s.changes.replace(s.handles[1], TC, value(TC, 3));
            }));
    steps.add(
        new Step(
            "copy S (in place) to h2",
            s ->
                s.changes.copy(
                    s.handles[2], s.world.registry.storage(TS), pick(s, types(TS), types())),
            s ->
                s.changes.copy(
                    s.handles[2], s.world.registry.storage(TS), pick(s, types(), types(TS)))));
    steps.add(
        new Step(
            "copy D to h2 (enters non-owning <D,S>)",
            s ->
                s.changes.copy(
                    s.handles[2], s.world.registry.storage(TD), pick(s, types(TD), types())),
            s ->
                s.changes.copy(
                    dead(s), s.world.registry.storage(TD), pick(s, types(TD), types()))));
    steps.add(
        new Step(
            "emplace A on a live entity with B (enters <A,B>)",
            s -> s.changes.emplace(pick(s, types(TB), types(TA)), TA, value(TA, 4)),
            s -> s.changes.emplace(pick(s, types(TB, TA), types()), TA, value(TA, 4))));
    steps.add(
        new Step(
            "replace E (update)",
            s -> s.changes.replace(pick(s, types(TE), types()), TE, value(TE, 5)),
            s -> s.changes.replace(pick(s, types(), types(TE)), TE, value(TE, 5))));
    steps.add(
        new Step(
            "emplace E by a row writer on h2",
            s -> s.changes.emplace(s.handles[2], TE, s.rows, s.row(TE, 7)),
            s -> s.changes.emplace(pick(s, types(TE), types()), TE, s.rows, s.row(TE, 7))));
    steps.add(
        new Step(
            "write A by a row writer (update)",
            s -> s.changes.write(pick(s, types(TA), types(TD)), TA, s.rows, s.row(TA, 8)),
            s -> s.changes.write(pick(s, types(), types(TA)), TA, s.rows, s.row(TA, 8))));
    steps.add(
        new Step(
            "remove B from a nested member (leaves both)",
            s -> s.changes.remove(pick(s, types(TA, TB, TC), types(TX)), TB),
            s -> s.changes.remove(dead(s), TB)));
    steps.add(
        new Step(
            "remove X (enters nested and partial)",
            s -> s.changes.remove(pick(s, types(TX), types()), TX),
            s -> s.changes.remove(Entity.of(4000, 0), TX)));
    steps.add(
        new Step(
            "destroy a non-owning member",
            s -> s.changes.destroy(pick(s, types(TD, TS), types(TY))),
            s -> s.changes.destroy(dead(s))));
    steps.add(
        new Step(
            "emplace Y on h1, then destroy h1 (created and destroyed in one commit)",
            s -> {
              s.changes.emplace(s.handles[1], TY, value(TY, 6));
              s.changes.destroy(s.handles[1]);
            },
            s -> {
              s.changes.destroy(s.handles[1]);
              s.changes.emplace(s.handles[1], TY, value(TY, 6));
            }));
    return steps;
  }

  /** Builds the world with creation and group listeners that tick its fault too. */
  static FaultWorld world() {
    final FaultWorld world = new FaultWorld(SEED, COUNT, false);
    world.registry.onCreate().connect((r, e) -> world.fault.tick(Kind.CONSTRUCT));
    world.registry.onDestroy().connect((r, e) -> world.fault.tick(Kind.DESTROY));
    for (int g = 0; g < world.registry.groups().size(); g++) {
      final Group group = world.registry.groups().get(g);
      group.onEnter().connect((r, e) -> world.fault.tick(Kind.CONSTRUCT));
      group.onLeave().connect((r, e) -> world.fault.tick(Kind.DESTROY));
    }
    return world;
  }

  /** Stages every step (step {@code invalid}'s invalid variant, {@code twice}'s twice). */
  static Staging stage(final FaultWorld world, final int invalid, final int twice) {
    final Staging s = new Staging(world);
    s.changes.create(s.handles, 0, s.handles.length);
    final List<Step> steps = steps();
    for (int n = 0; n < steps.size(); n++) {
      (n == invalid ? steps.get(n).invalid() : steps.get(n).valid()).accept(s);
      if (n == twice) {
        steps.get(n).valid().accept(s);
      }
    }
    return s;
  }

  @ParameterizedTest(name = "from then on: {0}")
  @ValueSource(booleans = {false, true})
  void aListenerThrowingAtAnyCallStopsNothing(final boolean fromOn) {
    final FaultWorld clean = world();
    final Layout before = clean.layout();
    final Staging cleanSet = stage(clean, -1, -1);
    cleanSet.changes.commit();
    FaultInjectionTest.assertConsistent(clean, "clean commit");
    final Layout after = clean.layout();
    assertFalse(before.equals(after));
    final int calls = clean.fault.calls;
    assertTrue(calls > 20, "too few listener calls to inject into: " + calls);
    for (final Kind kind : new Kind[] {Kind.CONSTRUCT, Kind.UPDATE, Kind.DESTROY}) {
      assertTrue(clean.fault.kinds.contains(kind), "no " + kind + " listener ran");
    }
    for (int k = 1; k <= calls; k++) {
      final String where =
          "fault at call " + k + " of " + calls + (fromOn ? " and every later call" : "");
      final FaultWorld world = world();
      final Staging s = stage(world, -1, -1);
      world.fault.arm(k, fromOn);
      final Throwable thrown = FaultInjectionTest.catchThrowable(s.changes::commit);
      world.fault.disarm();
      assertNotNull(thrown, where + ": the fault was swallowed");
      assertSame(world.fault.thrown.get(0), thrown, where + ": not the first exception");
      final Set<Throwable> reachable = FaultWorld.reachable(thrown);
      for (final Injected injected : world.fault.thrown) {
        assertTrue(reachable.contains(injected), where + ": " + injected.getMessage() + " lost");
      }
      FaultInjectionTest.assertConsistent(world, where);
      assertEquals(after, world.layout(), where + ": not every change was made");
      for (int i = 0; i < s.handles.length; i++) {
        assertEquals(
            cleanSet.changes.entityOf(cleanSet.handles[i]),
            s.changes.entityOf(s.handles[i]),
            where);
      }
      assertTrue(s.changes.isEmpty(), where + ": the set was not emptied");
      assertEquals(0, s.changes.size(), where);
      assertReusable(world, s.changes, where);
    }
  }

  /**
   * A row writer that throws stops nothing either: every element is inserted or written (this one
   * wrote its fields before throwing), every listener runs, the writer's exception comes out first
   * (it ran before any listener), and the set is empty and reusable.
   */
  @ParameterizedTest(name = "row writer call {0}")
  @ValueSource(ints = {1, 2})
  void aRowWriterThatThrowsStopsNothing(final int call) {
    final FaultWorld clean = world();
    stage(clean, -1, -1).changes.commit();
    final FaultWorld world = world();
    final Staging s = stage(world, -1, -1);
    s.rows.throwAt = call;
    final Throwable thrown = FaultInjectionTest.catchThrowable(s.changes::commit);
    assertTrue(thrown instanceof ColumnRows.Thrown, String.valueOf(thrown));
    assertEquals(2, s.rows.calls);
    assertEquals(clean.fault.calls, world.fault.calls, "every listener ran");
    FaultInjectionTest.assertConsistent(world, "row writer call " + call);
    assertEquals(clean.layout(), world.layout(), "not every change was made");
    assertTrue(s.changes.isEmpty());
    assertReusable(world, s.changes, "row writer call " + call);
  }

  /** The set commits again: a creation with a component. */
  static void assertReusable(final FaultWorld world, final ChangeSet changes, final String where) {
    final long h = changes.create();
    changes.emplace(h, TY, value(TY, 99));
    assertEquals(2, changes.size());
    changes.commit();
    final long e = changes.entityOf(h);
    assertTrue(world.registry.valid(e), where + ": the set is not reusable");
    assertEquals(value(TY, 99), world.registry.get(e, TY));
    FaultInjectionTest.assertConsistent(world, where + ", reused");
  }

  @Test
  void aSetWhoseNthChangeIsInvalidIsRefusedWholeForEveryN() {
    final int steps = steps().size();
    for (int n = 0; n < steps; n++) {
      assertRefused(n, -1, "change " + n + " (" + steps().get(n) + ") invalid");
      assertRefused(-1, n, "change " + n + " (" + steps().get(n) + ") staged twice");
    }
  }

  private static void assertRefused(final int invalid, final int twice, final String where) {
    final FaultWorld world = world();
    final Layout before = world.layout();
    final Staging s = stage(world, invalid, twice);
    final int size = s.changes.size();
    final Throwable thrown = FaultInjectionTest.catchThrowable(s.changes::commit);
    assertNotNull(thrown, where + ": not refused");
    assertTrue(
        thrown instanceof IllegalArgumentException
            || thrown instanceof IllegalStateException
            || thrown instanceof ConcurrentModificationException,
        where + ": " + thrown);
    assertTrue(thrown.getMessage().contains(s.changes.toString()), where + ": " + thrown);
    assertEquals(0, world.fault.calls, where + ": a listener ran");
    assertEquals(before, world.layout(), where + ": the world changed");
    FaultInjectionTest.assertConsistent(world, where);
    assertEquals(size, s.changes.size(), where + ": the set lost changes");
    // Refused again while nothing changed; then cleared and reused for the valid set.
    assertNotNull(FaultInjectionTest.catchThrowable(s.changes::commit), where);
    s.changes.clear();
    assertTrue(s.changes.isEmpty(), where);
    assertEquals(Entity.NULL, s.changes.entityOf(s.handles[0]), where + ": a refused commit named");
    final FaultWorld clean = world();
    stage(clean, -1, -1).changes.commit();
    restage(s);
    s.changes.commit();
    assertEquals(clean.layout(), world.layout(), where + ": the reused set made other changes");
  }

  /** Stages the valid set again into {@code s}'s set (new handles). */
  private static void restage(final Staging s) {
    s.changes.create(s.handles, 0, s.handles.length);
    for (final Step step : steps()) {
      step.valid().accept(s);
    }
  }
}
