package dev.phalanx.ecs;

/**
 * What the typed views ({@link View1} to {@link View4}) share: the reentrancy flag, the start and
 * end of an iteration and the exclusion test. Each subclass has its loop written out for its arity,
 * as generated queries do: every included set and cursor in a local, a walk of the leading set page
 * by page in which a set holding the entity at the same position needs no lookup, and one
 * megamorphic call per entity (the visitor).
 *
 * <h2>One source, one copy per arity</h2>
 *
 * <p>The loops of {@link View2} to {@link View4} are not written by hand: they are the output of
 * {@code AlignedRunLoop} in {@code ecs-processor}, the generator that also writes the loops of
 * generated view and non-owning group queries, pasted between {@code BEGIN GENERATED} and {@code
 * END GENERATED} lines. {@code AlignedRunLoopSourcesTest} fails when a block differs from what the
 * generator emits, and rewrites the blocks when run with {@code -Dphalanx.writeLoops=true}. A
 * change to the algorithm is made there, once. ({@link View1}'s loop has no other set to align and
 * stays written here.)
 *
 * <p>Why copies rather than one loop called by every arity: one loop written once here was
 * measured, with the run detection, stamps and lookups over the included sets' array and each view
 * overriding only the arity-dependent steps (page the cursors, move them within the page and call
 * the visitor, place them after a lookup). It allocated nothing, but cost 2.5 to 3 times the
 * written-out loops: {@code Iterate2.phalanxTypedView} 6.7 and 7.5 ns per entity against 2.2 and
 * 3.0, {@code Iterate3.phalanxTypedView} 9.7 and 11.7 against 3.9 and 4.5 (1M entities, JMH quick
 * mode, jar before and after alternating twice on one machine). With the cursors and the visitor in
 * fields behind calls instead of locals, the JIT no longer keeps the run's page arrays and offsets
 * in registers across it; a loop that large is compiled on its own, not inlined into each {@code
 * each}, so in an application that uses several arities its call sites' type profiles see every
 * view class and cursor class (megamorphic), the slow mode of shared loops; and a loop over an
 * array of sets per entity is not unrolled. A copy per arity keeps every hot loop monomorphic but
 * for the visitor and the cursors' own classes, allocation-free, with page-run inner loops over
 * local bounds. {@code ViewReferenceTest} runs every arity against a plain reference over random
 * worlds.
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
