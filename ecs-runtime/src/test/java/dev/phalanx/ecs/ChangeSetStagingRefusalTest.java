package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import org.junit.jupiter.api.Test;

/**
 * A {@link ChangeSet} checks a staging call's arguments before it stages anything: a null value for
 * a type that stores instances, a tag insertion of such a type, and a staged handle of another set
 * as the target of a single or a ranged copy are refused with a message naming the operation and
 * the rule, and the set stays as it was.
 */
class ChangeSetStagingRefusalTest {

  @Test
  void aNullValueForATypeThatStoresInstancesIsRefused() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    final NullPointerException emplace =
        assertThrows(NullPointerException.class, () -> changes.emplace(entity, TA, (A) null));
    assertTrue(
        emplace.getMessage().contains("emplace of a null " + TA.name()), emplace.getMessage());
    registry.emplace(entity, TA, new A(1));
    final NullPointerException replace =
        assertThrows(NullPointerException.class, () -> changes.replace(entity, TA, null));
    assertTrue(replace.getMessage().contains("replace of a null"), replace.getMessage());
    assertTrue(changes.isEmpty());
  }

  @Test
  void aTagInsertionOfATypeThatStoresInstancesIsRefused() {
    final Registry registry = new Registry();
    final long entity = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> changes.emplace(entity, TA));
    assertTrue(refused.getMessage().contains("as a tag"), refused.getMessage());
    assertTrue(refused.getMessage().contains(TA.name()), refused.getMessage());
    assertTrue(changes.isEmpty());

    final ComponentType<Object, EmptyStorage<Object>> tag =
        Fixtures.tag(DeletionPolicy.SWAP_AND_POP);
    changes.emplace(entity, tag);
    changes.commit();
    assertTrue(registry.storage(tag).contains(entity));
  }

  @Test
  void aCopyOntoAnotherSetsHandleIsRefusedOneByOneOrInARange() {
    final Registry registry = new Registry();
    final long source = registry.create();
    registry.emplace(source, TA, new A(7));
    final ChangeSet other = new ChangeSet(registry);
    final long foreign = other.create();
    final ChangeSet changes = new ChangeSet(registry);
    final Storage<A> storage = registry.storage(TA);

    final IllegalArgumentException single =
        assertThrows(IllegalArgumentException.class, () -> changes.copy(foreign, storage, source));
    assertTrue(single.getMessage().contains("cannot stage copy"), single.getMessage());
    final long own = changes.create();
    final long[] targets = {own, foreign};
    final IllegalArgumentException ranged =
        assertThrows(
            IllegalArgumentException.class,
            () -> changes.copy(targets, 0, 2, storage, source, null));
    assertTrue(ranged.getMessage().contains(Entity.toString(foreign)), ranged.getMessage());
    assertEquals(1, changes.size(), "only the creation is staged");

    changes.copy(targets, 0, 1, storage, source, null);
    changes.commit();
    assertEquals(new A(7), registry.get(changes.entityOf(own), TA));
  }
}
