package dev.phalanx.ecs;

/**
 * What the typed views ({@link View1} to {@link View4}) share: the reentrancy flag, the start and
 * end of an iteration and the exclusion test. Each subclass writes its loop out for its arity, as
 * generated queries do: every included set and cursor in a local, a walk of the leading set page by
 * page in which a set holding the entity at the same position needs no lookup, and one megamorphic
 * call per entity (the visitor).
 *
 * <h2>Why the aligned-run loop is written out four times</h2>
 *
 * <p>The four loops differ only in how many sets and cursors they move. One loop written once here
 * was measured: the run detection, stamps and lookups over the included sets' array, with each view
 * overriding only the arity-dependent steps (page the cursors, move them within the page and call
 * the visitor, place them after a lookup). It allocated nothing, but cost 2.5 to 3 times the
 * written-out loops: {@code Iterate2.phalanxTypedView} 6.7 and 7.5 ns per entity against 2.2 and
 * 3.0, {@code Iterate3.phalanxTypedView} 9.7 and 11.7 against 3.9 and 4.5 (1M entities, JMH quick
 * mode, jar before and after alternating twice on one machine). With the cursors and the visitor in
 * fields behind calls instead of locals, the JIT no longer keeps the run's page arrays and offsets
 * in registers across it; and in an application that uses several arities, the steps' call sites in
 * the one loop would see every view class (megamorphic). Hence the copies; a change to one loop is
 * made to all four ({@code TypedViewAlignedRunsTest} and {@code TypedViewArityTest} run every arity
 * through the same scenarios).
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
