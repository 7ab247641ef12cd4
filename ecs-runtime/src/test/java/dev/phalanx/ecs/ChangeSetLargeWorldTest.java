package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The marks of changed pairs reach any entity index and any type id: a set changes entities far
 * apart (in the first and a later word of marks) of a type made after many others, and still
 * refuses a second change of one of them.
 */
class ChangeSetLargeWorldTest {

  /** A component whose type is defined by this test only. */
  record Late(int value) {}

  @Test
  void pairsOfHighIndicesAndALateTypeAreMarked() {
    // Each definition takes an id, even one that returns the type already defined: a type defined
    // after these has an id beyond the first sizes of the set's tables.
    for (int i = 0; i < 200; i++) {
      ComponentType.object(A.class);
    }
    final ComponentType<Late, ObjectStorage<Late>> type = ComponentType.object(Late.class);
    assertTrue(type.id() >= 200, "id " + type.id());
    final Registry registry = new Registry();
    final long[] entities = new long[4200];
    registry.create(entities);
    final long low = entities[0];
    final long high = entities[4100];
    final long higher = entities[4170];
    assertEquals(4100, Entity.index(high));
    final ChangeSet changes = new ChangeSet(registry);
    // The type's first mark is in word 64, past the first size of a table; the last one in the
    // word just past the table that mark made.
    changes.emplace(high, type, new Late(2));
    changes.emplace(low, type, new Late(1));
    changes.emplace(higher, type, new Late(3));
    changes.commit();
    assertEquals(new Late(1), registry.get(low, type));
    assertEquals(new Late(2), registry.get(high, type));
    assertEquals(new Late(3), registry.get(higher, type));

    changes.replace(low, type, new Late(3));
    changes.replace(high, type, new Late(4));
    changes.remove(high, type);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, changes::commit);
    assertTrue(refused.getMessage().contains("already changes it"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(high)), refused.getMessage());
    assertEquals(new Late(2), registry.get(high, type));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aTypeWhoseIdIsTheTablesLengthIsMarked() {
    // Two types defined one after the other, past the tables' first length: the first grows them
    // to just hold it, the second's id is then their length.
    ComponentType<Void, VoidStorage> first;
    ComponentType<Void, VoidStorage> second;
    int attempt = 0;
    do {
      first = ComponentType.named("ChangeSetLargeWorldTest.first." + attempt);
      second = ComponentType.named("ChangeSetLargeWorldTest.second." + attempt);
      attempt++;
    } while (first.id() < 64 || second.id() != first.id() + 1);
    final Registry registry = new Registry();
    final long e = registry.create();
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(e, first);
    changes.emplace(e, second);
    changes.commit();
    assertTrue(registry.storage(first).contains(e) && registry.storage(second).contains(e));
  }
}
