package dev.phalanx.ecs;

import java.util.function.LongConsumer;

/** The iteration shared by {@link View} and {@link RuntimeView}. */
final class ViewLoop {

  private ViewLoop() {}

  /** Returns the smallest of {@code sets}, the default leader. */
  static SparseSet smallest(final SparseSet[] sets) {
    SparseSet best = sets[0];
    for (int i = 1; i < sets.length; i++) {
      if (sets[i].size() < best.size()) {
        best = sets[i];
      }
    }
    return best;
  }

  /**
   * Returns whether {@code entity}, taken from {@code lead}, is in every other set of {@code
   * include} and none of {@code exclude}.
   */
  static boolean matchesOthers(
      final long entity,
      final SparseSet lead,
      final SparseSet[] include,
      final SparseSet[] exclude) {
    for (int i = 0; i < include.length; i++) {
      if (include[i] != lead && !include[i].contains(entity)) {
        return false;
      }
    }
    for (int i = 0; i < exclude.length; i++) {
      if (exclude[i].contains(entity)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns whether {@code entity} is in every set of {@code include} and none of {@code exclude}.
   */
  static boolean matches(final long entity, final SparseSet[] include, final SparseSet[] exclude) {
    for (int i = 0; i < include.length; i++) {
      if (!include[i].contains(entity)) {
        return false;
      }
    }
    for (int i = 0; i < exclude.length; i++) {
      if (exclude[i].contains(entity)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Visits the matching entities of {@code lead}, last position first, under the lead's iteration
   * guard: changes that would make an entity be visited twice or never are refused before they are
   * made (see {@link SparseSet}).
   */
  static void each(
      final SparseSet lead,
      final SparseSet[] include,
      final SparseSet[] exclude,
      final LongConsumer action) {
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    lead.beginIteration();
    try {
      // A counted loop: the guard keeps the set at least as large as the visited position.
      for (int position = lead.size() - 1; position >= 0; position--) {
        // Re-read the array: the action may have grown it (appended elements are not visited).
        final long entity = lead.packed()[position];
        if (stable && Entity.isTombstone(entity)) {
          continue;
        }
        if (!matchesOthers(entity, lead, include, exclude)) {
          continue;
        }
        lead.visit(position);
        action.accept(entity);
      }
    } finally {
      lead.endIteration();
    }
  }
}
