package dev.phalanx.examples.cloning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.clone.Prefab;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.examples.components.Frozen_Traits;
import dev.phalanx.examples.components.Parent_Storage;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Velocity_Storage;
import dev.phalanx.examples.components.Velocity_Traits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Capturing templates and instantiating them in bulk. */
class PrefabTest {

  @Test
  void instancesCopyTheTemplateAndTheInitializerOverridesEach() {
    // tag::prefab[]
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long template = registry.create();
    positions.emplace(template, 0f, 0f);
    velocities.emplace(template, 1f, 0f);
    registry.storage(Frozen_Traits.TYPE).emplace(template);
    final Prefab wolf = Prefab.of(registry, template);
    registry.destroy(template); // the prefab keeps its own copy

    final long[] pack = new long[1000];
    wolf.instantiate(registry, pack, 0, pack.length, (i, e) -> positions.setX(e, i));

    assertEquals(new Position(999f, 0f), positions.get(pack[999]));
    assertEquals(1f, velocities.dx(pack[0]));
    // end::prefab[]
    assertEquals(1000, registry.alive());
    final Set<Long> distinct = new HashSet<>();
    for (final long e : pack) {
      assertTrue(registry.has(e, Frozen_Traits.TYPE));
      distinct.add(e);
    }
    assertEquals(1000, distinct.size());
    assertEquals(1, wolf.size());
    assertTrue(wolf.has(Velocity_Traits.TYPE));
    assertFalse(wolf.has(Parent_Traits.TYPE));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void treeInstancesHaveTheTemplatesLinksAndInnerReferences() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final Parent_Storage aims = registry.storage(Parent_Traits.TYPE);
    final long tower = registry.create();
    final long left = registry.create();
    final long right = registry.create();
    final long outside = registry.create();
    hierarchy.attach(right, tower);
    hierarchy.attach(left, tower);
    aims.emplace(left, right, 1);
    aims.emplace(right, outside, 2);
    registry.storage(Position_Traits.TYPE).emplace(tower, 3f, 4f);
    final Prefab prefab = Prefab.ofTree(registry, tower);
    assertEquals(3, prefab.size());
    final long[] towers = new long[5];
    prefab.instantiate(registry, towers);
    for (final long t : towers) {
      assertEquals(Entity.NULL, hierarchy.parent(t));
      final long l = hierarchy.firstChild(t);
      final long r = hierarchy.nextSibling(l);
      assertEquals(2, hierarchy.childCount(t));
      assertEquals(r, aims.entity(l), "inner reference: the instance's own member");
      assertEquals(outside, aims.entity(r), "outer reference, same registry: kept");
      assertNotEquals(right, r);
    }
    final Registry elsewhere = new Registry();
    final long there = prefab.instantiate(elsewhere);
    final Hierarchy links = Hierarchy.of(elsewhere);
    final long l = links.firstChild(there);
    final Parent_Storage thereAims = elsewhere.storage(Parent_Traits.TYPE);
    assertEquals(links.nextSibling(l), thereAims.entity(l));
    assertEquals(Entity.NULL, thereAims.entity(links.nextSibling(l)), "outer, elsewhere: NULL");
    assertEquals(List.of(), registry.verify());
    assertEquals(List.of(), elsewhere.verify());
  }

  /** A tree of three with an inner reference and a position, in a registry with a group. */
  private static Registry world(final boolean listened, final List<Long> heard) {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(Position_Traits.TYPE, Parent_Traits.TYPE);
    if (listened) {
      // A listener makes the copies go element by element, announced last.
      registry.storage(Parent_Traits.TYPE).onConstruct().connect((r, e) -> heard.add(e));
    }
    assertEquals(0, group.size());
    return registry;
  }

  @Test
  void bulkAndElementByElementCopiesGiveTheSameWorld() {
    final String[] printed = new String[2];
    for (final boolean listened : new boolean[] {false, true}) {
      final List<Long> heard = new ArrayList<>();
      final Registry registry = world(listened, heard);
      final Hierarchy hierarchy = Hierarchy.of(registry);
      final long tower = registry.create();
      final long left = registry.create();
      final long right = registry.create();
      hierarchy.attach(right, tower);
      hierarchy.attach(left, tower);
      registry.storage(Parent_Traits.TYPE).emplace(left, right, 1);
      registry.storage(Parent_Traits.TYPE).emplace(tower, left, 0);
      registry.storage(Position_Traits.TYPE).emplace(tower, 3f, 4f);
      registry.storage(Position_Traits.TYPE).emplace(left, 5f, 6f);
      final Prefab prefab = Prefab.ofTree(registry, tower);
      heard.clear();
      final long[] towers = new long[50];
      prefab.instantiate(registry, towers);
      // The tower and its left child have both types: two group members per instance.
      assertEquals(
          2 + 2 * towers.length,
          registry.owningGroup(Position_Traits.TYPE, Parent_Traits.TYPE).size());
      assertEquals(listened ? 2 * towers.length : 0, heard.size());
      assertEquals(List.of(), registry.verify());
      printed[listened ? 1 : 0] = Worlds.print(registry);
    }
    assertEquals(printed[1], printed[0]);
  }

  @Test
  void anInitializerThrowingAtAnyCallStopsNoInstanceOfABulkCopy() {
    final Registry registry = world(false, new ArrayList<>());
    final long template = registry.create();
    registry.storage(Position_Traits.TYPE).emplace(template, 1f, 2f);
    registry.storage(Parent_Traits.TYPE).emplace(template, template, 7);
    registry.storage(Frozen_Traits.TYPE).emplace(template);
    final Prefab prefab = Prefab.of(registry, template);
    final long[] out = new long[20];
    for (int k = 0; k < out.length; k++) {
      final int throwAt = k;
      final int alive = registry.alive();
      final int[] initialized = {0};
      Arrays.fill(out, 42L);
      final IllegalStateException thrown =
          assertThrows(
              IllegalStateException.class,
              () ->
                  prefab.instantiate(
                      registry,
                      out,
                      0,
                      out.length,
                      (i, e) -> {
                        initialized[0]++;
                        if (i == throwAt) {
                          throw new IllegalStateException("initializer " + i);
                        }
                      }));
      assertEquals("initializer " + k, thrown.getMessage());
      assertEquals(out.length, initialized[0], "k = " + k + ": every instance is initialized");
      assertEquals(alive + out.length, registry.alive(), "k = " + k);
      assertEquals(List.of(), registry.verify(), "k = " + k);
      for (final long e : out) {
        assertEquals(e, registry.storage(Parent_Traits.TYPE).entity(e), "self reference remapped");
        assertTrue(registry.storage(Frozen_Traits.TYPE).contains(e), "every component copied");
      }
    }
  }

  @Test
  void badInputIsRefusedAndChangesNothing() {
    final Registry registry = new Registry();
    final long dead = registry.create();
    registry.destroy(dead);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> Prefab.of(registry, dead));
    assertTrue(refused.getMessage().contains(Entity.toString(dead)), refused.getMessage());
    final long template = registry.create();
    registry.storage(Position_Traits.TYPE).emplace(template, 1f, 1f);
    final Prefab prefab = Prefab.of(registry, template);
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> prefab.instantiate(registry, new long[2], 1, 2, null));
    assertEquals(1, registry.alive());
  }
}
