package dev.phalanx.ecs;

import static dev.phalanx.ecs.ChangeSetZeroAllocationTest.IN_PLACE_POINT;
import static dev.phalanx.ecs.ChangeSetZeroAllocationTest.POINT;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ChangeSetZeroAllocationTest.Point;
import dev.phalanx.ecs.ChangeSetZeroAllocationTest.PointRows;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Row writes join a run only behind a run of the same type and writer; a write staged where no
 * storage of its type exists yet is refused by the commit, not by staging; staging a write into a
 * set while it commits, or onto another set's handle, is refused; and a run reuses the positions it
 * noted only while its own storage's elements stay where they were, whatever the set's earlier
 * commits noted.
 */
class ChangeSetWriteJoinTest {

  @Test
  void aWriteJoinsOnlyARunOfItsTypeAndWriter() {
    final Registry registry = new Registry();
    final long[] entities = new long[4];
    registry.create(entities);
    for (final long e : entities) {
      registry.emplace(e, POINT, new Point(-1, -1, Entity.NULL));
      registry.emplace(e, IN_PLACE_POINT, new Point(-1, -1, Entity.NULL));
    }
    final long fresh = registry.create();
    final PointRows rows = new PointRows();
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(fresh, POINT, rows, 10);
    changes.emplace(fresh, IN_PLACE_POINT, rows, 14);
    changes.write(entities[0], POINT, rows, 11);
    changes.write(entities[1], IN_PLACE_POINT, rows, 12);
    changes.write(entities[2], POINT, rows, 13);
    assertEquals(5, changes.size());
    changes.commit();

    assertEquals(10, registry.get(fresh, POINT).x());
    assertEquals(14, registry.get(fresh, IN_PLACE_POINT).x());
    assertEquals(11, registry.get(entities[0], POINT).x());
    assertEquals(12, registry.get(entities[1], IN_PLACE_POINT).x());
    assertEquals(-1, registry.get(entities[1], POINT).x());
    assertEquals(13, registry.get(entities[2], POINT).x());
    assertEquals(-1, registry.get(entities[2], IN_PLACE_POINT).x());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void eachWriterWritesOnlyItsOwnRowInsertionsAndWrites() {
    final Registry registry = new Registry();
    final long[] entities = new long[3];
    registry.create(entities);
    for (final long e : entities) {
      registry.emplace(e, POINT, new Point(-1, -1, Entity.NULL));
    }
    final long[] fresh = new long[3];
    registry.create(fresh);
    final PointRows rows = new PointRows();
    final ChangeSet.RowWriter doubling =
        (storage, position, row) -> rows.write(storage, position, 2 * row);
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(fresh[0], POINT, rows, 1);
    changes.emplace(fresh[1], POINT, doubling, 2);
    changes.emplace(fresh[2], POINT, rows, 3);
    changes.write(entities[0], POINT, rows, 4);
    changes.write(entities[1], POINT, doubling, 5);
    changes.write(entities[2], POINT, rows, 6);
    changes.commit();

    assertEquals(1, registry.get(fresh[0], POINT).x());
    assertEquals(4, registry.get(fresh[1], POINT).x());
    assertEquals(3, registry.get(fresh[2], POINT).x());
    assertEquals(4, registry.get(entities[0], POINT).x());
    assertEquals(10, registry.get(entities[1], POINT).x());
    assertEquals(6, registry.get(entities[2], POINT).x());
  }

  @Test
  void rowInsertionsAreAnnouncedToGroupAndConstructListeners() {
    final Registry registry = new Registry();
    final NonOwningGroup group =
        registry.nonOwningGroup(GroupTypes.types(POINT), GroupTypes.types());
    final List<Long> entered = new ArrayList<>();
    final List<Long> constructed = new ArrayList<>();
    group.onEnter().connect((r, e) -> entered.add(e));
    registry.storage(IN_PLACE_POINT).onConstruct().connect((r, e) -> constructed.add(e));
    final long[] entities = new long[2];
    registry.create(entities);
    final PointRows rows = new PointRows();
    final ChangeSet changes = new ChangeSet(registry);
    changes.emplace(entities[0], POINT, rows, 1);
    changes.emplace(entities[1], IN_PLACE_POINT, rows, 2);
    changes.commit();

    assertEquals(List.of(entities[0]), entered);
    assertEquals(List.of(entities[1]), constructed);
    assertEquals(1, registry.get(entities[0], POINT).x());
    assertEquals(2, registry.get(entities[1], IN_PLACE_POINT).x());
  }

  @Test
  void aWriteOfATypeWithNoStorageIsRefusedByTheCommit() {
    final Registry registry = new Registry();
    final long[] entities = new long[3];
    registry.create(entities);
    final PointRows rows = new PointRows();
    final ChangeSet changes = new ChangeSet(registry);
    changes.write(entities[0], POINT, rows, 1);
    changes.write(entities, 1, 3, POINT, rows, new int[] {0, 2, 3});
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, changes::commit);
    assertTrue(refused.getMessage().contains("has no"), refused.getMessage());
    assertTrue(refused.getMessage().contains(Entity.toString(entities[0])), refused.getMessage());
    assertNull(registry.findStorage(POINT), "no storage made for a write");
  }

  @Test
  void writesStagedFromACommitsListenerOrOntoAnotherSetsHandleAreRefused() {
    final Registry registry = new Registry();
    final long[] entities = new long[2];
    registry.create(entities);
    for (final long e : entities) {
      registry.emplace(e, POINT, new Point(-1, -1, Entity.NULL));
    }
    final Storage<A> source = registry.storage(TA);
    final long sourceEntity = registry.create();
    source.emplace(sourceEntity, new A(1));
    final PointRows rows = new PointRows();
    final ChangeSet changes = new ChangeSet(registry);
    final int[] refused = {0};
    // Refused as re-entrant whatever the targets: another set's handle among them too.
    final long foreign = new ChangeSet(registry).create();
    final long[] targets = {entities[0], foreign};
    final Runnable[] attempts = {
      () -> changes.write(entities[0], POINT, rows, 1),
      () -> changes.write(foreign, POINT, rows, 1),
      () -> changes.write(entities, 0, 2, POINT, rows, new int[] {1, 2}),
      () -> changes.write(targets, 0, 2, POINT, rows, new int[] {1, 2}),
      () -> changes.copy(entities, 0, 2, source, sourceEntity, null),
      () -> changes.copy(targets, 0, 2, source, sourceEntity, null)
    };
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              for (final Runnable attempt : attempts) {
                try {
                  attempt.run();
                } catch (final IllegalStateException expected) {
                  assertTrue(expected.getMessage().contains("being committed"));
                  refused[0]++;
                }
              }
            });
    changes.create();
    changes.commit();
    assertEquals(attempts.length, refused[0]);
    assertTrue(changes.isEmpty());
    assertEquals(-1, registry.get(entities[0], POINT).x());

    final IllegalArgumentException single =
        assertThrows(IllegalArgumentException.class, () -> changes.write(foreign, POINT, rows, 1));
    assertTrue(single.getMessage().contains("cannot stage write"), single.getMessage());
    assertTrue(changes.isEmpty());
  }

  @Test
  void aRunNoticesItsOwnStoragesMovesWhateverAnEarlierCommitNoted() {
    final Registry registry = new Registry();
    final long[] entities = new long[8];
    registry.create(entities);
    for (final long e : entities) {
      registry.emplace(e, TA, new A(-1));
      registry.emplace(e, TB, new B(-1));
    }
    final Storage<A> as = registry.storage(TA);
    final Storage<B> bs = registry.storage(TB);
    final long last = entities[7];
    // TA's elements moved twice, TB's not at all.
    for (int i = 0; i < 2; i++) {
      registry.remove(last, TA);
      registry.emplace(last, TA, new A(-1));
    }
    final Storage<A> sourceA = TA.createStorage();
    sourceA.emplace(Entity.of(0, 0), new A(100));
    final Storage<B> sourceB = TB.createStorage();
    sourceB.emplace(Entity.of(0, 0), new B(200));
    final ColumnRows rows = new ColumnRows();
    final ChangeSet changes = new ChangeSet(registry);
    // The set's first run, checked at TA's stamp.
    changes.write(entities[1], TA, rows, rows.add(sourceA, Entity.of(0, 0)));
    changes.commit();
    final long checkedAt = as.structureStamp();
    while (bs.structureStamp() < checkedAt - 1) {
      registry.remove(last, TB);
      registry.emplace(last, TB, new B(-1));
    }
    assertEquals(checkedAt - 1, bs.structureStamp());

    // The set's first run again, now of TB: its position is noted one move before TB reaches the
    // stamp the earlier run was checked at; the move takes last's element to the front.
    changes.write(last, TB, rows, rows.add(sourceB, Entity.of(0, 0)));
    registry.remove(entities[0], TB);
    assertEquals(checkedAt, bs.structureStamp());
    changes.commit();

    assertEquals(new A(100), registry.get(entities[1], TA));
    assertEquals(new B(200), registry.get(last, TB));
    assertEquals(List.of(), registry.verify());
  }
}
