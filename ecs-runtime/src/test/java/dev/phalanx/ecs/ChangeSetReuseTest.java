package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A set is reused after each commit, refused or not: what one check recorded (the pairs changed,
 * the entities destroyed, the storages that could refuse a destroy) must not reach the next one. A
 * refused commit committed again once its cause is fixed, and a set that committed the same pairs
 * before, commit as a fresh set would.
 */
class ChangeSetReuseTest {

  @Test
  void aRefusedCommitCommitsWholeOnceItsCauseIsFixed() {
    final Registry registry = new Registry();
    final long kept = registry.create();
    final long doomed = registry.create();
    final long lacking = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    final long created = changes.create();
    changes.emplace(kept, TA, new A(1));
    changes.emplace(created, TA, new A(2));
    changes.destroy(doomed);
    // Refused here, after the pairs and the destroy above were recorded.
    changes.replace(lacking, TB, new B(3));
    assertThrows(IllegalArgumentException.class, changes::commit);
    assertFalse(registry.storage(TA).contains(kept), "a refused commit changes nothing");

    registry.emplace(lacking, TB, new B(0));
    changes.commit();
    assertEquals(new A(1), registry.get(kept, TA));
    assertEquals(new A(2), registry.get(changes.entityOf(created), TA));
    assertFalse(registry.valid(doomed));
    assertEquals(new B(3), registry.get(lacking, TB));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aReusedSetChangesTheSamePairsAgain() {
    final Registry registry = new Registry();
    final long kept = registry.create();
    final long first = registry.create();
    final long second = registry.create();
    registry.emplace(second, TB, new B(0));
    final ChangeSet changes = new ChangeSet(registry);
    final long created = changes.create();
    changes.emplace(kept, TA, new A(1));
    changes.emplace(created, TA, new A(2));
    changes.destroy(first);
    changes.commit();

    // The same live pair, the same staging number of a new creation, and a destroy checked
    // against a storage locked only now.
    final long again = changes.create();
    changes.replace(kept, TA, new A(3));
    changes.emplace(again, TA, new A(4));
    changes.commit();
    assertEquals(new A(3), registry.get(kept, TA));
    assertEquals(new A(4), registry.get(changes.entityOf(again), TA));

    registry.storage(TB).lock("a test", this);
    changes.destroy(second);
    assertThrows(ConcurrentModificationException.class, changes::commit);
    assertTrue(registry.valid(second));
    registry.storage(TB).unlock();
    changes.commit();
    assertFalse(registry.valid(second));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aSetThatDestroyedItsOwnCreationCreatesAndChangesAgain() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    final long gone = changes.create();
    changes.destroy(gone);
    changes.commit();
    assertEquals(0, registry.alive());

    final long kept = changes.create();
    changes.emplace(kept, TA, new A(5));
    changes.commit();
    assertEquals(new A(5), registry.get(changes.entityOf(kept), TA));
  }
}
