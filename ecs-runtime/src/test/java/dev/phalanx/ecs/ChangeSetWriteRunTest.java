package dev.phalanx.ecs;

import static dev.phalanx.ecs.ChangeSetZeroAllocationTest.POINT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ChangeSetZeroAllocationTest.Point;
import dev.phalanx.ecs.ChangeSetZeroAllocationTest.PointRows;
import dev.phalanx.ecs.ChangeSetZeroAllocationTest.PointStorage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run of row writes ({@link ChangeSet#write(long[], int, int, ComponentType, ChangeSet.RowWriter,
 * int[])}) is checked, applied and announced as that many single row writes: each element written
 * where it is at the commit (looked up again if elements moved since staging), each update
 * announced in order unless listeners removed the target, and a refused run changing nothing. It is
 * what a delta loader stages for the value writes of a section.
 */
class ChangeSetWriteRunTest {

  /** A world of {@code n} entities with points; the run's writer writes row r as (r, -r). */
  private static final class World {
    final Registry registry = new Registry();
    final PointStorage points = registry.storage(POINT);
    final long[] entities = new long[8];
    final PointRows rows = new PointRows();
    final ChangeSet changes = new ChangeSet(registry);
    final List<Long> updated = new ArrayList<>();
    final ComponentListener recorder = (r, e) -> updated.add(e);

    World() {
      registry.create(entities);
      for (int i = 0; i < entities.length; i++) {
        points.emplace(entities[i], new Point(-1, -1, Entity.NULL));
      }
      points.onUpdate().connect(recorder);
    }

    /** Stages a run over {@code entities[from, to)}, entity i written with row 10 + i. */
    void stageRun(final int from, final int to) {
      final int[] rowsOf = new int[entities.length];
      for (int i = 0; i < rowsOf.length; i++) {
        rowsOf[i] = 10 + i;
      }
      changes.write(entities, from, to, POINT, rows, rowsOf);
    }

    Point point(final int i) {
      return points.get(entities[i]);
    }
  }

  @Test
  void eachTargetIsWrittenWithItsRowAndAnnouncedInOrder() {
    final World world = new World();
    world.stageRun(2, 6);
    assertEquals(4, world.changes.size(), "each write of a range counts");
    world.changes.commit();

    for (int i = 0; i < world.entities.length; i++) {
      final float x = i >= 2 && i < 6 ? 10 + i : -1;
      final float y = i >= 2 && i < 6 ? -10 - i : -1;
      assertEquals(x, world.point(i).x(), "entity " + i);
      assertEquals(y, world.point(i).y(), "entity " + i);
    }
    assertEquals(
        List.of(world.entities[2], world.entities[3], world.entities[4], world.entities[5]),
        world.updated);
    assertTrue(world.changes.isEmpty());
    assertEquals(List.of(), world.registry.verify());
  }

  @Test
  void elementsMovedBetweenStagingAndCommitAreWrittenWhereTheyAreThen() {
    final World world = new World();
    world.stageRun(4, 8);
    // Swap-and-pop moves the last element (entity 7) into entity 0's position.
    world.points.remove(world.entities[0]);
    world.changes.commit();

    for (int i = 4; i < 8; i++) {
      assertEquals(10 + i, world.point(i).x(), "entity " + i);
    }
    assertEquals(-1, world.point(1).x(), "an element outside the run is not written");
    assertEquals(List.of(), world.registry.verify());
  }

  @Test
  void aTargetThatGotTheComponentAfterStagingIsWritten() {
    final World world = new World();
    world.points.remove(world.entities[7]);
    world.points.remove(world.entities[6]); // entity 7 went first: no element moved for this one
    world.stageRun(5, 8);
    // Appended: the storage's structure stamp stays the same, the staged position is absent.
    world.points.emplace(world.entities[6], new Point(0, 0, Entity.NULL));
    world.points.emplace(world.entities[7], new Point(0, 0, Entity.NULL));
    world.changes.commit();

    assertEquals(15, world.point(5).x());
    assertEquals(16, world.point(6).x());
    assertEquals(17, world.point(7).x());
  }

  @Test
  void aRunWithATargetLackingTheComponentIsRefusedWhole() {
    final World world = new World();
    world.points.remove(world.entities[5]);
    world.stageRun(3, 7);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, world.changes::commit);

    final String message = refused.getMessage();
    assertTrue(message.contains("write " + POINT.name()), message);
    assertTrue(message.contains(Entity.toString(world.entities[5])), message);
    assertTrue(message.contains("has no"), message);
    assertTrue(message.contains("nothing was changed"), message);
    assertEquals(-1, world.point(3).x(), "nothing written");
    assertEquals(List.of(), world.updated, "nothing announced");
    assertEquals(4, world.changes.size(), "a refused commit keeps its changes");
  }

  @Test
  void aTargetTwiceOrAlsoChangedElsewhereInTheSetIsRefused() {
    final World world = new World();
    final long[] twice = {world.entities[1], world.entities[2], world.entities[1]};
    world.changes.write(twice, 0, 3, POINT, world.rows, new int[] {1, 2, 3});
    assertThrows(IllegalArgumentException.class, world.changes::commit);
    world.changes.clear();

    world.changes.remove(world.entities[4], POINT);
    world.stageRun(3, 5);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, world.changes::commit);
    assertTrue(refused.getMessage().contains("already changes it"), refused.getMessage());
    world.changes.clear();

    world.changes.destroy(world.entities[3]);
    world.stageRun(3, 5);
    final IllegalArgumentException destroyed =
        assertThrows(IllegalArgumentException.class, world.changes::commit);
    assertTrue(destroyed.getMessage().contains("destroys it"), destroyed.getMessage());
    assertEquals(world.entities.length, world.registry.alive());
    assertEquals(List.of(), world.updated);
  }

  @Test
  void aStagedHandleIsRefusedAsATargetOfAWrite() {
    final World world = new World();
    final ChangeSet other = new ChangeSet(world.registry);
    final long foreign = other.create();
    final long[] targets = {world.entities[0], foreign};
    assertThrows(
        IllegalArgumentException.class,
        () -> world.changes.write(targets, 0, 2, POINT, world.rows, new int[2]));
    assertTrue(world.changes.isEmpty(), "a refused staging stages nothing");

    targets[1] = world.changes.create();
    world.changes.write(targets, 0, 2, POINT, world.rows, new int[2]);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, world.changes::commit);
    assertTrue(refused.getMessage().contains("has no"), refused.getMessage());
    assertEquals(world.entities.length, world.registry.alive(), "nothing created");
  }

  @Test
  void rangesThatDoNotFitAreRefusedAtStaging() {
    final World world = new World();
    final int[] shortRows = new int[2];
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> world.changes.write(world.entities, 0, 3, POINT, world.rows, shortRows));
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> world.changes.write(world.entities, 2, 1, POINT, world.rows, new int[8]));
    assertThrows(
        NullPointerException.class,
        () -> world.changes.write(world.entities, 0, 1, POINT, null, new int[8]));
    world.changes.write(world.entities, 3, 3, POINT, world.rows, new int[8]);
    assertTrue(world.changes.isEmpty(), "an empty range stages nothing");
  }

  @Test
  void aListenerThatRemovesALaterTargetSkipsItsUpdateAndItsThrowIsRethrown() {
    final World world = new World();
    final RuntimeException boom = new RuntimeException("boom");
    world
        .points
        .onUpdate()
        .connect(
            (r, e) -> {
              if (e == world.entities[1]) {
                world.points.remove(world.entities[2]);
                throw boom;
              }
            });
    world.stageRun(0, 4);
    final RuntimeException thrown = assertThrows(RuntimeException.class, world.changes::commit);

    assertSame(boom, thrown);
    assertEquals(List.of(world.entities[0], world.entities[1], world.entities[3]), world.updated);
    assertEquals(13, world.point(3).x(), "every element written");
    assertFalse(world.points.contains(world.entities[2]));
    assertTrue(world.changes.isEmpty(), "a commit past its check empties the set");
    assertEquals(List.of(), world.registry.verify());
  }

  @Test
  void aThrowingWriterStillWritesTheRestAndTheCommitRethrows() {
    final World world = new World();
    final int[] calls = new int[1];
    final ChangeSet.RowWriter writer =
        (storage, position, row) -> {
          calls[0]++;
          if (11 == row) {
            throw new IllegalStateException("writer " + row);
          }
          world.rows.write(storage, position, row);
        };
    world.changes.write(world.entities, 0, 3, POINT, writer, new int[] {10, 11, 12});
    final IllegalStateException thrown =
        assertThrows(IllegalStateException.class, world.changes::commit);

    assertEquals("writer 11", thrown.getMessage());
    assertEquals(3, calls[0]);
    assertEquals(10, world.point(0).x());
    assertEquals(12, world.point(2).x());
    assertEquals(3, world.updated.size(), "every write announced");
  }

  @Test
  void aWarmCommitOfARunAllocatesNothing() {
    final World world = new World();
    final int[] rowsOf = {10, 11, 12, 13, 14, 15, 16, 17};
    final Runnable round =
        () -> {
          world.changes.write(world.entities, 0, 8, POINT, world.rows, rowsOf);
          world.changes.commit();
          world.updated.clear();
        };
    final int[] counted = new int[1];
    world.points.onUpdate().disconnect(world.recorder);
    world.points.onUpdate().connect((r, e) -> counted[0]++);
    round.run();
    round.run();
    assertEquals(0, ZeroAllocationTest.allocatedBy(round), "a warm commit allocated");
    assertEquals(17, world.point(7).x());
    assertTrue(counted[0] > 16, "the writes were announced");
  }

  @Test
  void singleWritesJoinOneRunAndAMoveBetweenThemIsNoticed() {
    final World world = new World();
    world.changes.write(world.entities[7], POINT, world.rows, 27);
    // Swap-and-pop moves entity 7's element into entity 0's position, between two writes of the
    // same run: the position noted for the first write no longer holds.
    world.points.remove(world.entities[0]);
    world.changes.write(world.entities[3], POINT, world.rows, 23);
    world.changes.write(world.entities, 5, 7, POINT, world.rows, new int[] {0, 0, 0, 0, 0, 25, 26});
    assertEquals(4, world.changes.size());
    world.changes.commit();

    assertEquals(27, world.point(7).x());
    assertEquals(23, world.point(3).x());
    assertEquals(25, world.point(5).x());
    assertEquals(26, world.point(6).x());
    assertEquals(-1, world.point(1).x());
    assertEquals(
        List.of(world.entities[7], world.entities[3], world.entities[5], world.entities[6]),
        world.updated);
    assertEquals(List.of(), world.registry.verify());
  }

  @Test
  void aWriteByAnotherWriterOrOfAnotherTypeStartsANewRunInStagingOrder() {
    final World world = new World();
    final PointRows other = new PointRows();
    world.changes.write(world.entities[1], POINT, world.rows, 11);
    world.changes.write(world.entities[2], POINT, other, 12);
    world.changes.write(world.entities[3], POINT, world.rows, 13);
    world.changes.commit();

    assertEquals(11, world.point(1).x());
    assertEquals(12, world.point(2).x());
    assertEquals(13, world.point(3).x());
    assertEquals(List.of(world.entities[1], world.entities[2], world.entities[3]), world.updated);
  }

  @Test
  void aRunRefusedThenJoinedAfterTheCauseIsFixedCommitsWhole() {
    final World world = new World();
    world.points.remove(world.entities[2]);
    world.stageRun(1, 4);
    assertThrows(IllegalArgumentException.class, world.changes::commit);
    world.points.emplace(world.entities[2], new Point(0, 0, Entity.NULL));
    world.changes.write(world.entities[6], POINT, world.rows, 16);
    assertEquals(4, world.changes.size(), "the refused run kept its writes and took one more");
    world.changes.commit();

    assertEquals(11, world.point(1).x());
    assertEquals(12, world.point(2).x());
    assertEquals(13, world.point(3).x());
    assertEquals(16, world.point(6).x());
    assertEquals(List.of(), world.registry.verify());
  }
}
