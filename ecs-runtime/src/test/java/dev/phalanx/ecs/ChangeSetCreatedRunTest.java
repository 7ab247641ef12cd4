package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A ranged copy onto a run of the set's own creations (a prefab's instances) is checked a word of
 * marks at a time, and must give what the same copies staged one by one give: every creation of the
 * run, and only those, gets its copy; a creation the set already changes, in a partial word or a
 * whole one, is refused by name; a destroy in the same set sends the run through the full check;
 * and ranges that look like runs but are not (a live entity, handles out of order, a handle of a
 * creation not staged) are not taken for one.
 */
class ChangeSetCreatedRunTest {

  private static final int CREATIONS = 200;

  /** A registry with a source element A(7), and a set with {@link #CREATIONS} staged. */
  private static final class World {
    final Registry registry = new Registry();
    final long source = registry.create();
    final Storage<A> storage;
    final ChangeSet changes = new ChangeSet(registry);
    final long[] handles = new long[CREATIONS];

    World() {
      registry.emplace(source, TA, new A(7));
      storage = registry.storage(TA);
      changes.create(handles, 0, CREATIONS);
    }

    void copy(final int from, final int to) {
      changes.copy(handles, from, to, storage, source, null);
    }

    /** {@return the A of creation {@code n} after the commit, or null} */
    A of(final int n) {
      final long entity = changes.entityOf(handles[n]);
      return storage.contains(entity) ? storage.get(entity) : null;
    }

    void assertCopied(final int from, final int to) {
      for (int n = 0; n < CREATIONS; n++) {
        if (n >= from && n < to) {
          assertEquals(new A(7), of(n), "creation " + n);
        }
      }
    }

    void assertRefusedNaming(final int n, final String reason) {
      final IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, changes::commit);
      assertTrue(
          refused.getMessage().contains("on " + Entity.toString(handles[n]) + " ("),
          refused.getMessage());
      assertTrue(refused.getMessage().contains(reason), refused.getMessage());
      assertEquals(1, registry.alive(), "nothing created");
    }
  }

  @Test
  void aRunAcrossWholeWordsCopiesToEachOfItsCreationsOnly() {
    final World world = new World();
    // Creation 3 shares the run's first word, before the run: its own change is no second one.
    world.changes.emplace(world.handles[3], TA, new A(3));
    world.copy(10, CREATIONS);
    world.changes.commit();

    world.assertCopied(10, CREATIONS);
    assertEquals(new A(3), world.of(3));
    for (int n = 0; n < 10; n++) {
      if (3 != n) {
        assertEquals(null, world.of(n), "creation " + n);
      }
    }
    assertEquals(List.of(), world.registry.verify());
  }

  @Test
  void aCreationChangedEarlierIsRefusedByNameInEachPartOfTheRun() {
    // In the run's first partial word, in a whole word (64..127), and in its last partial word.
    for (final int n : new int[] {20, 100, 130, 195}) {
      final World world = new World();
      world.changes.emplace(world.handles[n], TA, new A(n));
      world.copy(10, CREATIONS);
      world.assertRefusedNaming(n, "already changes it");
    }
  }

  @Test
  void aRunMarksItsCreationsOnlyForLaterChanges() {
    final World world = new World();
    world.copy(0, 70);
    // Creation 80 shares the word of the run's end (64..127) but is no part of the run.
    world.changes.emplace(world.handles[80], TA, new A(80));
    world.changes.commit();
    world.assertCopied(0, 70);
    assertEquals(new A(80), world.of(80));
    assertEquals(null, world.of(70));

    for (final int n : new int[] {5, 63, 64, 69}) {
      final World again = new World();
      again.copy(0, 70);
      again.changes.emplace(again.handles[n], TA, new A(n));
      again.assertRefusedNaming(n, "already changes it");
    }
  }

  @Test
  void aRunWithADestroyInTheSetIsCheckedHandleByHandle() {
    final World world = new World();
    final long doomed = world.registry.create();
    world.changes.destroy(doomed);
    world.copy(0, CREATIONS);
    world.changes.commit();
    world.assertCopied(0, CREATIONS);
    assertFalse(world.registry.valid(doomed));

    final World destroying = new World();
    destroying.changes.destroy(destroying.handles[150]);
    destroying.copy(100, CREATIONS);
    destroying.assertRefusedNaming(150, "destroys it");

    // Out of order, so no run: each handle is still checked against the destroys.
    final World unordered = new World();
    unordered.changes.destroy(unordered.handles[0]);
    unordered.changes.copy(
        new long[] {unordered.handles[1], unordered.handles[0]},
        0,
        2,
        unordered.storage,
        unordered.source,
        null);
    unordered.assertRefusedNaming(0, "destroys it");
  }

  @Test
  void aRunIntoALockedOrGroupObservedStorageIsRefused() {
    final World world = new World();
    world.copy(0, CREATIONS);
    world.storage.lock("a test", this);
    assertThrows(ConcurrentModificationException.class, world.changes::commit);
    world.storage.unlock();

    world.registry.owningGroup(TA, TB);
    world.registry.storage(TB).lock("a test", this);
    final ConcurrentModificationException observed =
        assertThrows(ConcurrentModificationException.class, world.changes::commit);
    assertTrue(observed.getMessage().contains("groups observe"), observed.getMessage());
    world.registry.storage(TB).unlock();
    world.changes.commit();
    world.assertCopied(0, CREATIONS);
  }

  @Test
  void anEmptyRangeAtTheEndOfItsArrayCopiesNothing() {
    final World world = new World();
    world.copy(CREATIONS, CREATIONS);
    world.changes.copy(new long[0], 0, 0, world.storage, world.source, null);
    world.changes.commit();
    assertEquals(1, world.storage.size());
  }

  @Test
  void aRangeStartingWithALiveEntityIsNoRun() {
    final Registry registry = new Registry();
    final long source = registry.create();
    registry.emplace(source, TA, new A(7));
    final long live = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    final long created = changes.create();
    changes.copy(new long[] {live}, 0, 1, registry.storage(TA), source, null);
    changes.commit();
    assertEquals(new A(7), registry.get(live, TA));
    assertFalse(registry.storage(TA).contains(changes.entityOf(created)));
  }

  @Test
  void aRunIsFoundByItsStagingNumbersAfterEarlierCommits() {
    final Registry registry = new Registry();
    final long source = registry.create();
    registry.emplace(source, TA, new A(7));
    final ChangeSet changes = new ChangeSet(registry);
    changes.create();
    changes.commit();
    final long[] handles = new long[5];
    changes.create(handles, 0, 5);
    changes.copy(handles, 0, 1, registry.storage(TA), source, null);
    changes.copy(handles, 3, 5, registry.storage(TA), source, null);
    changes.commit();
    final boolean[] expected = {true, false, false, true, true};
    for (int i = 0; i < handles.length; i++) {
      assertEquals(
          expected[i], registry.storage(TA).contains(changes.entityOf(handles[i])), "handle " + i);
    }
  }

  @Test
  void handlesOutOfOrderAreCopiedEachToItsOwnCreation() {
    final Registry registry = new Registry();
    final long source = registry.create();
    registry.emplace(source, TA, new A(7));
    final ChangeSet changes = new ChangeSet(registry);
    final long[] handles = new long[5];
    changes.create(handles, 0, 5);
    changes.copy(
        new long[] {handles[2], handles[1], handles[0]}, 0, 3, registry.storage(TA), source, null);
    changes.commit();
    for (int i = 0; i < handles.length; i++) {
      assertEquals(
          i < 3, registry.storage(TA).contains(changes.entityOf(handles[i])), "handle " + i);
    }
  }

  @Test
  void aHandleOfACreationNotStagedIsRefusedEvenAfterARun() {
    final Registry registry = new Registry();
    final long source = registry.create();
    registry.emplace(source, TA, new A(7));
    final ChangeSet changes = new ChangeSet(registry);
    final long[] handles = new long[4];
    changes.create(handles, 0, 3);
    // What the set's fourth creation would be named: not staged, so no handle of this set yet.
    handles[3] = Entity.of(Entity.index(handles[0]), Entity.version(handles[0]) + 3);
    assertTrue(ChangeSet.isStaged(handles[3]));
    final IllegalArgumentException ranged =
        assertThrows(
            IllegalArgumentException.class,
            () -> changes.copy(handles, 0, 4, registry.storage(TA), source, null));
    assertTrue(ranged.getMessage().contains(Entity.toString(handles[3])), ranged.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> changes.copy(handles, 1, 4, registry.storage(TA), source, null));
    assertThrows(IllegalArgumentException.class, () -> changes.emplace(handles[3], TA, new A(1)));
    assertEquals(3, changes.size(), "only the creations are staged");
  }

  @Test
  void entitiesOfResolvesARunAndEachHandleOfWhatIsNoRun() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    final long[] handles = new long[6];
    changes.create(handles, 0, 5);
    changes.commit();
    final long[] entities = new long[5];
    for (int i = 0; i < 5; i++) {
      entities[i] = changes.entityOf(handles[i]);
    }

    final long[] run = handles.clone();
    changes.entitiesOf(run, 1, 4);
    assertEquals(
        List.of(handles[0], entities[1], entities[2], entities[3], entities[4]),
        List.of(run[0], run[1], run[2], run[3], run[4]));

    // A live entity in the middle breaks the run: it resolves to NULL, the others to theirs.
    final long[] broken = handles.clone();
    broken[2] = entities[0];
    changes.entitiesOf(broken, 0, 4);
    assertEquals(
        List.of(entities[0], entities[1], Entity.NULL, entities[3]),
        List.of(broken[0], broken[1], broken[2], broken[3]));

    // One past the last creation is no handle of the commit.
    final long[] past = handles.clone();
    past[5] = Entity.of(Entity.index(handles[0]), Entity.version(handles[0]) + 5);
    changes.entitiesOf(past, 3, 3);
    assertEquals(
        List.of(entities[3], entities[4], Entity.NULL), List.of(past[3], past[4], past[5]));

    // After the next commit, the first one's handles name nothing.
    changes.create();
    changes.commit();
    final long[] stale = handles.clone();
    changes.entitiesOf(stale, 0, 5);
    for (int i = 0; i < 5; i++) {
      assertEquals(Entity.NULL, stale[i], "handle " + i);
    }
  }

  @Test
  void copyToCreationsCopiesToTheRunFromItsFirstHandle() {
    final World world = new World();
    world.changes.copyToCreations(world.handles[50], 100, world.storage, world.source, null);
    world.changes.commit();
    world.assertCopied(50, 150);
    assertEquals(null, world.of(49));
    assertEquals(null, world.of(150));
    assertEquals(101, world.storage.size());
    assertEquals(List.of(), world.registry.verify());
  }

  @Test
  void copyToCreationsRefusesWhatTheSetHasNotStaged() {
    final World world = new World();
    final long live = world.registry.create();
    final long past =
        Entity.of(Entity.index(world.handles[0]), Entity.version(world.handles[0]) + CREATIONS);
    final ChangeSet other = new ChangeSet(world.registry);
    final long foreign = other.create();
    for (final long first : new long[] {live, past, foreign}) {
      final IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> world.changes.copyToCreations(first, 1, world.storage, world.source, null));
      assertTrue(refused.getMessage().contains(Entity.toString(first)), refused.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () ->
            world.changes.copyToCreations(
                world.handles[150], 51, world.storage, world.source, null));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            world.changes.copyToCreations(world.handles[0], -1, world.storage, world.source, null));
    assertEquals(CREATIONS, world.changes.size(), "only the creations are staged");

    world.changes.copyToCreations(world.handles[150], 50, world.storage, world.source, null);
    world.changes.copyToCreations(world.handles[0], 0, world.storage, world.source, null);
    world.changes.commit();
    world.assertCopied(150, CREATIONS);
    assertEquals(51, world.storage.size());
  }
}
