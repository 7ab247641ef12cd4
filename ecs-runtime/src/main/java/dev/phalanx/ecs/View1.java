package dev.phalanx.ecs;

/**
 * A view over one component type that hands out, besides each entity, a cursor per type positioned
 * on the entity's element: a typed loop without declaring a {@code @ViewQuery} interface. Get one
 * from {@link Registry#typedView} with the generated {@code Foo_Traits.TYPE} keys, whose storages
 * hand out cursors; it is also a plain {@link View} (entity ids, iterator, signals).
 *
 * <pre>{@code
 * View1<Foo1_Cursor> view = registry.typedView(Foo1_Traits.TYPE);
 * view.each((e, a) -> ...);
 * }</pre>
 *
 * <h2>Invariants and costs</h2>
 *
 * <ul>
 *   <li>The cursors are made with the view and cached in it: {@link #each} allocates nothing and
 *       moves them with a few field writes each per entity (page by page where the sets are in the
 *       same order); the visitor is the only call per entity. The visitor must not keep the
 *       cursors: they are moved to the next entity.
 *   <li>{@code each} costs O(n * k), n the size of the leading set (the smallest included one, or
 *       the one fixed by {@link #leadBy}), k the number of other included and excluded sets.
 *   <li>Not reentrant on one view object: a nested {@code each} of the same object throws {@link
 *       IllegalStateException} rather than move the outer loop's cursors; make a second view for a
 *       nested loop. {@link #exclude} and {@link #leadBy} return views with cursors of their own.
 *   <li>What may change during an iteration is what {@link View} allows, checked the same way.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe: the cursors are shared by every call; use one view object per thread.
 *
 * @param <K1> the cursor class of the first type
 */
public final class View1<K1 extends Cursor> extends TypedView {

  private final CursorSource<K1> source1;
  private final K1 cursor1;

  View1(final View shape, final CursorSource<K1> source1) {
    this(shape, source1, source1.cursor());
  }

  private View1(final View shape, final CursorSource<K1> source1, final K1 cursor1) {
    super(shape);
    this.source1 = source1;
    this.cursor1 = cursor1;
  }

  /**
   * Calls {@code visitor} for each entity of the view, last position of the leading set first, with
   * the view's cursors positioned on the entity's elements; allocates nothing.
   *
   * @param visitor the loop body
   * @throws IllegalStateException if this view object is already iterating (a nested call)
   * @throws java.util.ConcurrentModificationException if the visitor tries a change that would move
   *     an element of the leading set across the visited position (see {@link View})
   */
  public void each(final Visitor<? super K1> visitor) {
    final K1 cursor1 = this.cursor1;
    final SparseSet lead = begin();
    try {
      final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
      // The leader is the only included set and has the cursor: its cursor walks it one page at a
      // time (the JIT then reads the page arrays once per run), and stays on the element at the
      // loop's position whatever the visitor changes.
      final int shift = cursor1.pageShift;
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> shift;
        final int pageStart = page << shift;
        cursor1.moveToPage(page);
        for (int offset = from - pageStart; offset >= 0; offset--) {
          final int position = pageStart + offset;
          // Re-read the array: the visitor may have grown it (appended elements are not visited).
          final long entity = lead.packed()[position];
          if ((stable && Entity.isTombstone(entity)) || excluded(entity)) {
            continue;
          }
          cursor1.moveWithinPage(offset);
          lead.visit(position);
          visitor.visit(entity, cursor1);
        }
        from = pageStart - 1;
      }
    } finally {
      end(lead);
    }
  }

  /**
   * {@return a typed view like this one that also excludes {@code sets}, with cursors of its own}
   *
   * @param sets the sets whose entities are skipped too
   */
  @Override
  public View1<K1> exclude(final SparseSet... sets) {
    return new View1<>(super.exclude(sets), source1);
  }

  /**
   * {@return a typed view like this one that always iterates {@code set}, with cursors of its own}
   *
   * @param set the set to iterate, one of the included sets
   * @throws IllegalArgumentException if {@code set} is not included
   */
  @Override
  public View1<K1> leadBy(final SparseSet set) {
    return new View1<>(super.leadBy(set), source1);
  }

  /**
   * The body of {@link View1#each(Visitor)}: one call per entity.
   *
   * @param <K1> the cursor class of the first type
   */
  @FunctionalInterface
  public interface Visitor<K1> {
    /**
     * Visits one entity; the cursors are moved to the next entity afterwards, so do not keep them.
     *
     * @param entity the entity
     * @param first a cursor over its element of the first type
     */
    void visit(long entity, K1 first);
  }
}
