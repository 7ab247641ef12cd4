package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A staged destroy is checked against every storage that holds the entity and could refuse it
 * (locked, iterated, or observed by a group while an iteration is active), and only those: the
 * refusal names the storage and nothing changes; a destroy that no storage refuses goes through.
 */
class ChangeSetDestroyCheckTest {

  @Test
  void aLockedStorageHoldingTheEntityRefusesItsDestroy() {
    final Registry registry = new Registry();
    final long e = world(registry);
    final long other = registry.create();
    registry.emplace(other, TC, new C(3));
    registry.storage(TB).lock("a test", this);
    final ChangeSet changes = new ChangeSet(registry);
    // Locked TB does not hold other: its destroy is not refused by it.
    changes.destroy(other);
    changes.destroy(e);
    final ConcurrentModificationException refused =
        assertThrows(ConcurrentModificationException.class, changes::commit);
    assertTrue(
        refused.getMessage().contains("destroy " + Entity.toString(e)), refused.getMessage());
    assertTrue(registry.valid(e) && registry.valid(other), "a refused commit changes nothing");
    registry.storage(TB).unlock();
    changes.commit();
    assertTrue(!registry.valid(e) && !registry.valid(other));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aGroupObservedStorageRefusesTheDestroyWhileTheGroupIsIterated() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long e = world(registry);
    final long outsider = registry.create();
    registry.emplace(outsider, TC, new C(3));
    final ChangeSet changes = new ChangeSet(registry);
    changes.destroy(e);
    final boolean[] refused = {false};
    group.each(
        entity -> {
          try {
            changes.commit();
          } catch (final ConcurrentModificationException expected) {
            refused[0] = true;
          }
        });
    assertTrue(refused[0], "refused while the group is iterated");
    assertTrue(registry.valid(e));
    changes.clear();
    // An entity no guarded storage holds is destroyed during the same kind of pass.
    changes.destroy(outsider);
    group.each(entity -> changes.commit());
    assertTrue(!registry.valid(outsider));
    assertEquals(List.of(), registry.verify());
  }

  /** Returns an entity with an A and a B. */
  private static long world(final Registry registry) {
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(e, TB, new B(2));
    return e;
  }
}
