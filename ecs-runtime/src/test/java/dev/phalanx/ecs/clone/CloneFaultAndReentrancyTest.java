package dev.phalanx.ecs.clone;

import static dev.phalanx.ecs.clone.CloneModelTest.HEALTH;
import static dev.phalanx.ecs.clone.CloneModelTest.TAG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.WorldPrint;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Prefab} and {@link EntityCloner} under faults, re-entrancy and refusals. Faults: creation,
 * construction, group entry and update listeners and the initializer throw at their k-th call (for
 * every k of a clean call, once and from then on); every instance must still be complete and linked
 * (the world equals the clean call's, which is checked against the template), the roots name them
 * all, the first exception comes out with the others suppressed, and {@code verify()} is empty.
 * Re-entrancy: a construct listener clones with the cloner that runs it, an initializer or a
 * listener instantiates the prefab that runs it. Refusals: a locked storage, or a group iteration
 * in progress, refuses a clone or an instantiation before anything changes.
 */
class CloneFaultAndReentrancyTest {

  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected fault at call " + call, null, true, false);
    }
  }

  /** The template world: a tree with references inside and outside it, listeners that tick. */
  static final class World {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(AllPrimitivesStorageB.SWAP, HEALTH);
    final Hierarchy tree = Hierarchy.of(registry);
    final long outside;
    final long t0;
    final long t1;
    final long t2;
    final long t3;
    final long target;
    int armedAt;
    boolean fromOn;
    int calls;
    final List<Injected> thrown = new ArrayList<>();

    World() {
      outside = registry.create();
      t0 = registry.create();
      t1 = registry.create();
      t2 = registry.create();
      t3 = registry.create();
      target = registry.create();
      tree.attach(t1, t0);
      tree.attach(t2, t0);
      tree.attach(t3, t1);
      registry.emplace(t0, AllPrimitivesStorageB.SWAP, sample(1, t1));
      registry.emplace(t0, AllPrimitivesStorageB.IN_PLACE_TWIN, sample(2, t0));
      registry.emplace(t0, HEALTH, new CloneModelTest.Health(10));
      registry.storage(TAG).emplace(t0);
      registry.emplace(t1, AllPrimitivesStorageB.IN_PLACE, sample(3, t0));
      registry.emplace(t1, HEALTH, new CloneModelTest.Health(11));
      registry.emplace(t2, AllPrimitivesStorageB.SWAP, sample(4, outside));
      registry.emplace(t2, AllPrimitivesStorageB.TRACKED, sample(5, t3));
      registry.storage(TAG).emplace(t2);
      registry.emplace(t3, AllPrimitivesStorageB.SWAP, sample(6, Entity.NULL));
      registry.emplace(t3, AllPrimitivesStorageB.IN_PLACE_TWIN, sample(7, t2));
      registry.emplace(t3, HEALTH, new CloneModelTest.Health(13));
      registry.onCreate().connect((r, e) -> tick());
      registry.storage(AllPrimitivesStorageB.SWAP).onConstruct().connect((r, e) -> tick());
      registry.storage(HEALTH).onConstruct().connect((r, e) -> tick());
      registry.storage(HEALTH).onUpdate().connect((r, e) -> tick());
      group.onEnter().connect((r, e) -> tick());
    }

    void arm(final int k, final boolean from) {
      armedAt = k;
      fromOn = from;
      calls = 0;
      thrown.clear();
    }

    void tick() {
      calls++;
      if (armedAt > 0 && (calls == armedAt || (fromOn && calls > armedAt))) {
        final Injected fault = new Injected(calls);
        thrown.add(fault);
        throw fault;
      }
    }

    /** The initializer: writes the root's health again (an update), then ticks. */
    final Prefab.Initializer initializer =
        (index, root) -> {
          registry.replace(root, HEALTH, registry.get(root, HEALTH));
          tick();
        };
  }

  static Sample sample(final int count, final long target) {
    return new Sample(
        1 == count % 2,
        (byte) count,
        (short) count,
        (char) ('a' + count),
        count,
        count * 7L,
        target,
        count / 2f,
        count / 4d,
        "s" + count,
        AllPrimitivesStorageB.Mood.values()[count % 3],
        new AllPrimitivesStorageB.Point(count, -count));
  }

  /** An operation: a prefab call or a clone; returns the roots it made. */
  record Operation(String name, Function<World, long[]> run, boolean tree) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> operations() {
    return Stream.of(
            new Operation(
                "one-entity prefab, 3 instances",
                w -> {
                  final Prefab prefab = Prefab.of(w.registry, w.t0);
                  final long[] roots = new long[5];
                  prefab.instantiate(w.registry, roots, 1, 3, w.initializer);
                  return Arrays.copyOfRange(roots, 1, 4);
                },
                false),
            new Operation(
                "tree prefab, 3 instances",
                w -> {
                  final Prefab prefab = Prefab.ofTree(w.registry, w.t0);
                  final long[] roots = new long[3];
                  prefab.instantiate(w.registry, roots, 0, 3, w.initializer);
                  return roots;
                },
                true),
            new Operation(
                "clone", w -> new long[] {EntityCloner.within(w.registry).clone(w.t0)}, false),
            new Operation(
                "cloneTree",
                w -> new long[] {EntityCloner.within(w.registry).cloneTree(w.t0)},
                true),
            new Operation(
                "cloneInto",
                w -> {
                  EntityCloner.within(w.registry).cloneInto(w.t0, w.target);
                  return new long[] {w.target};
                },
                false))
        .map(Arguments::of);
  }

  /** Checks that {@code copy} is a complete copy of {@code template} (its tree if {@code tree}). */
  static void assertComplete(
      final World w, final long template, final long copy, final boolean tree) {
    final List<Long> members = new ArrayList<>();
    final List<Long> copies = new ArrayList<>();
    if (tree) {
      w.tree.depthFirst(template, members::add);
      w.tree.depthFirst(copy, copies::add);
    } else {
      members.add(template);
      copies.add(copy);
    }
    assertEquals(members.size(), copies.size(), "the copy's tree has another size");
    final Map<Long, Long> clones = new HashMap<>();
    for (int i = 0; i < members.size(); i++) {
      clones.put(members.get(i), copies.get(i));
    }
    for (int i = 0; i < members.size(); i++) {
      CloneModelTest.assertCopy(
          w.registry,
          members.get(i),
          w.registry,
          copies.get(i),
          CloneModelTest.remap(clones, true),
          null);
      assertEquals(
          w.registry.has(members.get(i), AllPrimitivesStorageB.IN_PLACE_TWIN),
          w.registry.has(copies.get(i), AllPrimitivesStorageB.IN_PLACE_TWIN));
      if (i > 0) {
        assertEquals(
            clones.get(w.tree.parent(members.get(i))),
            w.tree.parent(copies.get(i)),
            "the copy's links differ from the template's");
      }
    }
  }

  private static void assertConsistent(final World w, final String where) {
    assertEquals(List.of(), WorldPrint.problems(w.registry), where);
    assertEquals(List.of(), w.tree.verify(), where);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("operations")
  void aListenerOrInitializerThrowingAtAnyCallLeavesEveryInstanceComplete(final Operation op) {
    final World clean = new World();
    final int aliveBefore = clean.registry.alive();
    final long[] cleanRoots = op.run().apply(clean);
    final int calls = clean.calls;
    assertTrue(calls >= 3, "too few calls to inject into: " + calls);
    for (final long root : cleanRoots) {
      assertComplete(clean, clean.t0, root, op.tree());
    }
    assertEquals(cleanRoots.length, Arrays.stream(cleanRoots).distinct().count());
    final int members = op.tree() ? 4 : 1;
    final boolean creates = !op.name().equals("cloneInto");
    assertEquals(
        aliveBefore + (creates ? cleanRoots.length * members : 0),
        clean.registry.alive(),
        "entities left behind or missing");
    assertConsistent(clean, "clean " + op);
    final WorldPrint.Layout after = WorldPrint.layout(clean.registry);
    for (final boolean fromOn : new boolean[] {false, true}) {
      for (int k = 1; k <= calls; k++) {
        final String where = op + ", fault at call " + k + " of " + calls + (fromOn ? " on" : "");
        final World w = new World();
        Throwable thrown = null;
        try {
          w.arm(k, fromOn);
          runKeepingRoots(op, w);
        } catch (final RuntimeException e) {
          thrown = e;
        }
        assertNotNull(thrown, where + ": the fault was swallowed");
        assertSame(w.thrown.get(0), thrown, where + ": not the first exception");
        final Set<Throwable> reachable = new HashSet<>(Arrays.asList(thrown.getSuppressed()));
        for (int i = 1; i < w.thrown.size(); i++) {
          assertTrue(reachable.contains(w.thrown.get(i)), where + ": a later fault was lost");
        }
        w.arm(0, false);
        assertConsistent(w, where);
        assertEquals(after, WorldPrint.layout(w.registry), where + ": not every change was made");
        assertTrue(
            Arrays.equals(cleanRoots, LAST_ROOTS[0]),
            where + ": roots " + Arrays.toString(LAST_ROOTS[0]));
      }
    }
  }

  // The roots array of the last prefab call, filled even if the call throws.
  private static final long[][] LAST_ROOTS = new long[1][];

  /** Runs {@code op}, recording the roots array a prefab call fills before it throws. */
  private static void runKeepingRoots(final Operation op, final World w) {
    LAST_ROOTS[0] = null;
    switch (op.name()) {
      case "one-entity prefab, 3 instances", "tree prefab, 3 instances" -> {
        final Prefab prefab =
            op.tree() ? Prefab.ofTree(w.registry, w.t0) : Prefab.of(w.registry, w.t0);
        final long[] roots = new long[3];
        LAST_ROOTS[0] = roots;
        prefab.instantiate(w.registry, roots, 0, 3, w.initializer);
      }
      case "clone" -> {
        // The clone's entity is the next one the registry creates: known before the call.
        LAST_ROOTS[0] = new long[] {nextEntity(w)};
        EntityCloner.within(w.registry).clone(w.t0);
      }
      case "cloneTree" -> {
        LAST_ROOTS[0] = new long[] {nextEntity(w)};
        EntityCloner.within(w.registry).cloneTree(w.t0);
      }
      default -> {
        LAST_ROOTS[0] = new long[] {w.target};
        op.run().apply(w);
      }
    }
  }

  private static long nextEntity(final World w) {
    return Entity.of(w.registry.entities().size(), 0);
  }

  // ---------------------------------------------------------------------------------------------
  // Re-entrancy.

  @Test
  void aConstructListenerCloningWithTheSameClonerGetsItsOwnClone() {
    final World w = new World();
    final EntityCloner cloner = EntityCloner.within(w.registry);
    final long[] inner = {Entity.NULL};
    w.registry
        .storage(HEALTH)
        .onConstruct()
        .connect(
            (r, e) -> {
              if (Entity.isNull(inner[0])) {
                inner[0] = cloner.clone(w.t2); // t2 has no health: no recursion
                if (r.has(w.t1, HEALTH) && Entity.index(e) < 8) {
                  // The first phase clones t1: its clone is whole when the listener hears it.
                  assertTrue(r.has(e, AllPrimitivesStorageB.IN_PLACE), "the outer clone is whole");
                }
              }
            });
    final int aliveBefore = w.registry.alive();
    final long outer = cloner.clone(w.t1);
    assertFalse(Entity.isNull(inner[0]));
    assertNotEquals(outer, inner[0]);
    assertComplete(w, w.t1, outer, false);
    assertComplete(w, w.t2, inner[0], false);
    assertEquals(w.t0, w.tree.parent(outer), "a clone stays on its source's parent");
    assertEquals(w.t0, w.tree.parent(inner[0]));
    assertEquals(aliveBefore + 2, w.registry.alive());
    assertConsistent(w, "nested clone");
    // The cloner still works, and a tree clone from a listener as well.
    inner[0] = Entity.NULL;
    w.registry.storage(HEALTH).onConstruct().connect((r, e) -> {});
    final long again = cloner.cloneTree(w.t0);
    // (t0's tree grows by the nested clones attached to it: compare the roots' components.)
    for (final dev.phalanx.ecs.ComponentType<?, ?> type :
        List.of(AllPrimitivesStorageB.SWAP, AllPrimitivesStorageB.IN_PLACE_TWIN, HEALTH, TAG)) {
      assertTrue(w.registry.has(again, type), type.name());
    }
    assertEquals(4, w.tree.childCount(again), "t0 had four children when the tree was cloned");
    assertComplete(w, w.t2, inner[0], false);
    assertConsistent(w, "nested clone, again");
  }

  @Test
  void anInitializerAndAListenerInstantiatingTheSamePrefabEachGetTheirOwnInstances() {
    final World w = new World();
    final Prefab prefab = Prefab.ofTree(w.registry, w.t0);
    final List<long[]> nested = new ArrayList<>();
    final int[] depth = {0};
    final Prefab.Initializer initializer =
        (index, root) -> {
          if (0 == depth[0] && 1 == index) {
            depth[0]++;
            final long[] roots = new long[2];
            prefab.instantiate(w.registry, roots, 0, 2, (i, r) -> {});
            nested.add(roots);
            depth[0]--;
          }
        };
    w.registry
        .storage(HEALTH)
        .onConstruct()
        .connect(
            (r, e) -> {
              if (0 == depth[0] && nested.isEmpty()) {
                depth[0]++;
                final long[] roots = new long[3];
                prefab.instantiate(w.registry, roots, 0, 3, null);
                nested.add(roots);
                depth[0]--;
              }
            });
    final int aliveBefore = w.registry.alive();
    final long[] outer = new long[4];
    prefab.instantiate(w.registry, outer, 0, 4, initializer);
    assertEquals(2, nested.size(), "the listener and the initializer each instantiated once");
    final Set<Long> all = new HashSet<>();
    for (final long root : outer) {
      all.add(root);
      assertComplete(w, w.t0, root, true);
      assertEquals(Entity.NULL, w.tree.parent(root), "instances are roots");
    }
    for (final long[] roots : nested) {
      for (final long root : roots) {
        assertTrue(all.add(root), "a root named twice: " + Entity.toString(root));
        assertComplete(w, w.t0, root, true);
      }
    }
    assertEquals(4 + 3 + 2, all.size());
    assertEquals(aliveBefore + (4 + 3 + 2) * prefab.size(), w.registry.alive(), "counts exact");
    assertConsistent(w, "nested instantiation");
  }

  // ---------------------------------------------------------------------------------------------
  // Refusals.

  static Stream<Arguments> refusable() {
    return operations();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusable")
  void aLockedStorageRefusesBeforeAnyChange(final Operation op) {
    final World w = new World();
    Prefab.of(w.registry, w.t0); // captures read only
    final WorldPrint.Layout before = WorldPrint.layout(w.registry);
    w.arm(0, false);
    CoreTestAccess.lock(w.registry.storage(HEALTH), "a test");
    try {
      assertThrows(ConcurrentModificationException.class, () -> op.run().apply(w));
    } finally {
      CoreTestAccess.unlock(w.registry.storage(HEALTH));
    }
    assertEquals(0, w.calls, "a listener or the initializer ran");
    assertEquals(before, WorldPrint.layout(w.registry), "a refused call changed the world");
    assertConsistent(w, "refused " + op);
    // Then it works.
    final long[] roots = op.run().apply(w);
    for (final long root : roots) {
      assertComplete(w, w.t0, root, op.tree());
    }
  }

  @Test
  void aPrefabOrCloneIntoAGroupBeingIteratedIsRefusedBeforeAnyChange() {
    final World w = new World();
    final Prefab prefab = Prefab.of(w.registry, w.t0);
    final EntityCloner cloner = EntityCloner.within(w.registry);
    final WorldPrint.Layout before = WorldPrint.layout(w.registry);
    final long[] roots = {-5, -5};
    final int[] visits = {0};
    w.arm(0, false);
    w.group.each(
        e -> {
          visits[0]++;
          assertThrows(
              ConcurrentModificationException.class,
              () -> prefab.instantiate(w.registry, roots, 0, 2, (i, r) -> fail("initialized")));
          assertThrows(ConcurrentModificationException.class, () -> cloner.clone(w.t0));
          assertThrows(ConcurrentModificationException.class, () -> cloner.cloneTree(w.t0));
          assertThrows(
              ConcurrentModificationException.class, () -> cloner.cloneInto(w.t0, w.target));
        });
    assertTrue(visits[0] > 0);
    assertEquals(-5, roots[0], "a refused call wrote roots");
    assertEquals(0, w.calls);
    assertEquals(before, WorldPrint.layout(w.registry));
    assertConsistent(w, "refused during an iteration");
  }
}
