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

  @Test
  void aRowWriteFollowsItsElementMovedOrRemovedBetweenStagingAndCommit() {
    final Registry registry = new Registry();
    final long first = registry.create();
    final long moved = registry.create();
    final long gone = registry.create();
    registry.emplace(first, TB, new B(1));
    registry.emplace(gone, TB, new B(3));
    registry.emplace(moved, TB, new B(2));
    final Storage<B> source = TB.createStorage();
    source.emplace(Entity.of(0, 0), new B(20));
    source.emplace(Entity.of(1, 0), new B(30));
    final ColumnRows rows = new ColumnRows();
    final ChangeSet changes = new ChangeSet(registry);
    changes.write(moved, TB, rows, rows.add(source, Entity.of(0, 0)));
    // Swap and pop: the last element (moved's) takes first's place.
    registry.remove(first, TB);
    changes.commit();
    assertEquals(new B(20), registry.get(moved, TB));
    assertEquals(new B(3), registry.get(gone, TB));

    changes.write(gone, TB, rows, rows.add(source, Entity.of(1, 0)));
    registry.destroy(gone);
    final IllegalArgumentException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, changes::commit);
    org.junit.jupiter.api.Assertions.assertTrue(
        refused.getMessage().contains("not valid"), refused.getMessage());
    assertEquals(new B(20), registry.get(moved, TB));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aWriteRunLandsWhereAnEarlierInsertionOfTheSameCommitMovedItsElements() {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    // The written ones have B only: outside the group, at the storage's front, where the group's
    // next members go.
    final long[] written = new long[3];
    registry.create(written);
    for (int i = 0; i < written.length; i++) {
      registry.emplace(written[i], TB, new B(i));
    }
    final long[] joining = new long[2];
    registry.create(joining);
    for (final long e : joining) {
      registry.emplace(e, TA, new A(2));
    }
    final Storage<B> source = TB.createStorage();
    final ColumnRows rows = new ColumnRows();
    final int[] rowsOf = new int[written.length];
    for (int i = 0; i < written.length; i++) {
      source.emplace(Entity.of(i, 0), new B(300 + i));
      rowsOf[i] = rows.add(source, Entity.of(i, 0));
    }
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(joining[0], TB, new B(200));
    changes.emplace(joining[1], TB, new B(201));
    changes.write(written, 0, written.length, TB, rows, rowsOf);
    changes.commit();

    for (int i = 0; i < written.length; i++) {
      assertEquals(new B(300 + i), registry.get(written[i], TB), "written " + i);
    }
    assertEquals(new B(200), registry.get(joining[0], TB));
    assertEquals(new B(201), registry.get(joining[1], TB));
    assertEquals(2, group.size());
    assertEquals(List.of(), registry.verify());
  }
}
