package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Relationship kinds, one behaviour at a time: the reverse side through each write path, each
 * policy when a target is destroyed, the refusals (dead targets, cycles, refused destroys) leaving
 * the world as it was, and {@code verify()} catching a reverse side out of step.
 */
class RelationshipsTest {

  private final Registry registry = new Registry();
  private final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
  private final Targets_Storage targets = registry.storage(Targets_Traits.TYPE);
  private final OwnedBy_Storage owned = registry.storage(OwnedBy_Traits.TYPE);
  private final Relation<Docked> docking = Relation.of(registry, Docked_Traits.TYPE);
  private final Relation<Targets> locks = Relation.of(registry, Targets_Traits.TYPE);
  private final Relation<OwnedBy> ownership = Relation.of(registry, OwnedBy_Traits.TYPE);

  @Test
  void sourcesFollowAddsReplacesAndRemovesInLinkOrder() {
    final long carrier = registry.create();
    final long other = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    docked.emplace(a, carrier, 1);
    registry.emplace(b, Docked_Traits.TYPE, new Docked(carrier, 2));
    docked.emplace(c, carrier, 3);
    assertArrayEquals(new long[] {a, b, c}, docking.sources(carrier));
    assertEquals(carrier, docking.target(b));
    docked.replace(b, other, 2);
    assertArrayEquals(new long[] {a, c}, docking.sources(carrier));
    assertArrayEquals(new long[] {b}, docking.sources(other));
    registry.replace(c, Docked_Traits.TYPE, new Docked(other, 9));
    assertArrayEquals(new long[] {b, c}, docking.sources(other));
    docked.remove(a);
    assertEquals(0, docking.sourceCount(carrier));
    assertEquals(Entity.NULL, docking.target(a));
    assertEquals(Entity.NULL, docking.firstSource(carrier));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aDeadTargetIsRefusedOnEveryWritePathAndChangesNothing() {
    final long source = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> docked.emplace(source, dead, 1));
    assertTrue(refused.getMessage().contains("Docked"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(dead)), refused.getMessage());
    assertTrue(refused.getMessage().contains("not a live entity"), refused.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> registry.emplace(source, Docked_Traits.TYPE, new Docked(dead, 1)));
    assertThrows(
        IllegalArgumentException.class, () -> docked.insert(new long[] {source}, 0, 1, dead, 1));
    assertThrows(IllegalArgumentException.class, () -> docked.emplace(source, Entity.NULL, 1));
    assertFalse(docked.contains(source));
    final long live = registry.create();
    docked.emplace(source, live, 1);
    assertThrows(IllegalArgumentException.class, () -> docked.replace(source, dead, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> registry.replace(source, Docked_Traits.TYPE, new Docked(dead, 5)));
    assertThrows(IllegalArgumentException.class, () -> docked.set(source, new Docked(dead, 5)));
    assertEquals(live, docking.target(source));
    assertEquals(1, docked.bay(source));
    final CommandBuffer commands = new CommandBuffer(registry);
    final long other = registry.create();
    docked.emplace(commands, other, dead, 4);
    assertThrows(IllegalArgumentException.class, commands::apply);
    assertFalse(docked.contains(other));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void anAcyclicKindRefusesCyclesBeforeAnythingChanges() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    assertThrows(IllegalArgumentException.class, () -> owned.emplace(a, a));
    owned.emplace(a, b);
    owned.emplace(b, c);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> owned.emplace(c, a));
    assertTrue(refused.getMessage().contains("acyclic"), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> owned.replace(b, a));
    assertFalse(owned.contains(c));
    assertEquals(c, ownership.target(b));
    // Kinds that allow cycles take them.
    targets.emplace(a, b, 0f);
    targets.emplace(b, a, 0f);
    targets.emplace(c, c, 0f);
    docked.emplace(a, b, 0);
    docked.emplace(b, a, 0);
    assertEquals(List.of(), registry.verify());
    registry.destroy(a);
    assertFalse(registry.valid(b));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Listeners see both sides agree at every step: a destroy listener still finds its source linked
   * (the element is still there), a construct listener finds it linked already, and after every
   * path that removes elements (a remove, a destroy, a clear, a destroyed batch) the source is cut.
   */
  @Test
  void listenersSeeBothSidesAgreeOnEveryRemovalPath() {
    final long carrier = registry.create();
    final long[] ships = new long[6];
    registry.create(ships, 0, ships.length);
    final int[] seen = new int[2];
    docked
        .onConstruct()
        .connect(
            (r, ship) -> {
              assertEquals(carrier, docking.target(ship));
              assertEquals(List.of(), docking.verify());
              seen[0]++;
            });
    docked
        .onDestroy()
        .connect(
            (r, ship) -> {
              assertEquals(carrier, docking.target(ship));
              assertEquals(List.of(), docking.verify());
              seen[1]++;
            });
    for (int i = 0; i < ships.length; i++) {
      docked.emplace(ships[i], carrier, i);
    }
    docked.remove(ships[0]);
    registry.destroy(ships[1]);
    registry.destroy(new long[] {ships[2], ships[3]}, 0, 2);
    assertArrayEquals(new long[] {ships[4], ships[5]}, docking.sources(carrier));
    docked.clear();
    assertEquals(0, docking.sourceCount(carrier));
    assertEquals(Entity.NULL, docking.target(ships[5]));
    assertEquals(6, seen[0]);
    assertEquals(6, seen[1]);
    assertEquals(List.of(), registry.verify());
  }

  /**
   * A destroy listener that links a source to the entity being destroyed is refused, whichever
   * listener asks and whenever: the target would not stay, and the policy of the kind may already
   * have run. The destroy completes, the link is not made, both sides agree.
   */
  @Test
  void aTargetBeingDestroyedIsRefused() {
    final long carrier = registry.create();
    final long ship = registry.create();
    final long escort = registry.create();
    registry.emplace(carrier, Position_Traits.TYPE, new Position(0, 0));
    registry
        .storage(Position_Traits.TYPE)
        .onDestroy()
        .connect((r, entity) -> docked.emplace(ship, entity, 1));
    registry.onDestroy().connect((r, entity) -> docked.emplace(escort, entity, 2));
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> registry.destroy(carrier));
    assertTrue(refused.getMessage().contains("is being destroyed"), refused::getMessage);
    assertEquals(
        1, refused.getSuppressed().length, () -> List.of(refused.getSuppressed()).toString());
    assertFalse(registry.valid(carrier));
    assertFalse(docked.contains(ship));
    assertFalse(docked.contains(escort));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * While a storage is locked, a destroy whose policies would need to change it is refused before
   * anything changes: the removal of a {@code REMOVE} relationship, and a linked destroy of a
   * source that has a component in the locked storage. Without the lock both go through.
   */
  @Test
  void aLockThatWouldStopAPolicyRefusesTheDestroyFirst() {
    final long enemy = registry.create();
    final long[] turrets = new long[3];
    registry.create(turrets, 0, turrets.length);
    targets.insert(turrets, 0, turrets.length, enemy, 0.5f);
    final long carrier = registry.create();
    final long[] ships = new long[3];
    registry.create(ships, 0, ships.length);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    for (int i = 0; i < ships.length; i++) {
      docked.emplace(ships[i], carrier, i);
    }
    positions.emplace(ships[2], 1f, 2f); // the last source to go holds the locked component

    targets.lock("a test", this);
    assertThrows(java.util.ConcurrentModificationException.class, () -> registry.destroy(enemy));
    assertTrue(registry.valid(enemy));
    assertEquals(3, locks.sourceCount(enemy));
    targets.unlock();

    positions.lock("a test", this);
    final RuntimeException refused =
        assertThrows(
            java.util.ConcurrentModificationException.class, () -> registry.destroy(carrier));
    assertTrue(refused.getMessage().contains(Entity.toString(ships[2])), refused::getMessage);
    assertTrue(registry.valid(carrier));
    for (final long ship : ships) {
      assertTrue(registry.valid(ship));
    }
    assertEquals(3, docking.sourceCount(carrier));
    registry.destroy(enemy); // nothing of it is locked
    positions.unlock();
    assertEquals(List.of(), registry.verify());

    registry.destroy(carrier);
    for (final long ship : ships) {
      assertFalse(registry.valid(ship));
    }
    assertEquals(List.of(), registry.verify());
  }

  /** Without listeners of its own, every removal path still cuts the source from its target. */
  @Test
  void quietRemovalsCutTheSourceOnEveryPath() {
    final long carrier = registry.create();
    final long[] ships = new long[8];
    registry.create(ships, 0, ships.length);
    for (int i = 0; i < ships.length; i++) {
      docked.emplace(ships[i], carrier, i);
    }
    docked.remove(ships[0]);
    registry.destroy(ships[1]);
    registry.destroy(new long[] {ships[2], ships[3]}, 0, 2);
    assertArrayEquals(
        new long[] {ships[4], ships[5], ships[6], ships[7]}, docking.sources(carrier));
    assertEquals(List.of(), registry.verify());
    docked.clear();
    assertEquals(0, docking.sourceCount(carrier));
    registry.clear();
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void removeDropsTheRelationshipOfEverySource() {
    final long enemy = registry.create();
    final long[] turrets = new long[1000];
    registry.create(turrets, 0, turrets.length);
    targets.insert(turrets, 0, turrets.length, enemy, 0.5f);
    assertEquals(1000, locks.sourceCount(enemy));
    registry.destroy(enemy);
    for (final long turret : turrets) {
      assertTrue(registry.valid(turret));
      assertFalse(targets.contains(turret));
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void destroySourcesDestroysALongChainWithoutRecursion() {
    final long[] chain = new long[200_000];
    registry.create(chain, 0, chain.length);
    for (int i = 1; i < chain.length; i++) {
      docked.emplace(chain[i], chain[i - 1], i);
    }
    final long bystander = registry.create();
    registry.destroy(chain[0]);
    assertEquals(1, registry.alive());
    assertTrue(registry.valid(bystander));
    assertEquals(0, docked.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void destroySourcesFollowsEveryBranchBreadthFirst() {
    final long carrier = registry.create();
    final long wing1 = registry.create();
    final long wing2 = registry.create();
    final long fighter1 = registry.create();
    final long fighter2 = registry.create();
    final long enemy = registry.create();
    docked.emplace(wing1, carrier, 0);
    docked.emplace(wing2, carrier, 1);
    docked.emplace(fighter1, wing1, 0);
    docked.emplace(fighter2, wing2, 0);
    targets.emplace(enemy, fighter2, 1f);
    final List<Long> order = new java.util.ArrayList<>();
    registry.onDestroy().connect((r, entity) -> order.add(entity));
    registry.destroy(carrier);
    // The linked destroys run inside the carrier's own destroy, before its later listeners.
    assertEquals(List.of(wing1, wing2, fighter1, fighter2, carrier), order);
    assertTrue(registry.valid(enemy));
    assertFalse(targets.contains(enemy));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void refuseRefusesUntilTheSourcesGoToo() {
    final long player = registry.create();
    final long sword = registry.create();
    final long shield = registry.create();
    owned.emplace(sword, player);
    owned.emplace(shield, player);
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> registry.destroy(player));
    assertTrue(refused.getMessage().contains("OwnedBy"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(player)), refused.getMessage());
    assertTrue(registry.valid(player));
    assertEquals(2, ownership.sourceCount(player));
    assertThrows(
        IllegalStateException.class, () -> registry.destroy(new long[] {player, sword}, 0, 2));
    assertTrue(registry.valid(sword));
    registry.destroy(new long[] {player, sword, shield}, 0, 3);
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void refuseSeesSourcesThatALinkedDestroyTakesAlong() {
    final long carrier = registry.create();
    final long fighter = registry.create();
    final long cargo = registry.create();
    docked.emplace(fighter, carrier, 0);
    owned.emplace(cargo, fighter);
    assertThrows(IllegalStateException.class, () -> registry.destroy(carrier));
    assertTrue(registry.valid(fighter));
    assertEquals(carrier, docking.target(fighter));
    docked.emplace(cargo, fighter, 1);
    registry.destroy(carrier);
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void commandsAndInPlaceWritesKeepBothSides() {
    final long enemy = registry.create();
    final long other = registry.create();
    final long turret = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    targets.emplace(commands, turret, enemy, 0f);
    commands.apply();
    assertEquals(enemy, locks.target(turret));
    targets.set(turret, new Targets(other, 2f));
    assertEquals(other, locks.target(turret));
    assertArrayEquals(new long[] {turret}, locks.sources(other));
    targets.emplace(commands, turret, enemy, 3f);
    commands.apply();
    assertArrayEquals(new long[] {turret}, locks.sources(enemy));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aChangeSetKeepsBothSides() {
    final long carrier = registry.create();
    final long other = registry.create();
    final long a = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(a, Docked_Traits.TYPE, new Docked(carrier, 1));
    final long created = changes.create();
    changes.emplace(created, Docked_Traits.TYPE, new Docked(carrier, 2));
    changes.commit();
    final long made = changes.entityOf(created);
    // The link order is the order the commit made them in.
    final long[] both = docking.sources(carrier);
    java.util.Arrays.sort(both);
    assertArrayEquals(new long[] {a, made}, both);
    changes.replace(a, Docked_Traits.TYPE, new Docked(other, 1));
    changes.commit();
    assertArrayEquals(new long[] {made}, docking.sources(carrier));
    assertArrayEquals(new long[] {a}, docking.sources(other));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aSnapshotRoundTripRebuildsTheReverseSide() throws IOException {
    final long carrier = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    docked.emplace(a, carrier, 1);
    docked.emplace(b, carrier, 2);
    owned.emplace(b, a);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    final Registry copy = new Registry();
    copy.storage(Docked_Traits.TYPE);
    copy.storage(OwnedBy_Traits.TYPE);
    copy.storage(Targets_Traits.TYPE);
    new SnapshotLoader(copy).load(new ByteArrayInputStream(out.toByteArray()));
    final Relation<Docked> copied = Relation.of(copy, Docked_Traits.TYPE);
    assertArrayEquals(new long[] {a, b}, copied.sources(carrier));
    assertEquals(a, Relation.of(copy, OwnedBy_Traits.TYPE).target(b));
    assertThrows(IllegalStateException.class, () -> copy.destroy(a));
    assertEquals(List.of(), copy.verify());
  }

  /** A mirror's change set writes each new row, then constructs it: the source is linked once. */
  @Test
  void aContinuousLoadLinksEachSourceOnce() throws IOException {
    final long carrier = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    docked.emplace(a, carrier, 1);
    docked.emplace(b, a, 2);
    owned.emplace(b, carrier);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    final Registry mirror = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(mirror)
            .types(Docked_Traits.TYPE, OwnedBy_Traits.TYPE, Targets_Traits.TYPE);
    loader.load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(List.of(), mirror.verify());
    final Relation<Docked> copied = Relation.of(mirror, Docked_Traits.TYPE);
    assertEquals(2, copied.size());
    assertArrayEquals(new long[] {loader.map(b)}, copied.sources(loader.map(a)));
  }

  @Test
  void upFindsTheNearestHolderAndBreadthFirstPutsTargetsFirst() {
    // carrier <- wing <- fighter <- drone, and a second carrier with one fighter.
    final long carrier = registry.create();
    final long wing = registry.create();
    final long fighter = registry.create();
    final long drone = registry.create();
    final long carrier2 = registry.create();
    final long fighter2 = registry.create();
    docked.emplace(drone, fighter, 0);
    docked.emplace(fighter, wing, 0);
    docked.emplace(fighter2, carrier2, 0);
    docked.emplace(wing, carrier, 0);
    registry.emplace(carrier, Position_Traits.TYPE, new Position(1, 2));
    registry.emplace(wing, Position_Traits.TYPE, new Position(3, 4));
    assertEquals(wing, docking.up(drone, Position_Traits.TYPE));
    assertEquals(carrier, docking.up(wing, Position_Traits.TYPE));
    assertEquals(Entity.NULL, docking.up(carrier, Position_Traits.TYPE));
    assertEquals(Entity.NULL, docking.up(fighter2, Position_Traits.TYPE));
    final long[] order = new long[docking.size()];
    assertEquals(4, docking.breadthFirst(order));
    final List<Long> seen = new java.util.ArrayList<>();
    for (final long source : order) {
      final long target = docking.target(source);
      assertTrue(!docked.contains(target) || seen.contains(target), Entity.toString(source));
      seen.add(source);
    }
    assertThrows(IndexOutOfBoundsException.class, () -> docking.breadthFirst(new long[3]));
    // A cycle's members are left out.
    targets.emplace(carrier, wing, 0f);
    targets.emplace(wing, carrier, 0f);
    targets.emplace(drone, carrier, 0f);
    assertEquals(0, locks.breadthFirst(new long[locks.size()]));
  }

  @Test
  void verifyNamesAReverseSideOutOfStep() {
    final long carrier = registry.create();
    final long other = registry.create();
    final long a = registry.create();
    docked.emplace(a, carrier, 1);
    // A raw write of the target column, past the relation.
    docked.carrierPages()[0][docked.indexOf(a)] = other;
    final List<String> problems = registry.verify();
    assertFalse(problems.isEmpty());
    assertTrue(problems.toString().contains("Docked"), problems.toString());
    Relation.rebuildAll(registry);
    assertEquals(List.of(), registry.verify());
    assertArrayEquals(new long[] {a}, docking.sources(other));
  }
}
