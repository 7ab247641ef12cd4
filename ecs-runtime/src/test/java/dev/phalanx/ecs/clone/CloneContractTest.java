package dev.phalanx.ecs.clone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.VoidStorage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parts of the cloning contract that the model test ({@link CloneModelTest}) does not reach:
 * what a failed {@code cloneInto} leaves on its target, refusals made before anything is copied,
 * announcements made once per call, prefab initializers, references of instances copied one by one,
 * group entries announced for storages with no construct listener, failed links, and type ids past
 * a cloner's tables.
 */
class CloneContractTest {

  private static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> SWAP =
      AllPrimitivesStorageB.SWAP;
  private static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> IN_PLACE =
      AllPrimitivesStorageB.IN_PLACE;
  private static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> TRACKED =
      AllPrimitivesStorageB.TRACKED;
  private static final List<ComponentType<?, ?>> KINDS =
      List.of(SWAP, IN_PLACE, TRACKED, CloneModelTest.HEALTH, CloneModelTest.TAG);

  private static Sample pointingAt(final long target, final int count) {
    return new Sample(
        false, (byte) 1, (short) 2, 'c', count, 5L, target, 6f, 7d, "s" + count, null, null);
  }

  /** An entity with one component of every kind (three sample storages, an object, a tag). */
  private static long full(final Registry registry) {
    final long e = registry.create();
    registry.emplace(e, SWAP, pointingAt(Entity.NULL, 1));
    registry.emplace(e, IN_PLACE, pointingAt(Entity.NULL, 2));
    registry.emplace(e, TRACKED, pointingAt(Entity.NULL, 3));
    registry.emplace(e, CloneModelTest.HEALTH, new CloneModelTest.Health(4));
    registry.storage(CloneModelTest.TAG).emplace(e);
    return e;
  }

  /** A construct listener that counts its calls and throws at the {@code armed}-th (0: never). */
  private static final class Fault implements ComponentListener {
    final RuntimeException boom = new IllegalStateException("boom");
    int armed;
    int calls;

    @Override
    public void onEvent(final Registry registry, final long entity) {
      if (++calls == armed) {
        throw boom;
      }
    }
  }

  @Test
  void aListenerThatThrowsDuringCloneIntoStopsNoCopyForEveryFailingCall() {
    final Registry registry = new Registry();
    final long original = full(registry);
    final Fault fault = new Fault();
    for (final ComponentType<?, ?> type : List.of(SWAP, IN_PLACE, TRACKED, CloneModelTest.HEALTH)) {
      registry.storage(type).onConstruct().connect(fault);
    }
    final EntityCloner cloner = EntityCloner.within(registry);
    final long target = registry.create();
    // Four listened insertions per clone: fail at each of them, then let one through.
    for (int k = 1; k <= 5; k++) {
      fault.armed = k;
      fault.calls = 0;
      if (k <= 4) {
        final RuntimeException thrown =
            assertThrows(RuntimeException.class, () -> cloner.cloneInto(original, target));
        assertSame(fault.boom, thrown, "the listener's own exception comes out");
        assertEquals(4, fault.calls, "every other listener ran");
      } else {
        cloner.cloneInto(original, target);
      }
      for (final ComponentType<?, ?> type : KINDS) {
        assertTrue(registry.has(target, type), "failing at call " + k + " left out " + type.name());
      }
      assertEquals(pointingAt(Entity.NULL, 2), registry.get(target, IN_PLACE));
      assertTrue(registry.valid(target));
      assertEquals(List.of(), registry.verify());
      for (final ComponentType<?, ?> type : KINDS) {
        registry.remove(target, type);
      }
    }
  }

  @Test
  void cloneIntoALockedStorageIsRefusedBeforeAnythingIsCopiedOrAnnounced() {
    final Registry registry = new Registry();
    final long original = registry.create();
    // The listened storage comes first in the plan, the locked one after it.
    registry.emplace(original, SWAP, pointingAt(Entity.NULL, 1));
    registry.emplace(original, CloneModelTest.HEALTH, new CloneModelTest.Health(2));
    final Fault counter = new Fault();
    registry.storage(SWAP).onConstruct().connect(counter);
    final long target = registry.create();
    CoreTestAccess.lock(registry.storage(CloneModelTest.HEALTH), "a test");
    try {
      assertThrows(
          ConcurrentModificationException.class,
          () -> EntityCloner.within(registry).cloneInto(original, target));
    } finally {
      CoreTestAccess.unlock(registry.storage(CloneModelTest.HEALTH));
    }
    assertEquals(0, counter.calls, "nothing was copied, so nothing was announced");
    assertFalse(registry.has(target, SWAP));
    assertFalse(registry.has(target, CloneModelTest.HEALTH));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void cloneIntoATargetBeingDestroyedIsRefusedAndSaysWhy() {
    final Registry registry = new Registry();
    final long original = registry.create();
    registry.emplace(original, SWAP, pointingAt(Entity.NULL, 1));
    final long target = registry.create();
    registry.emplace(target, CloneModelTest.HEALTH, new CloneModelTest.Health(1));
    final EntityCloner cloner = EntityCloner.within(registry);
    final List<RuntimeException> refusals = new ArrayList<>();
    registry
        .storage(CloneModelTest.HEALTH)
        .onDestroy()
        .connect(
            (r, e) -> {
              if (e == target) {
                refusals.add(
                    assertThrows(IllegalStateException.class, () -> cloner.cloneInto(original, e)));
              }
            });
    registry.destroy(target);
    assertEquals(1, refusals.size());
    assertTrue(
        refusals.get(0).getMessage().contains(SWAP.name()), () -> refusals.get(0).getMessage());
    assertFalse(registry.valid(target));
    assertEquals(1, registry.storage(SWAP).size(), "only the original's element is left");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void eachCloneAnnouncesItsOwnInsertionsOnce() {
    final Registry registry = new Registry();
    final long original = full(registry);
    final Fault counter = new Fault();
    registry.storage(SWAP).onConstruct().connect(counter);
    final EntityCloner cloner = EntityCloner.within(registry);
    cloner.clone(original);
    assertEquals(1, counter.calls);
    cloner.clone(original);
    assertEquals(2, counter.calls, "the second clone announces its own element, not the first's");
  }

  /** A template tree: a root and two children, the first child pointing at the root and back. */
  private static long template(final Registry registry) {
    final Hierarchy tree = Hierarchy.of(registry);
    final long root = registry.create();
    final long first = registry.create();
    final long second = registry.create();
    registry.emplace(root, SWAP, pointingAt(first, 10));
    registry.emplace(first, SWAP, pointingAt(root, 11));
    registry.emplace(second, CloneModelTest.HEALTH, new CloneModelTest.Health(12));
    tree.attach(first, root);
    tree.attach(second, root);
    return root;
  }

  /** Checks that {@code root} is a complete instance of {@link #template}: links and references. */
  private static void assertInstance(final Registry registry, final long root) {
    final Hierarchy tree = Hierarchy.of(registry);
    final List<Long> children = new ArrayList<>();
    tree.eachChild(root, children::add);
    assertEquals(2, children.size(), "two children");
    final long first = registry.has(children.get(0), SWAP) ? children.get(0) : children.get(1);
    final long second = first == children.get(0) ? children.get(1) : children.get(0);
    assertEquals(first, registry.get(root, SWAP).target(), "the root points at its own child");
    assertEquals(root, registry.get(first, SWAP).target(), "the child points at its own root");
    assertEquals(11, registry.get(first, SWAP).count());
    assertTrue(registry.has(second, CloneModelTest.HEALTH));
  }

  @Test
  void instancesCopiedOneByOneReferTheirOwnMembersAndAreAnnouncedOncePerCall() {
    final Registry registry = new Registry();
    final long root = template(registry);
    // A construct listener makes the prefab copy element by element (to announce them last).
    final Fault counter = new Fault();
    registry.storage(SWAP).onConstruct().connect(counter);
    final Prefab prefab = Prefab.ofTree(registry, root);
    final long[] roots = new long[3];
    prefab.instantiate(registry, roots);
    assertEquals(6, counter.calls, "two listened elements per instance");
    for (final long instance : roots) {
      assertInstance(registry, instance);
    }
    prefab.instantiate(registry, roots);
    assertEquals(12, counter.calls, "the second call announces its own elements only");
    for (final long instance : roots) {
      assertInstance(registry, instance);
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aTreePrefabKeepsEveryLevelOfItsTemplate() {
    final Registry registry = new Registry();
    final Hierarchy tree = Hierarchy.of(registry);
    final long root = registry.create();
    final long child = registry.create();
    final long grandchild = registry.create();
    tree.attach(child, root);
    tree.attach(grandchild, child);
    registry.emplace(grandchild, SWAP, pointingAt(root, 3));
    final long[] roots = new long[2];
    Prefab.ofTree(registry, root).instantiate(registry, roots);
    for (final long instance : roots) {
      final long copiedChild = tree.firstChild(instance);
      final long copiedGrandchild = tree.firstChild(copiedChild);
      assertEquals(instance, tree.parent(copiedChild));
      assertEquals(copiedChild, tree.parent(copiedGrandchild), "the grandchild keeps its parent");
      assertEquals(Entity.NULL, tree.firstChild(copiedGrandchild));
      assertEquals(instance, registry.get(copiedGrandchild, SWAP).target());
    }
    assertEquals(List.of(), tree.verify());
  }

  @Test
  void anInitializerSeesEveryInstanceCompleteInOrder() {
    final Registry registry = new Registry();
    final Prefab prefab = Prefab.ofTree(registry, template(registry));
    final long[] roots = new long[5];
    Arrays.fill(roots, Entity.NULL);
    final List<Long> seen = new ArrayList<>();
    final int complete = registry.alive() + 3 * 3;
    prefab.instantiate(
        registry,
        roots,
        1,
        3,
        (index, root) -> {
          assertEquals(seen.size(), index, "instances come in order");
          assertEquals(complete, registry.alive(), "every instance exists before the first call");
          assertInstance(registry, root);
          seen.add(root);
        });
    assertEquals(3, seen.size());
    assertEquals(Entity.NULL, roots[0]);
    assertEquals(Entity.NULL, roots[4]);
    assertEquals(seen, List.of(roots[1], roots[2], roots[3]));
  }

  @Test
  void anInitializerThatThrowsStopsNoInstanceWhicheverItFailsOn() {
    final Registry registry = new Registry();
    final Prefab prefab = Prefab.ofTree(registry, template(registry));
    final RuntimeException boom = new IllegalStateException("boom");
    for (int k = 0; k < 3; k++) {
      final int failing = k;
      final int alive = registry.alive();
      final long[] roots = new long[3];
      Arrays.fill(roots, Entity.NULL);
      final int[] calls = {0};
      final RuntimeException thrown =
          assertThrows(
              RuntimeException.class,
              () ->
                  prefab.instantiate(
                      registry,
                      roots,
                      0,
                      3,
                      (index, root) -> {
                        calls[0]++;
                        if (index == failing) {
                          throw boom;
                        }
                      }));
      assertSame(boom, thrown);
      assertEquals(3, calls[0], "every instance is initialized");
      assertEquals(alive + 3 * prefab.size(), registry.alive(), "every instance is complete");
      for (final long root : roots) {
        assertTrue(registry.valid(root), "roots names the instances");
      }
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void aOneEntityPrefabNeedsNoHierarchyAnywhere() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.emplace(e, SWAP, pointingAt(Entity.NULL, 1));
    final Prefab prefab = Prefab.of(registry, e);
    final Registry other = new Registry();
    final long[] roots = new long[4];
    prefab.instantiate(other, roots);
    for (final long root : roots) {
      assertEquals(pointingAt(Entity.NULL, 1), other.get(root, SWAP));
    }
    assertNull(Copier.hierarchyOf(registry));
    assertNull(Copier.hierarchyOf(other), "instantiating a lone entity links nothing");
    assertEquals(1, other.storageCount(), "only the copied type's storage");
  }

  @Test
  void groupEntriesOfPrefabCopiesAreAnnouncedWithoutConstructListeners() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.emplace(e, SWAP, pointingAt(Entity.NULL, 1));
    registry.emplace(e, CloneModelTest.HEALTH, new CloneModelTest.Health(2));
    final Group group =
        registry.nonOwningGroup(
            new ComponentType<?, ?>[] {SWAP, CloneModelTest.HEALTH}, new ComponentType<?, ?>[0]);
    final List<Long> entered = new ArrayList<>();
    group.onEnter().connect((r, entity) -> entered.add(entity));
    final long[] roots = new long[3];
    Prefab.of(registry, e).instantiate(registry, roots);
    // Each instance enters once (announced after every copy is made, last first).
    assertEquals(List.of(roots[2], roots[1], roots[0]), entered);
    assertEquals(4, group.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Where announcing would run nothing, a prefab's copies go in as one bulk insertion does:
   * appended in instance order, even where an in-place storage has holes; with a construct listener
   * they are inserted one by one, as emplace does, into the holes.
   */
  @Test
  void silentPrefabCopiesAreAppendedAsABulkInsertionIs() {
    final Registry registry = new Registry();
    final long[] entities = new long[4];
    registry.create(entities);
    for (int i = 0; i < entities.length; i++) {
      registry.emplace(entities[i], IN_PLACE, pointingAt(Entity.NULL, i));
    }
    registry.remove(entities[1], IN_PLACE);
    registry.remove(entities[2], IN_PLACE); // holes at positions 1 and 2
    final AllPrimitivesStorageB<Sample> storage = registry.storage(IN_PLACE);
    final Prefab prefab = Prefab.of(registry, entities[0]);
    final long[] silent = new long[3];
    prefab.instantiate(registry, silent);
    assertEquals(7, storage.size(), "appended");
    for (int i = 0; i < silent.length; i++) {
      assertEquals(4 + i, storage.indexOf(silent[i]));
      assertEquals(pointingAt(Entity.NULL, 0), registry.get(silent[i], IN_PLACE));
    }
    storage.onConstruct().connect((r, e) -> {});
    final long[] announced = new long[2];
    prefab.instantiate(registry, announced);
    assertEquals(7, storage.size(), "into the holes");
    assertEquals(
        List.of(1, 2), Arrays.stream(announced).mapToObj(storage::indexOf).sorted().toList());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void copiesIntoStoragesThatAnOwningGroupArrangesJoinTheGroup() {
    final Registry registry = new Registry();
    final ComponentType<?, ?>[] none = new ComponentType<?, ?>[0];
    final Group group =
        registry.group(new ComponentType<?, ?>[] {SWAP, CloneModelTest.HEALTH}, none, none);
    final long member = registry.create();
    registry.emplace(member, SWAP, pointingAt(Entity.NULL, 1));
    registry.emplace(member, CloneModelTest.HEALTH, new CloneModelTest.Health(1));
    final long outsider = registry.create();
    registry.emplace(outsider, SWAP, pointingAt(Entity.NULL, 2));
    // One by one (a clone), then in bulk (a prefab with no listener anywhere).
    final long clone = EntityCloner.within(registry).clone(member);
    final long[] roots = new long[5];
    Prefab.of(registry, member).instantiate(registry, roots);
    final long[] outsiders = new long[3];
    Prefab.of(registry, outsider).instantiate(registry, outsiders);
    EntityCloner.within(registry).clone(outsider);
    assertEquals(7, group.size(), "the member, its clone and five instances");
    assertTrue(group.contains(clone));
    for (final long root : roots) {
      assertTrue(group.contains(root));
      assertEquals(pointingAt(Entity.NULL, 1), registry.get(root, SWAP));
    }
    for (final long root : outsiders) {
      assertFalse(group.contains(root));
      assertEquals(pointingAt(Entity.NULL, 2), registry.get(root, SWAP));
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aNodeListenerThatThrowsWhileCloningATreeStopsNoLink() {
    final Registry registry = new Registry();
    final long root = template(registry);
    final RuntimeException boom = new IllegalStateException("boom");
    Hierarchy.of(registry)
        .nodes()
        .onConstruct()
        .connect(
            (r, e) -> {
              throw boom;
            });
    final int size = Prefab.ofTree(registry, root).size();
    final int alive = registry.alive();
    assertSame(boom, assertThrows(RuntimeException.class, () -> cloneTreeOf(registry, root)));
    assertEquals(alive + size, registry.alive(), "the clone is complete");
    final Hierarchy links = Hierarchy.of(registry);
    assertEquals(
        2 * (size - 1), links.nodes().size() - countRoots(links), "every clone member is linked");
    assertSame(
        boom,
        assertThrows(
            RuntimeException.class,
            () -> Prefab.ofTree(registry, root).instantiate(registry, new long[2])));
    assertEquals(alive + 3 * size, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void lastCloneNamesTheCloneOfACallThatRethrewAListenersException() {
    final Registry registry = new Registry();
    final long root = template(registry);
    final EntityCloner cloner = EntityCloner.within(registry);
    assertEquals(Entity.NULL, cloner.lastClone());
    final long first = cloner.cloneTree(root);
    assertEquals(first, cloner.lastClone());
    final RuntimeException boom = new IllegalStateException("boom");
    final long[] nested = {Entity.NULL};
    final boolean[] heard = {false};
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              if (!heard[0]) {
                heard[0] = true;
                // A nested call from a listener: the outer call's clone wins at its end.
                nested[0] = cloner.clone(first);
                throw boom;
              }
            });
    assertSame(boom, assertThrows(RuntimeException.class, () -> cloner.cloneTree(root)));
    final long made = cloner.lastClone();
    assertTrue(registry.valid(made));
    assertFalse(made == nested[0] || made == first, "the outer call's clone");
    assertEquals(
        Prefab.ofTree(registry, root).size(),
        Prefab.ofTree(registry, made).size(),
        "the whole tree was cloned under it");
    assertEquals(List.of(), registry.verify());
  }

  private static int countRoots(final Hierarchy links) {
    int roots = 0;
    for (int i = 0; i < links.nodes().size(); i++) {
      if (Entity.isNull(links.parent(links.nodes().packed()[i]))) {
        roots++;
      }
    }
    return roots;
  }

  private static long cloneTreeOf(final Registry registry, final long root) {
    return EntityCloner.within(registry).cloneTree(root);
  }

  /** Defines named types until one has an id of at least {@code id}; returns that one. */
  private static ComponentType<Void, VoidStorage> namedWithIdAtLeast(final int id) {
    ComponentType<Void, VoidStorage> type;
    int n = 0;
    do {
      type = ComponentType.named("clone-contract-" + id + "-" + n++);
    } while (type.id() < id);
    return type;
  }

  @Test
  void aClonerCopiesTypesWhateverTheirIds() {
    final Registry registry = new Registry();
    final EntityCloner cloner = EntityCloner.within(registry);
    // A fresh cloner's table of types with references holds 32 ids: far past it, then exactly at
    // the end of the table it grew to.
    final ComponentType<Void, VoidStorage> far = namedWithIdAtLeast(100);
    final long e = registry.create();
    registry.storage(far).emplace(e);
    assertTrue(registry.has(cloner.clone(e), far));
    final ComponentType<Void, VoidStorage> edge = namedWithIdAtLeast(far.id() + 1);
    assertEquals(far.id() + 1, edge.id(), "ids are dense");
    registry.storage(edge).emplace(e);
    final long copy = cloner.clone(e);
    assertTrue(registry.has(copy, far));
    assertTrue(registry.has(copy, edge));
  }
}
