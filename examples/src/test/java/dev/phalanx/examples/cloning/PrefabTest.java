package dev.phalanx.examples.cloning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
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
