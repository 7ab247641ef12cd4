package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.hierarchy.Hierarchy;

/**
 * How a continuous or delta load commits what it staged: one {@link ChangeSet} commit, with the
 * hierarchy in a relink batch when the stream carries node links (they are written raw; the lists
 * and counts they imply are rebuilt at its end). A commit refused by a check changed nothing: the
 * loader's own staging is undone and the refusal rethrown. A commit whose listeners threw was made
 * whole: the first exception is returned for the loader to rethrow once its own state is settled.
 */
final class StagedCommit {

  private StagedCommit() {}

  /**
   * Commits {@code changes}; see the class comment.
   *
   * @param changes what the load staged
   * @param hierarchy the replica's hierarchy when the stream carries node links, else null
   * @param undo puts the loader's own state back as it was before staging
   * @return the first exception a listener threw, or null
   */
  static Throwable commit(final ChangeSet changes, final Hierarchy hierarchy, final Runnable undo) {
    if (null != hierarchy) {
      hierarchy.beginRelink();
    }
    try {
      changes.commit();
      return null;
    } catch (final RuntimeException | Error thrown) {
      if (!changes.isEmpty()) {
        // Refused by a check: nothing changed.
        undo.run();
        throw thrown;
      }
      return thrown;
    } finally {
      if (null != hierarchy) {
        hierarchy.endRelink();
      }
    }
  }
}
