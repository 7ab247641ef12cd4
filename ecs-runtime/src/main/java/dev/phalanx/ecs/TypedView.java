package dev.phalanx.ecs;

/**
 * What the typed views ({@link View1} to {@link View4}) share: the reentrancy flag, the start and
 * end of an iteration and the exclusion test. Each subclass writes its loop out for its arity, as
 * generated queries do: every included set and cursor in a local, a walk of the leading set page by
 * page in which a set holding the entity at the same position needs no lookup, and one megamorphic
 * call per entity (the visitor).
 */
abstract sealed class TypedView extends View permits View1, View2, View3, View4 {

  private boolean iterating;

  TypedView(final View shape) {
    super(shape.include, shape.exclude, shape.leader);
  }

  /**
   * Starts an iteration: refuses a nested one on this object, picks the leading set and starts its
   * guard.
   *
   * @return the leading set
   */
  final SparseSet begin() {
    if (iterating) {
      throw new IllegalStateException(
          getClass().getSimpleName()
              + " over "
              + describeSets()
              + " is already iterating: its cursors are shared by every each() of this view"
              + " object, so a nested each() would move the outer loop's cursors; make a second"
              + " view (registry.view(...) again) for a nested loop");
    }
    final SparseSet lead = leader();
    lead.beginIteration();
    iterating = true;
    return lead;
  }

  /** Ends the iteration begun by {@link #begin()}, also when the visitor threw. */
  final void end(final SparseSet lead) {
    iterating = false;
    lead.endIteration();
  }

  /**
   * Returns whether {@code entity} is in an excluded set. The typed views' loops are written out
   * per arity (each included set and cursor in a local, as generated queries do): a loop over
   * arrays of sets and cursors per entity ran at about twice their time.
   */
  final boolean excluded(final long entity) {
    final SparseSet[] exclude = this.exclude;
    for (int i = 0; i < exclude.length; i++) {
      if (exclude[i].contains(entity)) {
        return true;
      }
    }
    return false;
  }

  private String describeSets() {
    final StringBuilder text = new StringBuilder();
    for (final SparseSet set : include) {
      text.append(text.length() == 0 ? "" : ", ").append(set.describe());
    }
    return text.toString();
  }
}
