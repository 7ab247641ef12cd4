package dev.phalanx.ecs;

/**
 * What the typed views ({@link View1} to {@link View4}) share: one cursor per included storage,
 * cached in the view object, the reentrancy flag, and the step of their loops ({@link #seek}),
 * which finds the next matching position, points every cursor at the entity's elements with a field
 * write each and tells the iteration guard the visit. Each subclass's {@code each} only adds the
 * call of its visitor, so the loop keeps one megamorphic call per entity (the visitor), as the
 * generated queries do.
 */
abstract sealed class TypedView extends View permits View1, View2, View3, View4 {

  // cursors[i] points into include[i].
  private final Cursor[] cursors;
  private boolean iterating;

  TypedView(final View shape, final Cursor[] cursors) {
    super(shape.include, shape.exclude, shape.leader);
    this.cursors = cursors;
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
   * Returns the highest matching position at or below {@code position} in {@code lead}, with every
   * cursor pointed at that entity's elements and the visit told to the guard, or {@code -1}.
   */
  final int seek(final SparseSet lead, final int from) {
    final SparseSet[] include = this.include;
    final SparseSet[] exclude = this.exclude;
    final Cursor[] cursors = this.cursors;
    final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
    candidates:
    for (int position = from; position >= 0; position--) {
      // Re-read the array: the visitor may have grown it (appended elements are not visited).
      final long entity = lead.packed()[position];
      if (stable && Entity.isTombstone(entity)) {
        continue;
      }
      for (int i = 0; i < include.length; i++) {
        final SparseSet set = include[i];
        final int at = set == lead ? position : set.indexOf(entity);
        if (at < 0) {
          continue candidates;
        }
        cursors[i].position = at;
      }
      for (int i = 0; i < exclude.length; i++) {
        if (exclude[i].contains(entity)) {
          continue candidates;
        }
      }
      lead.visit(position);
      return position;
    }
    return -1;
  }

  private String describeSets() {
    final StringBuilder text = new StringBuilder();
    for (final SparseSet set : include) {
      text.append(text.length() == 0 ? "" : ", ").append(set.describe());
    }
    return text.toString();
  }
}
