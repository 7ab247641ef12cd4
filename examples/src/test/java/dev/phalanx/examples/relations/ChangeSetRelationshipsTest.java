package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Traits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A change set checks the relationships it stages, and the destroy rules of the kinds, before its
 * commit changes anything: a refused commit leaves the world as it was (every entity, component and
 * link) and names the entity, the component and the rule; an accepted one leaves both sides of
 * every kind consistent, also when listeners throw at any point of it.
 */
class ChangeSetRelationshipsTest {

  private final Registry registry = new Registry();
  private final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
  private final Targets_Storage targets = registry.storage(Targets_Traits.TYPE);
  private final OwnedBy_Storage owned = registry.storage(OwnedBy_Traits.TYPE);
  private final Relation<OwnedBy> ownership = Relation.of(registry, OwnedBy_Traits.TYPE);
  private final Relation<Docked> docking = Relation.of(registry, Docked_Traits.TYPE);
  private final ChangeSet changes = new ChangeSet(registry);

  @Test
  void aDeadTargetIsRefusedBeforeAnythingChanges() {
    final long source = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    final long other = registry.create();
    changes.emplace(other, Position_Traits.TYPE, new Position(1, 2));
    changes.emplace(source, Docked_Traits.TYPE, new Docked(dead, 1));
    final IllegalArgumentException refused = refusedCommit(IllegalArgumentException.class);
    assertMentions(refused, "Docked", Entity.toString(source), Entity.toString(dead));
    assertMentions(refused, "not a live entity");
    assertFalse(docked.contains(source));
    changes.clear();
    changes.emplace(source, Docked_Traits.TYPE, new Docked(Entity.NULL, 1));
    refusedCommit(IllegalArgumentException.class);
    assertFalse(docked.contains(source));
  }

  @Test
  void aReplacedTargetIsCheckedAsAnInsertedOne() {
    final long source = registry.create();
    final long carrier = registry.create();
    final long dead = registry.create();
    registry.destroy(dead);
    docked.emplace(source, carrier, 1);
    changes.replace(source, Docked_Traits.TYPE, new Docked(dead, 2));
    refusedCommit(IllegalArgumentException.class);
    assertEquals(carrier, docking.target(source));
    assertEquals(1, docked.bay(source));
  }

  @Test
  void aTargetTheSetCreatesIsAcceptedAndResolved() {
    final long source = registry.create();
    final long carrier = changes.create();
    final long fighter = changes.create();
    changes.emplace(source, Docked_Traits.TYPE, new Docked(carrier, 1));
    changes.emplace(fighter, Docked_Traits.TYPE, new Docked(carrier, 2));
    changes.commit();
    final long made = changes.entityOf(carrier);
    assertEquals(made, docking.target(source));
    assertArrayEquals(new long[] {source, changes.entityOf(fighter)}, sortedSources(made));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aTargetTheSetDestroysIsRefused() {
    final long source = registry.create();
    final long carrier = registry.create();
    changes.emplace(source, Targets_Traits.TYPE, new Targets(carrier, 0f));
    changes.destroy(carrier);
    final IllegalArgumentException refused = refusedCommit(IllegalArgumentException.class);
    assertMentions(refused, "Targets", "destroyed by this change set");
    assertTrue(registry.valid(carrier));
    changes.clear();
    final long created = changes.create();
    changes.emplace(source, Targets_Traits.TYPE, new Targets(created, 0f));
    changes.destroy(created);
    refusedCommit(IllegalArgumentException.class);
    assertFalse(targets.contains(source));
  }

  @Test
  void aHandleOfAnotherSetIsRefused() {
    final long source = registry.create();
    final long foreign = new ChangeSet(registry).create();
    changes.emplace(source, Targets_Traits.TYPE, new Targets(foreign, 0f));
    final IllegalArgumentException refused = refusedCommit(IllegalArgumentException.class);
    assertMentions(refused, "another change set");
  }

  @Test
  void anAcyclicKindRefusesSelfLinksAndCyclesThroughTheSetAndTheWorld() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    changes.emplace(a, OwnedBy_Traits.TYPE, new OwnedBy(a));
    assertMentions(refusedCommit(IllegalArgumentException.class), "OwnedBy", "acyclic");
    changes.clear();
    // Both links staged: a cycle only the set closes.
    changes.emplace(a, OwnedBy_Traits.TYPE, new OwnedBy(b));
    changes.emplace(b, OwnedBy_Traits.TYPE, new OwnedBy(a));
    assertMentions(refusedCommit(IllegalArgumentException.class), "acyclic");
    changes.clear();
    // Through staged handles.
    final long x = changes.create();
    final long y = changes.create();
    changes.emplace(x, OwnedBy_Traits.TYPE, new OwnedBy(y));
    changes.emplace(y, OwnedBy_Traits.TYPE, new OwnedBy(x));
    refusedCommit(IllegalArgumentException.class);
    changes.clear();
    // One link in the world, one staged.
    owned.emplace(b, c);
    changes.emplace(c, OwnedBy_Traits.TYPE, new OwnedBy(b));
    refusedCommit(IllegalArgumentException.class);
    changes.clear();
    // A staged replacement ends the world's chain: no cycle is left.
    changes.replace(b, OwnedBy_Traits.TYPE, new OwnedBy(a));
    changes.emplace(c, OwnedBy_Traits.TYPE, new OwnedBy(b));
    changes.commit();
    assertEquals(a, ownership.target(b));
    assertEquals(b, ownership.target(c));
    assertEquals(List.of(), registry.verify());
    // A kind that allows cycles takes a self-link.
    changes.emplace(a, Targets_Traits.TYPE, new Targets(a, 0f));
    changes.commit();
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aCopysMappedTargetIsChecked() {
    final long owner = registry.create();
    final long sword = registry.create();
    owned.emplace(sword, owner);
    // The copy maps the owner to the copy itself: a self-link of an acyclic kind.
    final long copy = registry.create();
    changes.copy(copy, owned, sword, (index, reference) -> copy);
    refusedCommit(IllegalArgumentException.class);
    assertFalse(owned.contains(copy));
    changes.clear();
    final long dead = registry.create();
    registry.destroy(dead);
    changes.copy(copy, owned, sword, (index, reference) -> dead);
    assertMentions(refusedCommit(IllegalArgumentException.class), "not a live entity");
    changes.clear();
    changes.copy(copy, owned, sword, null);
    changes.commit();
    assertEquals(owner, ownership.target(copy));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aTargetBeingDestroyedIsRefused() {
    final long doomed = registry.create();
    final long source = registry.create();
    final List<Throwable> seen = new ArrayList<>();
    registry
        .onDestroy()
        .connect(
            (r, entity) -> {
              if (entity == doomed) {
                final ChangeSet inner = new ChangeSet(registry);
                inner.emplace(source, Targets_Traits.TYPE, new Targets(doomed, 0f));
                try {
                  inner.commit();
                } catch (final IllegalArgumentException refused) {
                  seen.add(refused);
                }
              }
            });
    registry.destroy(doomed);
    assertEquals(1, seen.size());
    assertMentions(seen.get(0), "being destroyed");
    assertFalse(targets.contains(source));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRefusedDestroyIsRefusedAsTheRegistryRefusesIt() {
    final long player = registry.create();
    final long sword = registry.create();
    owned.emplace(sword, player);
    final String expected =
        assertThrows(IllegalStateException.class, () -> registry.destroy(player)).getMessage();
    final long bystander = registry.create();
    changes.emplace(bystander, Position_Traits.TYPE, new Position(3, 4));
    changes.destroy(player);
    final IllegalStateException refused = refusedCommit(IllegalStateException.class);
    assertEquals(expected, refused.getMessage());
    assertTrue(registry.valid(player));
    assertEquals(player, ownership.target(sword));
    assertFalse(registry.storage(Position_Traits.TYPE).contains(bystander));
    assertFalse(changes.isEmpty(), "a refused commit keeps its changes");
  }

  @Test
  void aRefusedDestroyIsAllowedWhenItsSourcesGoInTheSameRun() {
    final long player = registry.create();
    final long sword = registry.create();
    final long shield = registry.create();
    owned.emplace(sword, player);
    owned.emplace(shield, player);
    changes.destroy(player);
    changes.destroy(sword);
    refusedCommit(IllegalStateException.class);
    changes.destroy(shield);
    changes.commit();
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRefusedDestroyBehindALinkedDestroyIsRefused() {
    final long carrier = registry.create();
    final long fighter = registry.create();
    final long cargo = registry.create();
    docked.emplace(fighter, carrier, 0);
    owned.emplace(cargo, fighter);
    changes.destroy(carrier);
    refusedCommit(IllegalStateException.class);
    assertEquals(carrier, docking.target(fighter));
  }

  /**
   * A commit that links, relinks and destroys through every kind, with a listener on every signal
   * it publishes that throws at its k-th call, for every k: the commit completes, and both sides of
   * every kind agree.
   */
  @Test
  void listenersThrowingAtAnyPointLeaveEveryKindConsistent() {
    int k = 0;
    while (true) {
      final Registry world = new Registry();
      final int[] calls = {0};
      final int throwAt = k;
      final ComponentListener thrower =
          (r, entity) -> {
            if (calls[0]++ == throwAt) {
              throw new IllegalStateException("injected at " + throwAt);
            }
          };
      final Docked_Storage dock = world.storage(Docked_Traits.TYPE);
      final OwnedBy_Storage own = world.storage(OwnedBy_Traits.TYPE);
      final Targets_Storage aim = world.storage(Targets_Traits.TYPE);
      final long carrier = world.create();
      final long fighter = world.create();
      final long player = world.create();
      final long sword = world.create();
      final long turret = world.create();
      dock.emplace(fighter, carrier, 0);
      own.emplace(sword, player);
      aim.emplace(turret, fighter, 0f);
      for (final var storage : List.of(dock, own, aim)) {
        storage.onConstruct().connect(thrower);
        storage.onUpdate().connect(thrower);
        storage.onDestroy().connect(thrower);
      }
      world.onCreate().connect(thrower);
      world.onDestroy().connect(thrower);
      final ChangeSet set = new ChangeSet(world);
      final long wing = set.create();
      set.emplace(wing, Docked_Traits.TYPE, new Docked(fighter, 1));
      set.replace(turret, Targets_Traits.TYPE, new Targets(wing, 1f));
      set.emplace(player, OwnedBy_Traits.TYPE, new OwnedBy(turret));
      set.destroy(sword);
      set.destroy(carrier);
      try {
        set.commit();
      } catch (final IllegalStateException injected) {
        assertMentions(injected, "injected");
      }
      assertEquals(List.of(), world.verify(), "throwing at call " + k);
      assertFalse(world.valid(carrier));
      assertFalse(world.valid(set.entityOf(wing)), "linked destroy of the docked wing");
      assertFalse(aim.contains(turret), "the lock on the wing went with it");
      if (calls[0] <= k) {
        break;
      }
      k++;
    }
    assertTrue(k > 5, "the commit ran user code " + k + " times");
  }

  private long[] sortedSources(final long target) {
    final long[] sources = docking.sources(target);
    java.util.Arrays.sort(sources);
    return sources;
  }

  /** Commits, expecting a refusal that changes nothing of the world. */
  private <X extends Throwable> X refusedCommit(final Class<X> type) {
    final String before = WorldText.of(registry);
    final Executable commit = changes::commit;
    final X refused = assertThrows(type, commit);
    assertEquals(before, WorldText.of(registry), "a refused commit changes nothing");
    assertEquals(List.of(), registry.verify());
    return refused;
  }

  private static void assertMentions(final Throwable thrown, final String... parts) {
    for (final String part : parts) {
      assertTrue(thrown.getMessage().contains(part), thrown.getMessage());
    }
  }
}
