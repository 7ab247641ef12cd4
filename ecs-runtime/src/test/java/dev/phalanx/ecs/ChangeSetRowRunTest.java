package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A commit hands a run of row changes (same kind, type and writer, staged one after another) to its
 * writer at once, after the run's insertions are made: each row must land at its element's final
 * position even when an owning group moves the new members, and runs broken by other changes must
 * apply in staging order.
 */
class ChangeSetRowRunTest {

  @Test
  void aRunOfRowInsertionsLandsWhereTheGroupMovedEachElement() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final long[] entities = new long[12];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = registry.create();
      registry.emplace(entities[i], TA, new A(i));
    }
    registry.emplace(entities[0], TB, new B(100));
    registry.emplace(entities[1], TB, new B(101));
    final Storage<B> source = TB.createStorage();
    final ColumnRows rows = new ColumnRows();
    final ChangeSet changes = new ChangeSet(registry);
    // Inserted in reverse: every new member moves to the group's front in its own order.
    for (int i = entities.length - 1; i >= 2; i--) {
      source.emplace(Entity.of(i, 0), new B(200 + i));
      changes.emplace(entities[i], TB, rows, rows.add(source, Entity.of(i, 0)));
    }
    // A run of writes, broken by a plain replace.
    source.emplace(Entity.of(0, 0), new B(300));
    changes.write(entities[0], TB, rows, rows.add(source, Entity.of(0, 0)));
    changes.replace(entities[1], TA, new A(-1));
    source.emplace(Entity.of(1, 0), new B(301));
    changes.write(entities[1], TB, rows, rows.add(source, Entity.of(1, 0)));
    changes.commit();

    for (int i = 2; i < entities.length; i++) {
      assertEquals(new B(200 + i), registry.get(entities[i], TB), "entity " + i);
    }
    assertEquals(new B(300), registry.get(entities[0], TB));
    assertEquals(new B(301), registry.get(entities[1], TB));
    assertEquals(new A(-1), registry.get(entities[1], TA));
    assertEquals(entities.length, group.size());
    assertEquals(entities.length, rows.calls);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRowWriteLandsWhereAnEarlierInsertionOfTheSameCommitMovedItsElement() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    // written has B only: outside the group, at the storage's first position, where the group's
    // next member goes.
    final long written = registry.create();
    registry.emplace(written, TB, new B(1));
    final long joining = registry.create();
    registry.emplace(joining, TA, new A(2));
    final Storage<B> source = TB.createStorage();
    source.emplace(Entity.of(0, 0), new B(300));
    final ColumnRows rows = new ColumnRows();
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(joining, TB, new B(200));
    changes.write(written, TB, rows, rows.add(source, Entity.of(0, 0)));
    changes.commit();

    assertEquals(new B(300), registry.get(written, TB));
    assertEquals(new B(200), registry.get(joining, TB));
    assertEquals(1, group.size());
    assertEquals(List.of(), registry.verify());
  }
}
