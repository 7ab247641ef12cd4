package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TG;
import static dev.phalanx.ecs.GroupTypes.TH;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.GroupTypes.D;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The commit's check refuses, before anything changes, what the registry would refuse: a removal
 * from a locked or iterated storage, a change of a storage that groups observe while an iteration
 * or lock is active (and only of such a storage), a ranged copy into a locked storage, a destroy of
 * an entity that any of many guarded storages holds, and an insertion or destroy of an entity whose
 * destroy listeners run.
 */
class ChangeSetGuardTest {

  @Test
  void aRemovalFromALockedOrIteratedStorageIsRefused() {
    final Registry registry = new Registry();
    final long e = registry.create();
    final long other = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(other, TA, new A(2));
    final ChangeSet changes = new ChangeSet(registry);
    changes.remove(e, TA);
    registry.storage(TA).lock("a test", this);
    assertThrows(ConcurrentModificationException.class, changes::commit);
    registry.storage(TA).unlock();

    final int[] refused = {0};
    registry
        .view(TA)
        .each(
            entity -> {
              if (entity == other) {
                try {
                  changes.commit();
                } catch (final ConcurrentModificationException expected) {
                  refused[0]++;
                }
              }
            });
    assertEquals(1, refused[0], "refused while the storage is iterated");
    assertTrue(registry.storage(TA).contains(e));
    changes.commit();
    assertFalse(registry.storage(TA).contains(e));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void onlyStoragesGroupsObserveAreRefusedWhileALockIsActive() {
    final Registry registry = new Registry();
    registry.owningGroup(TA, TB);
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(e, TB, new B(1));
    registry.emplace(e, TC, new C(1));
    registry.storage(TC).lock("a test", this);
    final ChangeSet changes = new ChangeSet(registry);
    changes.remove(e, TB);
    final ConcurrentModificationException removal =
        assertThrows(ConcurrentModificationException.class, changes::commit);
    assertTrue(removal.getMessage().contains("groups observe"), removal.getMessage());
    changes.clear();
    changes.destroy(e);
    final ConcurrentModificationException destroy =
        assertThrows(ConcurrentModificationException.class, changes::commit);
    assertTrue(destroy.getMessage().contains("groups observe"), destroy.getMessage());
    changes.clear();

    // TD has no group: changing it is allowed while TC is locked.
    changes.emplace(e, TD, new D(4));
    changes.commit();
    assertEquals(new D(4), registry.get(e, TD));
    registry.storage(TC).unlock();
    changes.remove(e, TB);
    changes.commit();
    assertFalse(registry.storage(TB).contains(e));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRangedCopyIntoALockedStorageIsRefused() {
    final Registry registry = new Registry();
    final long source = registry.create();
    registry.emplace(source, TA, new A(7));
    final ChangeSet changes = new ChangeSet(registry);
    final long[] created = new long[2];
    changes.create(created, 0, 2);
    // Out of order: no run, and only the set's creations, which need no check of their own.
    changes.copy(new long[] {created[1], created[0]}, 0, 2, registry.storage(TA), source, null);
    registry.storage(TA).lock("a test", this);
    assertThrows(ConcurrentModificationException.class, changes::commit);
    registry.storage(TA).unlock();
    registry.owningGroup(TA, TB);
    registry.storage(TC).lock("a test", this);
    final ConcurrentModificationException observed =
        assertThrows(ConcurrentModificationException.class, changes::commit);
    assertTrue(observed.getMessage().contains("groups observe"), observed.getMessage());
    registry.storage(TC).unlock();
    changes.commit();
    assertEquals(new A(7), registry.get(changes.entityOf(created[0]), TA));
    assertEquals(new A(7), registry.get(changes.entityOf(created[1]), TA));
  }

  @Test
  void aDestroyIsCheckedAgainstManyGuardedStorages() {
    final Registry registry = new Registry();
    final ComponentType<?, ?>[] types = {TA, TB, TC, TD, TE, TF, TG, TH, TX};
    final long e = registry.create();
    final long free = registry.create();
    for (final ComponentType<?, ?> type : types) {
      registry.storage(type).lock("a test", this);
    }
    registry.storage(TX).unlock();
    emplace(registry, e, TX);
    registry.storage(TX).lock("a test", this);
    final ChangeSet changes = new ChangeSet(registry);
    changes.destroy(free);
    changes.destroy(e);
    final ConcurrentModificationException refused =
        assertThrows(ConcurrentModificationException.class, changes::commit);
    assertTrue(
        refused.getMessage().contains("destroy " + Entity.toString(e)), refused.getMessage());
    assertTrue(registry.valid(e) && registry.valid(free), "nothing changed");
    for (final ComponentType<?, ?> type : types) {
      registry.storage(type).unlock();
    }
    changes.commit();
    assertFalse(registry.valid(e) || registry.valid(free));
  }

  @Test
  void anEntityWhoseDestroyListenersRunIsNeitherChangedNorDestroyedAgain() {
    final Registry registry = new Registry();
    final long e = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    final String[] refusals = new String[2];
    final boolean[] kept = new boolean[2];
    registry
        .onDestroy()
        .connect(
            (r, entity) -> {
              if (entity != e) {
                return;
              }
              changes.emplace(entity, TA, new A(1));
              try {
                changes.commit();
              } catch (final IllegalStateException refused) {
                refusals[0] = refused.getMessage();
                kept[0] = !changes.isEmpty();
              }
              changes.clear();
              changes.destroy(entity);
              try {
                changes.commit();
              } catch (final IllegalStateException refused) {
                refusals[1] = refused.getMessage();
                kept[1] = !changes.isEmpty();
              }
              changes.clear();
            });
    registry.destroy(e);
    assertTrue(null != refusals[0], "the insertion is refused");
    assertTrue(null != refusals[1], "the destroy is refused");
    assertTrue(kept[0] && kept[1], "refused by the check: the set keeps its changes");
    assertFalse(registry.valid(e));
    assertEquals(0, registry.storage(TA).size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aDestroyOfAnEntityAnIteratedStorageHoldsIsRefused() {
    final Registry registry = new Registry();
    final long free = registry.create();
    final long e = registry.create();
    registry.emplace(e, TC, new C(1));
    final ChangeSet changes = new ChangeSet(registry);
    changes.destroy(free);
    changes.destroy(e);
    final int[] refused = {0};
    registry
        .view(TC)
        .each(
            entity -> {
              try {
                changes.commit();
              } catch (final ConcurrentModificationException expected) {
                refused[0]++;
              }
            });
    assertEquals(1, refused[0]);
    assertTrue(registry.valid(free) && registry.valid(e), "nothing changed");
    changes.commit();
    assertFalse(registry.valid(free) || registry.valid(e));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void emplace(final Registry registry, final long e, final ComponentType type) {
    registry.emplace(e, type, value(type, 1));
  }
}
