package dev.phalanx.ecs;

/**
 * A view over four component types that hands out, besides each entity, a cursor per type
 * positioned on the entity's element: a typed loop without declaring a {@code @ViewQuery}
 * interface. Get one from {@link Registry#typedView} with the generated {@code Foo_Traits.TYPE}
 * keys, whose storages hand out cursors; it is also a plain {@link View} (entity ids, iterator,
 * signals).
 *
 * <pre>{@code
 * View4<Foo1_Cursor, Foo2_Cursor, Foo3_Cursor, Foo4_Cursor> view = registry.typedView(Foo1_Traits.TYPE, Foo2_Traits.TYPE, Foo3_Traits.TYPE, Foo4_Traits.TYPE);
 * view.each((e, a, b, c, d) -> ...);
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
 * @param <K2> the cursor class of the second type
 * @param <K3> the cursor class of the third type
 * @param <K4> the cursor class of the fourth type
 */
public final class View4<K1 extends Cursor, K2 extends Cursor, K3 extends Cursor, K4 extends Cursor>
    extends TypedView {

  private final CursorSource<K1> source1;
  private final K1 cursor1;
  private final CursorSource<K2> source2;
  private final K2 cursor2;
  private final CursorSource<K3> source3;
  private final K3 cursor3;
  private final CursorSource<K4> source4;
  private final K4 cursor4;

  View4(
      final View shape,
      final CursorSource<K1> source1,
      final CursorSource<K2> source2,
      final CursorSource<K3> source3,
      final CursorSource<K4> source4) {
    this(
        shape,
        source1,
        source2,
        source3,
        source4,
        source1.cursor(),
        source2.cursor(),
        source3.cursor(),
        source4.cursor());
  }

  private View4(
      final View shape,
      final CursorSource<K1> source1,
      final CursorSource<K2> source2,
      final CursorSource<K3> source3,
      final CursorSource<K4> source4,
      final K1 cursor1,
      final K2 cursor2,
      final K3 cursor3,
      final K4 cursor4) {
    super(shape);
    this.source1 = source1;
    this.cursor1 = cursor1;
    this.source2 = source2;
    this.cursor2 = cursor2;
    this.source3 = source3;
    this.cursor3 = cursor3;
    this.source4 = source4;
    this.cursor4 = cursor4;
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
  public void each(final Visitor<? super K1, ? super K2, ? super K3, ? super K4> visitor) {
    final K1 cursor1 = this.cursor1;
    final K2 cursor2 = this.cursor2;
    final K3 cursor3 = this.cursor3;
    final K4 cursor4 = this.cursor4;
    final SparseSet set1 = include[0];
    final SparseSet set2 = include[1];
    final SparseSet set3 = include[2];
    final SparseSet set4 = include[3];
    final SparseSet lead = begin();
    try {
      final boolean stable = DeletionPolicy.IN_PLACE == lead.policy();
      // Runs of one page of the leading set. When every included set holds the run's entities at
      // the leader's positions (sets filled in the same order) and has the leader's page size, the
      // cursors walk the run with no lookup, one page each: the JIT then reads the page arrays once
      // per run. Otherwise, and once a visitor has moved, removed or added an element of one of
      // them, each set is tested per entity. The leader is one of the sets: its stamp is checked
      // with theirs.
      // The leader is one of the included sets, all cursor storages.
      final int shift = ((Storage<?>) lead).pageShift();
      final boolean paged1 = cursor1.pageShift == shift;
      final boolean paged2 = cursor2.pageShift == shift;
      final boolean paged3 = cursor3.pageShift == shift;
      final boolean paged4 = cursor4.pageShift == shift;
      final boolean pagedAll = paged1 && paged2 && paged3 && paged4;
      for (int from = lead.size() - 1; from >= 0; ) {
        final int page = from >>> shift;
        final int pageStart = page << shift;
        int offset = from - pageStart;
        if (pagedAll
            && lead.samePositions(set1, pageStart, from + 1)
            && lead.samePositions(set2, pageStart, from + 1)
            && lead.samePositions(set3, pageStart, from + 1)
            && lead.samePositions(set4, pageStart, from + 1)) {
          final long stamp1 = set1.structureStamp();
          final long stamp2 = set2.structureStamp();
          final long stamp3 = set3.structureStamp();
          final long stamp4 = set4.structureStamp();
          cursor1.moveToPage(page);
          cursor2.moveToPage(page);
          cursor3.moveToPage(page);
          cursor4.moveToPage(page);
          for (; offset >= 0; offset--) {
            final int position = pageStart + offset;
            // Re-read the array: the visitor may have grown it (appended elements are not visited).
            final long entity = lead.packed()[position];
            if ((stable && Entity.isTombstone(entity)) || excluded(entity)) {
              continue;
            }
            cursor1.moveWithinPage(offset);
            cursor2.moveWithinPage(offset);
            cursor3.moveWithinPage(offset);
            cursor4.moveWithinPage(offset);
            lead.visit(position);
            visitor.visit(entity, cursor1, cursor2, cursor3, cursor4);
            if (set1.structureStamp() != stamp1
                || set2.structureStamp() != stamp2
                || set3.structureStamp() != stamp3
                || set4.structureStamp() != stamp4) {
              // The run may no longer be aligned: test each set for the rest of it.
              offset--;
              break;
            }
          }
        }
        for (; offset >= 0; offset--) {
          final int position = pageStart + offset;
          final long entity = lead.packed()[position];
          if (stable && Entity.isTombstone(entity)) {
            continue;
          }
          final int at1 =
              set1 == lead || set1.holdsAt(position, entity) ? position : set1.indexOf(entity);
          if (at1 < 0) {
            continue;
          }
          final int at2 =
              set2 == lead || set2.holdsAt(position, entity) ? position : set2.indexOf(entity);
          if (at2 < 0) {
            continue;
          }
          final int at3 =
              set3 == lead || set3.holdsAt(position, entity) ? position : set3.indexOf(entity);
          if (at3 < 0) {
            continue;
          }
          final int at4 =
              set4 == lead || set4.holdsAt(position, entity) ? position : set4.indexOf(entity);
          if (at4 < 0) {
            continue;
          }
          if (excluded(entity)) {
            continue;
          }
          if (at1 == position && paged1) {
            cursor1.moveToElement(page, offset);
          } else {
            cursor1.point(at1);
          }
          if (at2 == position && paged2) {
            cursor2.moveToElement(page, offset);
          } else {
            cursor2.point(at2);
          }
          if (at3 == position && paged3) {
            cursor3.moveToElement(page, offset);
          } else {
            cursor3.point(at3);
          }
          if (at4 == position && paged4) {
            cursor4.moveToElement(page, offset);
          } else {
            cursor4.point(at4);
          }
          lead.visit(position);
          visitor.visit(entity, cursor1, cursor2, cursor3, cursor4);
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
  public View4<K1, K2, K3, K4> exclude(final SparseSet... sets) {
    return new View4<>(super.exclude(sets), source1, source2, source3, source4);
  }

  /**
   * {@return a typed view like this one that always iterates {@code set}, with cursors of its own}
   *
   * @param set the set to iterate, one of the included sets
   * @throws IllegalArgumentException if {@code set} is not included
   */
  @Override
  public View4<K1, K2, K3, K4> leadBy(final SparseSet set) {
    return new View4<>(super.leadBy(set), source1, source2, source3, source4);
  }

  /**
   * The body of {@link View4#each(Visitor)}: one call per entity.
   *
   * @param <K1> the cursor class of the first type
   * @param <K2> the cursor class of the second type
   * @param <K3> the cursor class of the third type
   * @param <K4> the cursor class of the fourth type
   */
  @FunctionalInterface
  public interface Visitor<K1, K2, K3, K4> {
    /**
     * Visits one entity; the cursors are moved to the next entity afterwards, so do not keep them.
     *
     * @param entity the entity
     * @param first a cursor over its element of the first type
     * @param second a cursor over its element of the second type
     * @param third a cursor over its element of the third type
     * @param fourth a cursor over its element of the fourth type
     */
    void visit(long entity, K1 first, K2 second, K3 third, K4 fourth);
  }
}
