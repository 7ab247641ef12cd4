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
    return !excluded(entity, exclude);
  }

  /**
   * As {@link #matchesOthers}, for the entity at {@code position} of {@code lead}: an included set
   * that holds the entity at the same position (sets filled in the same order) is answered by one
   * read of its packed array, sequential along the loop, instead of a sparse lookup.
   */
  static boolean matchesOthersAt(
      final long entity,
      final int position,
      final SparseSet lead,
      final SparseSet[] include,
      final SparseSet[] exclude) {
    for (int i = 0; i < include.length; i++) {
      final SparseSet set = include[i];
      if (set != lead && !set.holdsAt(position, entity) && !set.contains(entity)) {
        return false;
      }
    }
    return !excluded(entity, exclude);
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
    return !excluded(entity, exclude);
  }

  /**
   * The length of the runs {@link RuntimeView#each(RuntimeView.PositionVisitor)} walks (a power of
   * two): within a run where every included set holds the lead's entities at the lead's positions,
   * no membership test is needed.
   */
  static final int RUN = 4096;

  /**
   * Returns whether every set of {@code include} holds, at positions {@code [from, to)}, what
   * {@code lead} holds there (one vectorized comparison of packed arrays per set): the entities of
   * that run of the lead are then in every included set, at the same positions, for as long as no
   * set's {@link SparseSet#structureStamp()} changes.
   */
  static boolean aligned(
      final SparseSet lead, final SparseSet[] include, final int from, final int to) {
    for (int i = 0; i < include.length; i++) {
      if (include[i] != lead && !lead.samePositions(include[i], from, to)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@return the sum of the structure stamps of {@code include}} A stamp only counts up (by one per
   * move, removal or filled hole), so the sum changes whenever one of them does.
   */
  static long stamps(final SparseSet[] include) {
    long sum = 0;
    for (int i = 0; i < include.length; i++) {
      sum += include[i].structureStamp();
    }
    return sum;
  }

  /** Returns whether {@code entity} is in one of {@code exclude}. */
  static boolean excluded(final long entity, final SparseSet[] exclude) {
    for (int i = 0; i < exclude.length; i++) {
      if (exclude[i].contains(entity)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Visits the matching entities of {@code lead}, last position first, under the lead's iteration
   * guard: changes that would make an entity be visited twice or never are refused before they are
   * made (see {@link SparseSet}). Each included set is first asked whether it holds the entity at
   * the lead's position ({@link #matchesOthersAt}), a sequential read where the sets were filled in
   * the same order; a sparse lookup only when it does not. (Walking aligned runs untested, as
   * {@link RuntimeView#each(RuntimeView.PositionVisitor)} does, measured slower here: the body of
   * this form looks its components up anyway, and the JIT shares the lookups of an inlined body
   * with the loop's tests.)
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
        if (!matchesOthersAt(entity, position, lead, include, exclude)) {
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
