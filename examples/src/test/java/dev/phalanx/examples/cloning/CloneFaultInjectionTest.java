package dev.phalanx.examples.cloning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.clone.EntityCloner;
import dev.phalanx.ecs.clone.Prefab;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.examples.components.Frozen_Traits;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Slot;
import dev.phalanx.examples.components.Slot_Traits;
import dev.phalanx.examples.components.Velocity_Traits;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A listener (or an initializer) that throws at its k-th call, for every k, during cloning and
 * prefab instantiation: the call is one change set, so the listener stops nothing. Every run ends
 * in the world a run without faults makes, the injected exception comes out, and {@code
 * registry.verify()} is empty.
 */
class CloneFaultInjectionTest {

  /** Thrown by the injected listener. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected at call " + call);
    }
  }

  /** Counts calls and throws at the k-th. */
  static final class Fault implements ComponentListener, Prefab.Initializer {
    final int throwAt;
    int calls;

    Fault(final int throwAt) {
      this.throwAt = throwAt;
    }

    void call() {
      if (++calls == throwAt) {
        throw new Injected(calls);
      }
    }

    @Override
    public void onEvent(final Registry registry, final long entity) {
      call();
    }

    @Override
    public void initialize(final int index, final long root) {
      call();
    }
  }

  /** A world: a tower with two turrets, a lone wolf, groups and listeners everywhere. */
  static final class World {
    final Registry registry = new Registry();
    final Registry other = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long tower;
    final long wolf;
    final long target;
    Fault fault;

    World() {
      for (final Registry r : new Registry[] {registry, other}) {
        r.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
        r.storage(Frozen_Traits.TYPE);
        r.storage(Parent_Traits.TYPE);
        r.storage(Slot_Traits.TYPE);
        Hierarchy.of(r);
      }
      tower = registry.create();
      final long left = registry.create();
      final long right = registry.create();
      hierarchy.attach(right, tower);
      hierarchy.attach(left, tower);
      registry.storage(Position_Traits.TYPE).emplace(tower, 1f, 2f);
      registry.storage(Velocity_Traits.TYPE).emplace(tower, 0f, 0f);
      registry.storage(Parent_Traits.TYPE).emplace(left, right, 1);
      registry.storage(Parent_Traits.TYPE).emplace(right, tower, 1);
      registry.emplace(left, Slot_Traits.TYPE, new Slot(1, "gun"));
      registry.storage(Frozen_Traits.TYPE).emplace(right);
      wolf = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(wolf, 5f, 5f);
      registry.storage(Velocity_Traits.TYPE).emplace(wolf, 1f, 1f);
      registry.emplace(wolf, Slot_Traits.TYPE, new Slot(2, "fang"));
      registry.storage(Parent_Traits.TYPE).emplace(wolf, wolf, 0);
      target = registry.create();
      registry.storage(Frozen_Traits.TYPE).emplace(target);
      hierarchy.attach(target, tower);
    }

    /** Connects {@code fault} to every signal of both registries. */
    void inject(final Fault fault) {
      this.fault = fault;
      for (final Registry r : new Registry[] {registry, other}) {
        for (int i = 0; i < r.storageCount(); i++) {
          final Storage<?> storage = r.storageAt(i);
          storage.onConstruct().connect(fault);
          storage.onDestroy().connect(fault);
          storage.onUpdate().connect(fault);
        }
        for (int g = 0; g < r.groups().size(); g++) {
          r.groups().get(g).onEnter().connect(fault);
          r.groups().get(g).onLeave().connect(fault);
        }
      }
    }
  }

  /**
   * Runs {@code operation} with a fault that never throws, then once per k with one that throws at
   * call k: each failed run must end in exactly the fault-free run's worlds (a throwing listener
   * stops no part of the change), with the injected exception coming out.
   */
  private static void everyK(final String name, final Consumer<World> operation) {
    final World clean = new World();
    final Fault never = new Fault(Integer.MAX_VALUE);
    clean.inject(never);
    operation.accept(clean);
    final String after = Worlds.print(clean.registry);
    final String otherAfter = Worlds.print(clean.other);
    assertTrue(never.calls >= 2, name + ": only " + never.calls + " calls could throw");
    for (int k = 1; k <= never.calls; k++) {
      final World world = new World();
      final Fault fault = new Fault(k);
      world.inject(fault);
      try {
        operation.accept(world);
        fail(name + ": call " + k + " threw, and the operation did not rethrow it");
      } catch (final Injected thrown) {
        assertEquals("injected at call " + k, thrown.getMessage(), name);
      }
      assertEquals(never.calls, fault.calls, name + ", thrown at " + k + ": every listener ran");
      assertEquals(after, Worlds.print(world.registry), name + ", thrown at " + k);
      assertEquals(otherAfter, Worlds.print(world.other), name + ", thrown at " + k);
      assertEquals(List.of(), world.registry.verify(), name + ", thrown at " + k);
      assertEquals(List.of(), world.other.verify(), name + ", thrown at " + k);
    }
  }

  @Test
  void cloneTreeIsMadeWholeWhateverAListenerThrows() {
    everyK("cloneTree", world -> EntityCloner.within(world.registry).cloneTree(world.tower));
  }

  @Test
  void cloneIntoAnotherRegistryIsMadeWholeWhateverAListenerThrows() {
    everyK(
        "clone across",
        world -> EntityCloner.between(world.registry, world.other).cloneTree(world.tower));
  }

  @Test
  void cloneOfAChildIsMadeWholeWhateverAListenerThrows() {
    everyK("clone", world -> EntityCloner.within(world.registry).clone(world.wolf));
  }

  @Test
  void cloneIntoAnExistingEntityIsMadeWholeWhateverAListenerThrows() {
    everyK(
        "cloneInto",
        world -> EntityCloner.within(world.registry).cloneInto(world.wolf, world.target));
  }

  @Test
  void prefabInstantiationIsMadeWholeWhateverAListenerThrows() {
    everyK(
        "prefab",
        world -> {
          final Prefab prefab = Prefab.ofTree(world.registry, world.tower);
          final long[] roots = new long[3];
          prefab.instantiate(world.registry, roots, 0, 3, world.fault);
        });
  }

  @Test
  void aThrowingInitializerStopsNoInstance() {
    for (int k = 1; k <= 3; k++) {
      final World world = new World();
      final String before = Worlds.print(world.registry);
      final Prefab prefab = Prefab.ofTree(world.registry, world.tower);
      final long[] roots = {7, 7, 7};
      final Fault fault = new Fault(k);
      try {
        prefab.instantiate(world.other, roots, 0, 3, fault);
        fail("the initializer threw at " + k);
      } catch (final Injected expected) {
        assertEquals(3, fault.calls, "every instance is initialized");
      }
      assertEquals(before, Worlds.print(world.registry));
      assertEquals(3 * prefab.size(), world.other.alive());
      assertEquals(List.of(), world.other.verify());
      for (final long root : roots) {
        assertTrue(world.other.valid(root), "roots names every instance");
      }
    }
  }
}
