package dev.phalanx.ecs.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of {@link Observers}: order, filters, propagation, ends, refusals, re-entrancy. */
class ObserversTest {

  record Hit(int damage) {}

  private static final EventType<Hit> HIT = EventType.define("hit", Hit.class);
  private static final EventType<Hit> BUBBLE = EventType.propagating("bubble", Hit.class);
  private static final ComponentType<Void, ?> SHIP = ComponentType.named("ship");

  private final Registry registry = new Registry();
  private final Observers observers = Observers.of(registry);
  private final List<String> log = new ArrayList<>();

  private Observer<Hit> logging(final String name) {
    return trigger ->
        log.add(
            name
                + "@"
                + Entity.index(trigger.entity())
                + "<"
                + Entity.index(trigger.target())
                + ":"
                + trigger.event().damage());
  }

  @Test
  void oneObserversPerRegistry() {
    assertSame(observers, Observers.of(registry));
    assertFalse(observers == Observers.of(new Registry()));
  }

  @Test
  void entityObserversRunFirstThenTheOthersInRegistrationOrder() {
    final long ship = registry.create();
    registry.emplace(ship, SHIP, null);
    final long rock = registry.create();
    observers.observe(HIT, logging("any"));
    observers.observe(HIT, SHIP, logging("ship"));
    observers.observe(HIT, ship, logging("own"));
    observers.observe(BUBBLE, logging("other type"));
    observers.trigger(HIT, ship, new Hit(3));
    observers.trigger(HIT, rock, new Hit(4));
    assertEquals(
        List.of(
            "own@" + Entity.index(ship) + "<" + Entity.index(ship) + ":3",
            "any@" + Entity.index(ship) + "<" + Entity.index(ship) + ":3",
            "ship@" + Entity.index(ship) + "<" + Entity.index(ship) + ":3",
            "any@" + Entity.index(rock) + "<" + Entity.index(rock) + ":4"),
        log);
  }

  @Test
  void aPropagatingEventGoesUpToTheRootUnlessStopped() {
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final long mid = registry.create();
    final long leaf = registry.create();
    hierarchy.attach(mid, root);
    hierarchy.attach(leaf, mid);
    final List<Long> reached = new ArrayList<>();
    observers.observe(BUBBLE, trigger -> reached.add(trigger.entity()));
    observers.observe(HIT, trigger -> reached.add(-trigger.entity()));
    observers.trigger(BUBBLE, leaf, new Hit(1));
    assertEquals(List.of(leaf, mid, root), reached);
    reached.clear();
    observers.trigger(HIT, leaf, new Hit(1));
    assertEquals(List.of(-leaf), reached, "a type that does not propagate stays on its entity");
    reached.clear();
    final Observation stopper =
        observers.observe(
            BUBBLE,
            mid,
            trigger -> {
              trigger.stopPropagation();
              assertTrue(trigger.isPropagationStopped());
            });
    observers.trigger(BUBBLE, leaf, new Hit(1));
    assertEquals(List.of(leaf, mid), reached, "mid's other observers still run, root's do not");
    stopper.close();
    reached.clear();
    observers.trigger(BUBBLE, leaf, new Hit(1));
    assertEquals(List.of(leaf, mid, root), reached);
  }

  @Test
  void destroyingTheEntityEndsItsObservationsAndItsDispatch() {
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long parent = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, parent);
    final Observation own = observers.observe(BUBBLE, child, trigger -> registry.destroy(child));
    final List<Long> reached = new ArrayList<>();
    observers.observe(BUBBLE, trigger -> reached.add(trigger.entity()));
    observers.trigger(BUBBLE, child, new Hit(1));
    assertEquals(List.of(), reached, "the rest of a destroyed entity's observers are skipped");
    assertFalse(own.isOpen(), "destroying the entity closed its observation");
    assertEquals(1, observers.size());
    observers.trigger(BUBBLE, parent, new Hit(1));
    assertEquals(List.of(parent), reached);
  }

  @Test
  void changesDuringADispatchTakeEffectFromTheNextTrigger() {
    final long entity = registry.create();
    final List<String> ran = new ArrayList<>();
    final Observation[] second = new Observation[1];
    observers.observe(
        HIT,
        trigger -> {
          ran.add("first");
          if (null == second[0]) {
            second[0] = observers.observe(HIT, t -> ran.add("added"));
          } else {
            second[0].close();
          }
        });
    final Observation last = observers.observe(HIT, trigger -> ran.add("last"));
    observers.observe(HIT, trigger -> last.close());
    observers.trigger(HIT, entity, new Hit(0));
    assertEquals(List.of("first", "last"), ran, "closed and added during the dispatch: as before");
    ran.clear();
    observers.trigger(HIT, entity, new Hit(0));
    assertEquals(List.of("first", "added"), ran);
    ran.clear();
    observers.trigger(HIT, entity, new Hit(0));
    assertEquals(List.of("first"), ran);
  }

  @Test
  void nestedTriggersRunAtOnceAndADeepLoopIsRefused() {
    final long entity = registry.create();
    final List<Integer> depths = new ArrayList<>();
    observers.observe(
        HIT,
        trigger -> {
          depths.add(trigger.event().damage());
          if (trigger.event().damage() < 3) {
            observers.trigger(HIT, trigger.entity(), new Hit(trigger.event().damage() + 1));
          }
          assertEquals(entity, trigger.target(), "a nested trigger has its own trigger object");
        });
    observers.trigger(HIT, entity, new Hit(0));
    assertEquals(List.of(0, 1, 2, 3), depths);

    final EventType<Void> loop = EventType.define("loop", Void.class);
    observers.observe(loop, trigger -> observers.trigger(loop, trigger.entity(), null));
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> observers.trigger(loop, entity, null));
    assertTrue(refused.getMessage().contains("event loop"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(entity)), refused.getMessage());
    depths.clear();
    observers.trigger(HIT, entity, new Hit(3));
    assertEquals(List.of(3), depths, "the depth unwound: triggers work again");
  }

  @Test
  void deadEntitiesAreRefusedBeforeAnyObserverRuns() {
    final long live = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    observers.observe(HIT, logging("any"));
    final IllegalArgumentException one =
        assertThrows(IllegalArgumentException.class, () -> observers.trigger(HIT, dead, null));
    assertTrue(one.getMessage().contains(Entity.toString(dead)), one.getMessage());
    assertTrue(one.getMessage().contains("event hit"), one.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> observers.trigger(HIT, new long[] {live, dead}, 0, 2, new Hit(1)));
    assertEquals(List.of(), log, "a refused batch ran no observer");
    assertThrows(
        IllegalArgumentException.class, () -> observers.observe(HIT, dead, logging("own")));
    assertEquals(1, observers.size());
  }

  @Test
  void aBatchRunsEveryEntityInOrder() {
    final long a = registry.create();
    final long b = registry.create();
    observers.observe(HIT, logging("any"));
    observers.trigger(HIT, new long[] {b, a, b}, 1, 3, new Hit(2));
    assertEquals(
        List.of(
            "any@" + Entity.index(a) + "<" + Entity.index(a) + ":2",
            "any@" + Entity.index(b) + "<" + Entity.index(b) + ":2"),
        log);
  }

  @Test
  void lifecycleEventsAreObservedPerComponentAndTriggeredByStorages() {
    final ComponentType<Integer, ?> health = ComponentType.of(Integer.class);
    final long entity = registry.create();
    final List<String> seen = new ArrayList<>();
    final Observation added =
        observers.observe(
            EventType.ADDED, health, t -> seen.add("added " + registry.get(t.entity(), health)));
    observers.observe(
        EventType.CHANGED, health, t -> seen.add("changed " + registry.get(t.entity(), health)));
    observers.observe(
        EventType.REMOVED,
        health,
        t ->
            seen.add(
                "removed " + registry.get(t.entity(), health) + " of " + (t.entity() == entity)));
    assertEquals(3, observers.size());
    registry.emplace(entity, health, 1);
    registry.replace(entity, health, 2);
    registry.remove(entity, health);
    added.close();
    registry.emplace(entity, health, 3);
    registry.destroy(entity);
    assertEquals(List.of("added 1", "changed 2", "removed 2 of true", "removed 3 of true"), seen);
    assertEquals(2, observers.size());

    assertThrows(IllegalArgumentException.class, () -> observers.observe(EventType.ADDED, t -> {}));
    assertThrows(
        IllegalArgumentException.class,
        () -> observers.observe(EventType.REMOVED, registry.create(), t -> {}));
    final IllegalArgumentException trigger =
        assertThrows(
            IllegalArgumentException.class,
            () -> observers.trigger(EventType.ADDED, registry.create(), null));
    assertTrue(trigger.getMessage().contains("lifecycle"), trigger.getMessage());
  }

  @Test
  void aThrowingLifecycleObserverFollowsTheSignalRule() {
    final ComponentType<Integer, ?> health = ComponentType.of(Integer.class);
    final long entity = registry.create();
    final IllegalStateException boom = new IllegalStateException("boom");
    final List<String> ran = new ArrayList<>();
    observers.observe(
        EventType.ADDED,
        health,
        t -> {
          throw boom;
        });
    observers.observe(EventType.ADDED, health, t -> ran.add("second"));
    assertSame(
        boom, assertThrows(IllegalStateException.class, () -> registry.emplace(entity, health, 1)));
    assertEquals(List.of("second"), ran, "the other observer ran");
    assertTrue(registry.has(entity, health), "the insertion completed");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void everyObserverRunsAndTheFirstExceptionCarriesTheLater() {
    final long a = registry.create();
    final long b = registry.create();
    final IllegalStateException first = new IllegalStateException("first");
    final IllegalArgumentException second = new IllegalArgumentException("second");
    final List<Long> ran = new ArrayList<>();
    observers.observe(
        HIT,
        t -> {
          throw t.entity() == a ? first : second;
        });
    observers.observe(HIT, t -> ran.add(t.entity()));
    final IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> observers.trigger(HIT, a, new Hit(1)));
    assertSame(first, thrown);
    assertEquals(List.of(a), ran, "the second observer ran");
    ran.clear();
    final IllegalStateException batch =
        assertThrows(
            IllegalStateException.class,
            () -> observers.trigger(HIT, new long[] {a, b}, 0, 2, new Hit(1)));
    assertSame(first, batch);
    assertEquals(List.of(second), List.of(batch.getSuppressed()));
    assertEquals(List.of(a, b), ran, "every entity of the batch was dispatched");
  }

  @Test
  void lifecycleObserversUnwindTheirDepth() {
    final ComponentType<Integer, ?> health = ComponentType.of(Integer.class);
    final long entity = registry.create();
    final int[] seen = {0};
    observers.observe(EventType.ADDED, health, t -> seen[0]++);
    for (int i = 0; i < 3 * Observers.MAX_DEPTH; i++) {
      registry.emplace(entity, health, i);
      registry.remove(entity, health);
    }
    assertEquals(3 * Observers.MAX_DEPTH, seen[0]);
    final int[] depth = {0};
    observers.observe(
        HIT,
        t -> {
          if (++depth[0] < Observers.MAX_DEPTH) {
            observers.trigger(HIT, t.entity(), t.event());
          }
        });
    observers.trigger(HIT, entity, new Hit(0));
    assertEquals(Observers.MAX_DEPTH, depth[0], "nesting as deep as allowed still works");
  }

  @Test
  void anObservationSaysWhatItObserves() {
    final long entity = registry.create();
    final Observation any = observers.observe(HIT, t -> {});
    final Observation own = observers.observe(BUBBLE, entity, t -> {});
    final Observation with = observers.observe(HIT, SHIP, t -> {});
    assertSame(HIT, any.type());
    assertEquals(Entity.NULL, any.entity());
    assertEquals(entity, own.entity());
    assertEquals("observer of hit", any.toString());
    assertEquals("observer of bubble on " + Entity.toString(entity), own.toString());
    assertEquals("observer of hit with ship", with.toString());
    assertEquals("hit", HIT.name());
    assertSame(Hit.class, HIT.payload());
    assertTrue(BUBBLE.propagates());
    assertFalse(HIT.propagates());
    assertTrue(any.isOpen());
    any.close();
    any.close();
    assertFalse(any.isOpen());
    assertEquals(2, observers.size());
  }

  @Test
  void triggeringAllocatesNothingOnceWarm() {
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long parent = registry.create();
    final long child = registry.create();
    registry.emplace(child, SHIP, null);
    hierarchy.attach(child, parent);
    final long[] count = {0};
    observers.observe(BUBBLE, trigger -> count[0]++);
    observers.observe(BUBBLE, SHIP, trigger -> count[0]++);
    observers.observe(BUBBLE, child, trigger -> count[0]++);
    final EventType<Hit> silent = EventType.define("silent", Hit.class);
    final Hit hit = new Hit(1);
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long allocated = -1;
    for (int round = 0; round < 200; round++) {
      final long start = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 100; i++) {
        observers.trigger(BUBBLE, child, hit);
        observers.trigger(silent, child, hit);
      }
      allocated = threads.getThreadAllocatedBytes(id) - start;
    }
    assertEquals(0, allocated);
    assertEquals(200 * 100 * 4, count[0]);
  }
}
