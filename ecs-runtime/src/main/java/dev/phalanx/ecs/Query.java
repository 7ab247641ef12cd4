package dev.phalanx.ecs;

/**
 * The base class of every query the processor generates ({@code @ViewQuery} and {@code @GroupQuery}
 * declarations become {@code FooQuery extends Query}). It holds no state and adds nothing to a
 * query's public API; it exists so that the members generated loops need, which would break an
 * invariant if user code called them out of order, are not part of the public API of {@link
 * SparseSet} and {@link Cursor}.
 *
 * <h2>For generated code</h2>
 *
 * <p>The protected static helpers below are the loop protocol a generated {@code each} follows, and
 * what the runtime's own views do inside this package. No compatibility promise: they change with
 * the processor. Each is a one-line static call, so the JIT inlines it like the member it forwards
 * to; a cursor helper called with a generated (final) cursor class binds to that class.
 *
 * <ul>
 *   <li>The iteration guard: {@link #beginIteration} once, {@link #visit} before handing each
 *       element to user code, {@link #endIteration} in a {@code finally} block. Calls must nest. A
 *       {@code begin} without its {@code end} leaves the registry's guard raised: every later
 *       structural change is refused.
 *   <li>Aligned runs: {@link #samePositions} and {@link #holdsAt} tell a loop over one set that it
 *       may reach another set's elements by position; {@link #structureStamp} tells it when that
 *       stops being true.
 *   <li>Cursors: {@link #moveToPage}, {@link #moveWithinPage} and {@link #moveToElement} set a
 *       cursor's position unchecked.
 * </ul>
 */
public abstract class Query {

  /** For generated subclasses. */
  protected Query() {}

  /**
   * Starts a callback iteration over {@code set}: until {@link #endIteration}, changes that would
   * move an element across the iteration's floor are refused.
   *
   * @param set the set the loop walks
   */
  protected static void beginIteration(final SparseSet set) {
    set.beginIteration();
  }

  /**
   * Records that the innermost iteration over {@code set} now visits {@code position}.
   *
   * @param set the set the loop walks
   * @param position the position being visited
   */
  protected static void visit(final SparseSet set, final int position) {
    set.visit(position);
  }

  /**
   * Ends the innermost callback iteration over {@code set}.
   *
   * @param set the set the loop walked
   * @throws IllegalStateException if no iteration of {@code set} is under way
   */
  protected static void endIteration(final SparseSet set) {
    set.endIteration();
  }

  /**
   * Returns whether {@code entity} sits at {@code position} of {@code set}: O(1), no sparse lookup.
   *
   * @param set a set
   * @param position any position
   * @param entity an entity
   * @return whether {@code position} is in {@code [0, set.size())} and holds {@code entity}
   */
  protected static boolean holdsAt(final SparseSet set, final int position, final long entity) {
    return set.holdsAt(position, entity);
  }

  /**
   * Returns whether {@code set} and {@code other} hold the same entities at positions {@code [from,
   * to)}, both holding that range: one vectorized comparison of their packed arrays.
   *
   * @param set a set
   * @param other another set
   * @param from the first position, inclusive
   * @param to the last position, exclusive
   * @return whether both sets hold the range and agree on it
   */
  protected static boolean samePositions(
      final SparseSet set, final SparseSet other, final int from, final int to) {
    return set.samePositions(other, from, to);
  }

  /**
   * Returns a number that changes whenever an element of {@code set} moves or is removed or a hole
   * is filled, and stays the same when an element is appended.
   *
   * @param set a set
   * @return its current stamp
   */
  protected static int structureStamp(final SparseSet set) {
    return set.structureStamp();
  }

  /**
   * Points {@code cursor} at the first element of page {@code page}; then {@link #moveWithinPage}
   * per element.
   *
   * @param cursor a cursor
   * @param page a page of its storage
   */
  protected static void moveToPage(final Cursor cursor, final int page) {
    cursor.moveToPage(page);
  }

  /**
   * Points {@code cursor} at {@code offset} of its current page.
   *
   * @param cursor a cursor
   * @param offset an offset in {@code [0, pageSize)}
   */
  protected static void moveWithinPage(final Cursor cursor, final int offset) {
    cursor.moveWithinPage(offset);
  }

  /**
   * Points {@code cursor} at {@code offset} of page {@code page}.
   *
   * @param cursor a cursor
   * @param page a page of its storage
   * @param offset an offset in {@code [0, pageSize)}
   */
  protected static void moveToElement(final Cursor cursor, final int page, final int offset) {
    cursor.moveToElement(page, offset);
  }
}
