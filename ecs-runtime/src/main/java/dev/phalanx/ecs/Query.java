package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * The base class of every query the processor generates ({@code @ViewQuery} and {@code @GroupQuery}
 * declarations become {@code FooQuery extends Query}). It holds no state and adds nothing to a
 * query's public API (its {@link Alignment}s are fields of the generated subclass); it exists so
 * that the members generated loops need, which would break an invariant if user code called them
 * out of order, are not part of the public API of {@link SparseSet} and {@link Cursor}.
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
 *       stops being true. An {@link Alignment}, kept by a query across its passes, remembers how
 *       far two sets agree, so that a pass over sets that only grew compares only what was
 *       appended.
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
   * is filled, and stays the same when an element is appended. It only counts up and never comes
   * back to a value it had.
   *
   * @param set a set
   * @return its current stamp
   */
  protected static long structureStamp(final SparseSet set) {
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

  /**
   * How far a lead set and another set hold the same entities at the same positions, remembered
   * across passes: a generated loop over {@code lead} calls {@link #refresh} once before a pass and
   * {@link #holds} for each run, instead of {@link #samePositions} for each run, which reads both
   * packed arrays (16 bytes per element) on every pass.
   *
   * <p>What it keeps: the stamps ({@link #structureStamp}) the two sets had when it compared them,
   * and the length {@code agreed} of the prefix {@code [0, agreed)} found to agree, with whether
   * the comparison stopped at a position held by both sets that disagrees. While neither stamp
   * changes, every position below the sizes the sets had still holds what it held (the stamps
   * change on every move, removal and filled hole; appends leave them), so the prefix still agrees
   * and a mismatch still disagrees: {@link #refresh} then compares only the positions appended
   * since (none once a mismatch was found). After a change of either stamp, or of lead, it compares
   * from position 0, which costs what one {@link #samePositions} per run costs. {@link #holds}
   * trusts the prefix only while both stamps are still those it was computed at, so a visitor's
   * change during the pass sends the later runs back to {@link #samePositions}; runs past the
   * prefix always go there.
   *
   * <p>Costs: {@link #refresh} O(1) when nothing changed, O(appended) after appends, O(n) after a
   * structural change; {@link #holds} O(1) inside the prefix (five field loads), else one {@link
   * #samePositions}. No allocation. Not thread-safe: it belongs to one query object, used by one
   * thread at a time, whose per-entity loop refreshes and reads it inside the query's reentrancy
   * guard. Non-owning group queries have no chunk or parallel form; one that forked would refresh
   * it before forking, and {@link #holds} changes nothing, so tasks could share it.
   */
  protected static final class Alignment {

    private final SparseSet other;
    private SparseSet lead;
    private long leadStamp;
    private long otherStamp;
    // Positions [0, agreed) of lead and other hold the same entities.
    private int agreed;
    // Whether position 'agreed', held by both sets, disagrees: appends cannot extend the prefix.
    private boolean stopped;

    /**
     * Creates an alignment with {@code other}; the first {@link #refresh} compares from position 0.
     *
     * @param other the set a loop reaches by position (a storage with a cursor)
     */
    public Alignment(final SparseSet other) {
      this.other = other;
    }

    /**
     * Brings the agreed prefix up to date with {@code lead} and the other set as they are now: O(1)
     * if neither changed, O(appended) if they only grew, else O(min(sizes)).
     *
     * @param lead the set the loop walks
     */
    public void refresh(final SparseSet lead) {
      final long leadNow = lead.structureStamp();
      final long otherNow = other.structureStamp();
      if (lead != this.lead || leadNow != leadStamp || otherNow != otherStamp) {
        this.lead = lead;
        leadStamp = leadNow;
        otherStamp = otherNow;
        agreed = 0;
        stopped = false;
      } else if (stopped) {
        return;
      }
      final int end = Math.min(lead.size(), other.size());
      if (lead == other || agreed >= end) {
        agreed = end;
        return;
      }
      final int mismatch = Arrays.mismatch(lead.packed(), agreed, end, other.packed(), agreed, end);
      if (mismatch < 0) {
        agreed = end;
      } else {
        agreed += mismatch;
        stopped = true;
      }
    }

    /**
     * Returns whether the lead given to the last {@link #refresh} and the other set hold the same
     * entities at positions {@code [from, to)}: O(1) when {@code to} is within the agreed prefix
     * and neither set changed since, else {@link #samePositions}.
     *
     * @param from the first position, inclusive
     * @param to the last position, exclusive
     * @return whether both sets hold the range and agree on it
     */
    public boolean holds(final int from, final int to) {
      final SparseSet lead = this.lead;
      return (to <= agreed
              && 0 <= from
              && from <= to
              && lead.structureStamp() == leadStamp
              && other.structureStamp() == otherStamp)
          || lead.samePositions(other, from, to);
    }

    /** {@return the length of the prefix found to agree at the last {@link #refresh}} For tests. */
    public int agreed() {
      return agreed;
    }
  }
}
