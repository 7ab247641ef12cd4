package dev.phalanx.ecs;

import static dev.phalanx.ecs.ChangeSetZeroAllocationTest.POINT;
import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.phalanx.ecs.ChangeSetZeroAllocationTest.Point;
import dev.phalanx.ecs.ChangeSetZeroAllocationTest.PointRows;
import dev.phalanx.ecs.GroupTypes.A;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/**
 * A set kept for reuse lets go of what the caller staged once a commit is past its check, or a
 * clear: the row writers and the reference mappings of its changes are no longer reachable through
 * it, so a long-lived set pins no caller's objects between commits.
 */
class ChangeSetReleaseTest {

  @Test
  void aCommittedSetHoldsNoWriterNorMapping() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    final WeakReference<?>[] staged = stageAndCommit(registry, changes);
    assertEquals(3, registry.alive());
    assertCollected(staged[0]);
    assertCollected(staged[1]);
  }

  @Test
  void aClearedSetHoldsNoWriter() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    final WeakReference<?> writer = stageWrite(registry, changes);
    changes.clear();
    assertCollected(writer);
  }

  /** Stages a row write and a mapped copy, each through an object only the set holds; commits. */
  private static WeakReference<?>[] stageAndCommit(
      final Registry registry, final ChangeSet changes) {
    final WeakReference<?> writer = stageWrite(registry, changes);
    final long source = registry.create();
    registry.emplace(source, TA, new A(1));
    final long target = registry.create();
    final ChangeSet.References mapping =
        new ChangeSet.References() {
          @Override
          public long map(final int copy, final long reference) {
            return reference;
          }
        };
    changes.copy(target, registry.storage(TA), source, mapping);
    changes.commit();
    return new WeakReference<?>[] {writer, new WeakReference<>(mapping)};
  }

  private static WeakReference<?> stageWrite(final Registry registry, final ChangeSet changes) {
    final long e = registry.create();
    registry.emplace(e, POINT, new Point(-1, -1, Entity.NULL));
    final PointRows rows = new PointRows();
    changes.write(e, POINT, rows, 1);
    return new WeakReference<>(rows);
  }

  private static void assertCollected(final WeakReference<?> reference) {
    for (int attempt = 0; attempt < 20 && null != reference.get(); attempt++) {
      System.gc();
      try {
        Thread.sleep(5);
      } catch (final InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    assertNull(reference.get(), "still reachable");
  }
}
