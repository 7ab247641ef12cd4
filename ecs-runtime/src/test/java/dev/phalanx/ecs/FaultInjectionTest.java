package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
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
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.FaultWorld.Injected;
import dev.phalanx.ecs.FaultWorld.Kind;
import dev.phalanx.ecs.FaultWorld.Layout;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.GroupTypes.E;
import dev.phalanx.ecs.GroupTypes.F;
import dev.phalanx.ecs.GroupTypes.Y;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fault injection: for every mutating operation and every kind of user callback, the callback
 * throws at its k-th call, for every k from 1 to the number of calls of a clean run, once (only
 * call k throws) and from then on (every call from k throws). After each faulted run the registry
 * is consistent ({@link Registry#verify()} is empty, nothing locked or iterated) and the world is
 * exactly what the documented outcome says:
 *
 * <ul>
 *   <li>a listener threw: the operation is fully applied (the world, layouts and listener calls
 *       equal those of the clean run), and the first exception is rethrown with every later one
 *       reachable as suppressed;
 *   <li>a patch consumer, a getOrEmplace supplier or a sort comparator threw: nothing changed (the
 *       world and every layout equal those before the call);
 *   <li>an iteration's visitor or chunk body threw (or a listener under it): the iteration stopped,
 *       the changes the visitor completed stand (the world equals a replay of those changes without
 *       iteration), and nothing else changed.
 * </ul>
 *
 * <p>Each world has the groups of {@link FaultWorld}: owning, nested owning with an excluded type,
 * partial owning with an in-place get type, and non-owning.
 */
class FaultInjectionTest {

  private static final long SEED = 42;
  private static final int COUNT = 24;

  static Stream<Arguments> operations() {
    final List<Arguments> ops = new ArrayList<>();
    // Insertions: entries into owning, nested and non-owning groups, exits through excluded types.
    add(
        ops,
        "emplace A (enters <A,B>)",
        w -> w.registry.emplace(w.pick(0, types(TB), types(TA)), TA, value(TA, 1)));
    add(
        ops,
        "emplace C (enters nested <A,B,C>)",
        w -> w.registry.emplace(w.pick(0, types(TA, TB), types(TC, TX)), TC, value(TC, 1)));
    add(
        ops,
        "emplace X (leaves nested and partial groups)",
        w -> w.registry.emplace(w.pick(0, types(TA, TB, TC), types(TX)), TX, value(TX, 1)));
    add(
        ops,
        "emplace S in place (enters non-owning and partial groups)",
        w -> w.registry.emplace(w.pick(0, types(TD, TE, TF), types(TS)), TS, value(TS, 1)));
    add(
        ops,
        "emplace Y (leaves the non-owning group)",
        w -> w.registry.emplace(w.pick(0, types(TD, TS), types(TY)), TY, value(TY, 1)));
    add(
        ops,
        "emplaceOrReplace B (replace)",
        w -> w.registry.emplaceOrReplace(w.pick(0, types(TB), types()), TB, value(TB, 5)));
    add(
        ops,
        "emplaceOrReplace C (emplace)",
        w -> w.registry.emplaceOrReplace(w.pick(1, types(TA, TB), types(TC)), TC, value(TC, 5)));
    add(ops, "replace E", w -> w.registry.replace(w.pick(0, types(TE), types()), TE, value(TE, 9)));
    add(
        ops,
        "Storage.replace S",
        w -> w.registry.storage(TS).replace(w.pick(0, types(TS), types()), value(TS, 9)));
    add(
        ops,
        "patch B",
        w -> w.registry.patch(w.pick(0, types(TB), types()), TB, b -> w.fault.tick(Kind.CONSUMER)));
    add(
        ops,
        "patch S",
        w -> w.registry.patch(w.pick(1, types(TS), types()), TS, s -> w.fault.tick(Kind.CONSUMER)));
    add(
        ops,
        "getOrEmplace C (enters nested)",
        w ->
            w.registry.getOrEmplace(
                w.pick(0, types(TA, TB), types(TC, TX)),
                TC,
                () -> {
                  w.fault.tick(Kind.SUPPLIER);
                  return new C(77);
                }));
    // Removals: exits, entries through excluded types, in-place removal.
    add(
        ops,
        "remove B (leaves nested and outer)",
        w -> w.registry.remove(w.pick(0, types(TA, TB, TC), types(TX)), TB));
    add(
        ops,
        "remove C (leaves nested only)",
        w -> w.registry.remove(w.pick(1, types(TA, TB, TC), types(TX)), TC));
    add(
        ops,
        "remove X (enters nested and partial)",
        w -> w.registry.remove(w.pick(0, types(TX), types()), TX));
    add(
        ops,
        "remove Y (enters non-owning)",
        w -> w.registry.remove(w.pick(0, types(TY), types()), TY));
    add(
        ops,
        "remove S in place (leaves non-owning and partial)",
        w -> w.registry.remove(w.pick(0, types(TS, TD), types(TY)), TS));
    add(ops, "erase A", w -> w.registry.erase(w.pick(2, types(TA, TB), types()), TA));
    add(ops, "erase E", w -> w.registry.erase(w.pick(0, types(TE, TF), types(TX)), TE));
    // Destruction and clearing.
    add(
        ops,
        "destroy a nested member",
        w -> w.registry.destroy(w.pick(0, types(TA, TB, TC), types(TX))));
    add(
        ops,
        "destroy an entity with X and S",
        w -> w.registry.destroy(w.pick(0, types(TX, TS), types())));
    add(
        ops,
        "destroy a non-owning member",
        w -> w.registry.destroy(w.pick(0, types(TD, TS), types(TY))));
    add(
        ops,
        "destroy batch with a duplicate",
        w -> {
          final long a = w.pick(0, types(TA, TB, TC), types(TX));
          final long b = w.pick(0, types(TD, TS), types(TY));
          final long c = w.pick(0, types(TX), types());
          w.registry.destroy(new long[] {a, b, a, c}, 0, 4);
        });
    add(ops, "clear(B)", w -> w.registry.clear(TB));
    add(ops, "clear(X) (entries)", w -> w.registry.clear(TX));
    add(ops, "clear(Y) (entries into non-owning)", w -> w.registry.clear(TY));
    add(ops, "storage S clear()", w -> w.registry.storage(TS).clear());
    add(ops, "registry.clear()", w -> w.registry.clear());
    // Sorts: comparators.
    add(
        ops,
        "nested group sort by entity",
        w ->
            w.abcNoX.sort(
                (l, r) -> {
                  w.fault.tick(Kind.COMPARATOR);
                  return Long.compare(r, l);
                }));
    add(
        ops,
        "nested group sortByPosition reading the third owned storage",
        w -> {
          final ObjectStorage<C> cs = w.registry.storage(TC);
          w.abcNoX.sortByPosition(
              (l, r) -> {
                w.fault.tick(Kind.COMPARATOR);
                return Integer.compare(cs.valueAt(r).value(), cs.valueAt(l).value());
              });
        });
    add(
        ops,
        "partial group sortByPosition reading the second owned storage",
        w -> {
          final ObjectStorage<F> fs = w.registry.storage(TF);
          w.efGetSNoX.sortByPosition(
              (l, r) -> {
                w.fault.tick(Kind.COMPARATOR);
                return Integer.compare(fs.valueAt(r).value(), fs.valueAt(l).value());
              });
        });
    add(
        ops,
        "non-owning group sort",
        w ->
            w.dsNoY.sort(
                (l, r) -> {
                  w.fault.tick(Kind.COMPARATOR);
                  return Long.compare(r, l);
                }));
    add(
        ops,
        "storage sort",
        w ->
            w.registry
                .storage(TY)
                .sort(
                    (l, r) -> {
                      w.fault.tick(Kind.COMPARATOR);
                      return Long.compare(r, l);
                    }));
    add(
        ops,
        "storage sortByPosition",
        w -> {
          final ObjectStorage<Y> ys = w.registry.storage(TY);
          ys.sortByPosition(
              (l, r) -> {
                w.fault.tick(Kind.COMPARATOR);
                return Integer.compare(ys.valueAt(r).value(), ys.valueAt(l).value());
              });
        });
    add(
        ops,
        "storage insertionSortByPosition",
        w -> {
          final ObjectStorage<Y> ys = w.registry.storage(TY);
          ys.insertionSortByPosition(
              (l, r) -> {
                w.fault.tick(Kind.COMPARATOR);
                return Integer.compare(ys.valueAt(r).value(), ys.valueAt(l).value());
              });
        });
    return ops.stream();
  }

  private static void add(
      final List<Arguments> ops, final String name, final Consumer<FaultWorld> op) {
    for (final boolean worldChanging : new boolean[] {false, true}) {
      ops.add(
          Arguments.of(
              name + (worldChanging ? " [world-changing listeners]" : ""), worldChanging, op));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("operations")
  void aCallbackThrowingAtAnyCallLeavesTheDocumentedWorld(
      final String name, final boolean worldChanging, final Consumer<FaultWorld> op) {
    final FaultWorld clean = new FaultWorld(SEED, COUNT, worldChanging);
    final Layout before = clean.layout();
    clean.fault.arm(0, false);
    op.accept(clean);
    assertConsistent(clean, "clean run");
    final Layout after = clean.layout();
    final int calls = clean.fault.calls;
    final List<Kind> kinds = new ArrayList<>(clean.fault.kinds);
    assertTrue(calls > 0, "the clean run calls no user callback: nothing to inject");
    if (!kinds.contains(Kind.COMPARATOR)) {
      assertFalse(before.state().equals(after.state()), "the clean run changed nothing");
    }
    for (final boolean fromOn : new boolean[] {false, true}) {
      for (int k = 1; k <= calls; k++) {
        final String where =
            name
                + ", fault at call "
                + k
                + " of "
                + calls
                + " ("
                + kinds.get(k - 1)
                + ")"
                + (fromOn ? " and every later call" : "");
        final FaultWorld world = new FaultWorld(SEED, COUNT, worldChanging);
        world.fault.arm(k, fromOn);
        final Throwable thrown = catchThrowable(() -> op.accept(world));
        assertFalse(world.fault.thrown.isEmpty(), where + ": the fault was not injected");
        assertNotNull(thrown, where + ": the injected fault was swallowed");
        assertSame(
            world.fault.thrown.get(0), thrown, where + ": not the first exception: " + thrown);
        final Set<Throwable> reachable = FaultWorld.reachable(thrown);
        for (final Injected injected : world.fault.thrown) {
          assertTrue(
              reachable.contains(injected), where + ": " + injected.getMessage() + " was lost");
        }
        assertConsistent(world, where);
        final Kind kind = kinds.get(k - 1);
        final boolean applied =
            Kind.CONSTRUCT == kind || Kind.UPDATE == kind || Kind.DESTROY == kind;
        final Layout expected = applied ? after : before;
        assertEquals(
            expected.state(),
            world.state(),
            where + ": world (" + (applied ? "applied" : "unchanged") + ")");
        assertEquals(expected, world.layout(), where + ": layout");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Iterations: the visitor (or a listener under it) throws at its k-th call.
  // ---------------------------------------------------------------------------------------------

  /** An iteration form, handed the visitor to run. */
  interface Iteration {
    void run(FaultWorld world, LongConsumer visitor);
  }

  static Stream<Arguments> iterations() {
    final List<Arguments> forms = new ArrayList<>();
    forms.add(
        Arguments.of(
            "View(A, B) exclude X each",
            (Iteration) (w, v) -> w.registry.view(types(TA, TB), types(TX)).each(v)));
    forms.add(
        Arguments.of(
            "View(S, D) each (in-place leader)",
            (Iteration)
                (w, v) ->
                    w.registry
                        .view(types(TS, TD), types())
                        .leadBy(w.registry.storage(TS))
                        .each(v)));
    forms.add(Arguments.of("owning <A,B> each", (Iteration) (w, v) -> w.ab.each(v)));
    forms.add(Arguments.of("nested <A,B,C> each", (Iteration) (w, v) -> w.abcNoX.each(v)));
    forms.add(Arguments.of("partial <E,F> each", (Iteration) (w, v) -> w.efGetSNoX.each(v)));
    forms.add(Arguments.of("non-owning <D,S> each", (Iteration) (w, v) -> w.dsNoY.each(v)));
    forms.add(
        Arguments.of(
            "RuntimeView(B, D) exclude Y each",
            (Iteration)
                (w, v) ->
                    new RuntimeView()
                        .iterate(w.registry.storage(TB))
                        .iterate(w.registry.storage(TD))
                        .exclude(w.registry.storage(TY))
                        .each(v)));
    return forms.stream();
  }

  /**
   * What the visitor does to the visited entity, chosen by its index: destroy it, remove B, add or
   * replace D, remove S (in place), add X, or nothing. All allowed on the visited entity in every
   * form above... except adding X, which makes an owning-group member leave: allowed as it moves
   * only the visited entity and elements already visited.
   */
  private static void act(final FaultWorld world, final long entity) {
    final Registry r = world.registry;
    switch (Entity.index(entity) % 5) {
      case 0 -> r.destroy(entity);
      case 1 -> r.remove(entity, TB);
      case 2 -> r.emplaceOrReplace(entity, TD, value(TD, 3));
      case 3 -> r.remove(entity, TS);
      default -> {
        if (!r.has(entity, TX)) {
          r.emplace(entity, TX, value(TX, 4));
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("iterations")
  void aVisitorOrListenerThrowingAtAnyCallStopsTheIterationAndKeepsCompletedChanges(
      final String name, final Iteration iteration) {
    for (final boolean worldChanging : new boolean[] {false, true}) {
      final FaultWorld clean = new FaultWorld(SEED, COUNT, worldChanging);
      clean.fault.arm(0, false);
      final List<Long> cleanVisits = new ArrayList<>();
      iteration.run(
          clean,
          e -> {
            cleanVisits.add(e);
            act(clean, e);
            clean.fault.tick(Kind.VISITOR);
          });
      assertConsistent(clean, name + " clean run");
      assertEquals(
          cleanVisits.size(),
          Set.copyOf(cleanVisits).size(),
          name + ": an entity was visited twice");
      assertTrue(cleanVisits.size() >= 3, name + ": too few entities visited to test");
      final int calls = clean.fault.calls;
      for (int k = 1; k <= calls; k++) {
        final String where =
            name
                + (worldChanging ? " [world-changing]" : "")
                + ", fault at call "
                + k
                + " of "
                + calls
                + " ("
                + clean.fault.kinds.get(k - 1)
                + ")";
        final FaultWorld world = new FaultWorld(SEED, COUNT, worldChanging);
        world.fault.arm(k, false);
        final List<Long> visits = new ArrayList<>();
        final Throwable thrown =
            catchThrowable(
                () ->
                    iteration.run(
                        world,
                        e -> {
                          visits.add(e);
                          act(world, e);
                          world.fault.tick(Kind.VISITOR);
                        }));
        assertEquals(1, world.fault.thrown.size(), where + ": the fault was not injected");
        assertSame(world.fault.thrown.get(0), thrown, where);
        assertEquals(
            cleanVisits.subList(0, visits.size()),
            visits,
            where + ": visits are not a prefix of the clean run's");
        assertConsistent(world, where);
        // The same changes, made without iterating.
        final FaultWorld replay = new FaultWorld(SEED, COUNT, worldChanging);
        for (final long e : visits) {
          act(replay, e);
        }
        assertEquals(
            replay.state(), world.state(), where + ": the world is not the completed changes");
      }
    }
  }

  @ParameterizedTest(name = "worldChanging={0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void aChunkBodyThrowingAtAnyCallStopsTheIterationAndKeepsCompletedWrites(
      final boolean worldChanging) {
    final FaultWorld probe = new FaultWorld(SEED, 200, worldChanging);
    final int members = probe.efGetSNoX.size();
    final int chunk = probe.efGetSNoX.chunkSize();
    final int chunks = (members + chunk - 1) / chunk;
    assertTrue(chunks >= 3, "the partial group should span several chunks: " + members);
    for (int k = 1; k <= chunks; k++) {
      final FaultWorld world = new FaultWorld(SEED, 200, worldChanging);
      world.fault.arm(k, false);
      final ObjectStorage<E> es = world.registry.storage(TE);
      final List<int[]> runs = new ArrayList<>();
      final Throwable thrown =
          catchThrowable(
              () ->
                  world.efGetSNoX.eachChunk(
                      (from, to) -> {
                        runs.add(new int[] {from, to});
                        for (int p = from; p < to; p++) {
                          es.pages()[p >>> es.pageShift()][p & (es.pageSize() - 1)] = new E(-p);
                        }
                        world.fault.tick(Kind.CHUNK);
                      }));
      assertSame(world.fault.thrown.get(0), thrown, "fault at chunk " + k);
      assertEquals(k, runs.size(), "the iteration did not stop at the failing chunk");
      assertConsistent(world, "chunk fault " + k);
      final FaultWorld replay = new FaultWorld(SEED, 200, worldChanging);
      final ObjectStorage<E> replayed = replay.registry.storage(TE);
      for (final int[] run : runs) {
        for (int p = run[0]; p < run[1]; p++) {
          replayed.pages()[p >>> replayed.pageShift()][p & (replayed.pageSize() - 1)] = new E(-p);
        }
      }
      assertEquals(replay.layout(), world.layout(), "chunk fault " + k);
      // Unlocked: a structural change of a locked storage works again.
      final long member = world.efGetSNoX.entityAt(0);
      world.registry.remove(member, TF);
      assertFalse(world.efGetSNoX.contains(member));
      assertConsistent(world, "after chunk fault " + k);
    }
  }

  // ---------------------------------------------------------------------------------------------

  static void assertConsistent(final FaultWorld world, final String where) {
    final List<String> problems = world.registry.verify();
    if (!problems.isEmpty()) {
      fail(where + ": verify() reports " + problems);
    }
    assertFalse(world.anyLockOrIteration(), where + ": a lock or an iteration is still registered");
    for (int g = 0; g < world.registry.groups().size(); g++) {
      final Group group = world.registry.groups().get(g);
      assertEquals(
          FaultWorld.expectedMembers(world.registry, group),
          memberSet(group),
          where + ": " + group);
    }
  }

  private static Set<Long> memberSet(final Group group) {
    final java.util.LinkedHashSet<Long> members = new java.util.LinkedHashSet<>();
    for (int p = 0; p < group.size(); p++) {
      members.add(group.entityAt(p));
    }
    return members;
  }

  static Throwable catchThrowable(final Runnable body) {
    try {
      body.run();
      return null;
    } catch (final Throwable thrown) {
      return thrown;
    }
  }
}
