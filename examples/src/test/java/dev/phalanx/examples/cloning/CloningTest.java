package dev.phalanx.examples.cloning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.clone.EntityCloner;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.examples.components.Frozen_Storage;
import dev.phalanx.examples.components.Frozen_Traits;
import dev.phalanx.examples.components.Label;
import dev.phalanx.examples.components.Label_Storage;
import dev.phalanx.examples.components.Label_Traits;
import dev.phalanx.examples.components.Parent_Storage;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Primitives;
import dev.phalanx.examples.components.Primitives_Storage;
import dev.phalanx.examples.components.Primitives_Traits;
import dev.phalanx.examples.components.Slot;
import dev.phalanx.examples.components.Slot_Traits;
import dev.phalanx.examples.components.Velocity_Storage;
import dev.phalanx.examples.components.Velocity_Traits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link EntityCloner} copies, remaps, links and refuses. */
class CloningTest {

  /** A plain class (no {@code @Component}): an object storage. */
  static final class Inventory {
    final List<String> items = new ArrayList<>();
  }

  private static final ComponentType<Inventory, ObjectStorage<Inventory>> INVENTORY =
      ComponentType.object(Inventory.class);

  @Test
  void aCloneHasACopyOfEveryComponent() {
    // tag::clone[]
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long wolf = registry.create();
    positions.emplace(wolf, 1f, 2f);
    velocities.emplace(wolf, 3f, 4f);
    registry.storage(Frozen_Traits.TYPE).emplace(wolf);

    final EntityCloner cloner = EntityCloner.within(registry);
    final long copy = cloner.clone(wolf);

    assertEquals(new Position(1f, 2f), positions.get(copy));
    assertEquals(3f, velocities.dx(copy));
    assertTrue(registry.has(copy, Frozen_Traits.TYPE));
    // end::clone[]
    positions.setX(copy, 9f);
    assertEquals(1f, positions.x(wolf), "a struct-of-arrays copy shares nothing");
    final Primitives_Storage primitives = registry.storage(Primitives_Traits.TYPE);
    final Primitives all = new Primitives(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d);
    primitives.emplace(wolf, all);
    registry.emplace(wolf, Slot_Traits.TYPE, new Slot(7, "seven"));
    final Label label = new Label("text", Label.Color.BLUE, List.of("a"), new int[] {1});
    registry.storage(Label_Traits.TYPE).emplace(wolf, label);
    final long second = cloner.clone(wolf);
    assertEquals(all, primitives.get(second));
    assertEquals(new Slot(7, "seven"), registry.get(second, Slot_Traits.TYPE));
    final Label_Storage labels = registry.storage(Label_Traits.TYPE);
    assertEquals("text", labels.text(second));
    assertSame(labels.codes(wolf), labels.codes(second), "reference fields: shallow");
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void objectComponentsAreSharedShallowCopies() {
    final Registry registry = new Registry();
    final long chest = registry.create();
    final Inventory inventory = new Inventory();
    registry.emplace(chest, INVENTORY, inventory);
    final long copy = EntityCloner.within(registry).clone(chest);
    assertSame(inventory, registry.get(copy, INVENTORY));
  }

  @Test
  void entityRefsToTheClonedSetFollowTheCloneOthersStayOrClearAcrossRegistries() {
    final Registry registry = new Registry();
    final Parent_Storage parents = registry.storage(Parent_Traits.TYPE);
    final long outside = registry.create();
    final long self = registry.create();
    final long other = registry.create();
    parents.emplace(self, self, 1);
    parents.emplace(other, outside, 2);
    final EntityCloner cloner = EntityCloner.within(registry);
    final long selfCopy = cloner.clone(self);
    assertEquals(selfCopy, parents.entity(selfCopy), "a reference to the clone's source");
    final long otherCopy = cloner.clone(other);
    assertEquals(outside, parents.entity(otherCopy), "a reference outside: kept");

    final Registry elsewhere = new Registry();
    final EntityCloner across = EntityCloner.between(registry, elsewhere);
    final long selfThere = across.clone(self);
    final long otherThere = across.clone(other);
    final Parent_Storage there = elsewhere.storage(Parent_Traits.TYPE);
    assertEquals(selfThere, there.entity(selfThere));
    assertEquals(Entity.NULL, there.entity(otherThere), "outside, across registries: NULL");
    assertEquals(2, there.depth(otherThere));
    assertEquals(List.of(), elsewhere.verify());
    assertEquals(List.of(), elsewhere.danglingReferences());
  }

  @Test
  void aDestinationLackingAStorageGetsOneFromTheTypesTraits() {
    final Registry source = new Registry();
    final long e = source.create();
    source.storage(Velocity_Traits.TYPE).emplace(e, 1f, 2f);
    source.emplace(e, INVENTORY, new Inventory());
    final Registry destination = new Registry();
    assertEquals(null, destination.findStorage(Velocity_Traits.TYPE));
    final long copy = EntityCloner.between(source, destination).clone(e);
    assertEquals(2f, destination.storage(Velocity_Traits.TYPE).dy(copy));
    assertTrue(destination.has(copy, INVENTORY));
  }

  @Test
  void cloneTreeCopiesTheSubtreeWithItsLinksOrderAndInnerReferences() {
    // tag::cloneTree[]
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final Parent_Storage aims = registry.storage(Parent_Traits.TYPE);
    final long tower = registry.create();
    final long left = registry.create();
    final long right = registry.create();
    hierarchy.attach(right, tower);
    hierarchy.attach(left, tower); // children: left, right
    aims.emplace(left, right, 0); // the left turret covers the right one

    final long copy = EntityCloner.within(registry).cloneTree(tower);

    final long leftCopy = hierarchy.firstChild(copy);
    final long rightCopy = hierarchy.nextSibling(leftCopy);
    assertEquals(rightCopy, aims.entity(leftCopy)); // remapped into the copy
    // end::cloneTree[]
    assertNotEquals(left, leftCopy);
    assertEquals(2, hierarchy.childCount(copy));
    assertEquals(Entity.NULL, hierarchy.parent(copy));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aCloneWithinOneRegistryStaysUnderItsSourcesParentAndIsARootElsewhere() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long tower = registry.create();
    final long turret = registry.create();
    hierarchy.attach(turret, tower);
    final long copy = EntityCloner.within(registry).clone(turret);
    assertEquals(tower, hierarchy.parent(copy));
    assertEquals(2, hierarchy.childCount(tower));
    final Registry elsewhere = new Registry();
    final long there = EntityCloner.between(registry, elsewhere).cloneTree(tower);
    final Hierarchy links = Hierarchy.of(elsewhere);
    assertEquals(Entity.NULL, links.parent(there));
    assertEquals(2, links.childCount(there));
    assertEquals(List.of(), elsewhere.verify());
  }

  @Test
  void cloneIntoAddsToAnExistingEntityAndNeverOverwrites() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long source = registry.create();
    positions.emplace(source, 1f, 1f);
    velocities.emplace(source, 2f, 2f);
    final long target = registry.create();
    final Frozen_Storage frozen = registry.storage(Frozen_Traits.TYPE);
    frozen.emplace(target);
    final EntityCloner cloner = EntityCloner.within(registry);
    cloner.cloneInto(source, target);
    assertEquals(new Position(1f, 1f), positions.get(target));
    assertTrue(frozen.contains(target));

    final long busy = registry.create();
    velocities.emplace(busy, 5f, 5f);
    final String before = Worlds.print(registry);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> cloner.cloneInto(source, busy));
    assertTrue(refused.getMessage().contains("Velocity"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(busy)), refused.getMessage());
    assertTrue(refused.getMessage().contains("never overwrites"), refused.getMessage());
    assertEquals(before, Worlds.print(registry), "refused: nothing copied, not even Position");
  }

  @Test
  void invalidEntitiesAreRefusedWithTheirNames() {
    final Registry registry = new Registry();
    final long dead = registry.create();
    registry.destroy(dead);
    final long live = registry.create();
    final EntityCloner cloner = EntityCloner.within(registry);
    final IllegalArgumentException source =
        assertThrows(IllegalArgumentException.class, () -> cloner.clone(dead));
    assertTrue(source.getMessage().contains(Entity.toString(dead)), source.getMessage());
    assertTrue(source.getMessage().contains("not valid in the source"), source.getMessage());
    final IllegalArgumentException target =
        assertThrows(IllegalArgumentException.class, () -> cloner.cloneInto(live, dead));
    assertTrue(target.getMessage().contains("target is not valid"), target.getMessage());
    assertEquals(1, registry.alive());
  }

  @Test
  void skippedTypesAreLeftOut() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.storage(Position_Traits.TYPE).emplace(e, 1f, 1f);
    registry.storage(Frozen_Traits.TYPE).emplace(e);
    final long copy = EntityCloner.within(registry).skip(Frozen_Traits.TYPE).clone(e);
    assertTrue(registry.has(copy, Position_Traits.TYPE));
    assertFalse(registry.has(copy, Frozen_Traits.TYPE));
  }

  @Test
  void listenersSeeTheCompleteCloneAndGroupsTakeIt() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final var group = registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final List<String> seen = new ArrayList<>();
    positions
        .onConstruct()
        .connect((r, entity) -> seen.add("position, velocity " + velocities.contains(entity)));
    group.onEnter().connect((r, entity) -> seen.add("group"));
    final long e = registry.create();
    positions.emplace(e, 1f, 1f);
    velocities.emplace(e, 1f, 1f);
    seen.clear();
    final long copy = EntityCloner.within(registry).clone(e);
    assertTrue(group.contains(copy));
    assertEquals(List.of("group", "position, velocity true"), seen);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aCloneDuringAnIterationIsAllowedAndOneRefusedByALockLeavesNothing() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long wolf = registry.create();
    positions.emplace(wolf, 1f, 1f);
    velocities.emplace(wolf, 2f, 2f);
    final EntityCloner cloner = EntityCloner.within(registry);
    final List<Long> copies = new ArrayList<>();
    registry.view(Position_Traits.TYPE).each(e -> copies.add(cloner.clone(e)));
    assertEquals(1, copies.size(), "a clone made during each is not visited");
    assertTrue(velocities.contains(copies.get(0)));

    final var locking = registry.owningGroup(Velocity_Traits.TYPE);
    final String before = Worlds.print(registry);
    final int[] refusals = {0};
    locking.eachChunk(
        (from, to) -> {
          assertThrows(java.util.ConcurrentModificationException.class, () -> cloner.clone(wolf));
          refusals[0]++;
        });
    assertEquals(1, refusals[0]);
    assertEquals(before, Worlds.print(registry), "Position was added, then taken back");
    assertEquals(List.of(), registry.verify());
  }
}
