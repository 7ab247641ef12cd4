package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * A view whose sets are chosen at run time, for tools, scripting and editors: add sets with {@link
 * #iterate} and {@link #exclude}, then iterate. Named void storages work as any other set. The
 * iteration rules and costs are those of {@link View}; it is led by its smallest included set.
 */
public final class RuntimeView {

  private SparseSet[] include = new SparseSet[0];
  private SparseSet[] exclude = new SparseSet[0];
  // The positions each(PositionVisitor) hands out, one per included set; reused across calls.
  private int[] positions = new int[0];
  // How many each(PositionVisitor) calls of this view are running (nested ones get their own
  // array).
  private int eaching;

  /**
   * The body of {@link #each(PositionVisitor)}: an entity with its position in each included set.
   */
  @FunctionalInterface
  public interface PositionVisitor {
    /**
     * Visits one entity of the view.
     *
     * @param entity the entity
     * @param positions its position in each included set, in the order the sets were included;
     *     owned by the view, valid during this call only
     */
    void visit(long entity, int[] positions);
  }

  /** Creates an empty runtime view; it visits nothing until a set is included. */
  public RuntimeView() {}

  /**
   * Includes {@code set}; returns this view.
   *
   * @param set a set every visited entity must be in
   * @return this view
   */
  public RuntimeView iterate(final SparseSet set) {
    include = append(include, set);
    return this;
  }

  /**
   * Excludes {@code set}; returns this view.
   *
   * @param set a set no visited entity may be in
   * @return this view
   */
  public RuntimeView exclude(final SparseSet set) {
    exclude = append(exclude, set);
    return this;
  }

  /** {@return an upper bound of the number of entities (0 with nothing included)} */
  public int sizeHint() {
    return 0 == include.length ? 0 : ViewLoop.smallest(include).size();
  }

  /**
   * {@return whether {@code entity} is in the view (never, with nothing included)}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public boolean contains(final long entity) {
    return 0 != include.length && ViewLoop.matches(entity, include, exclude);
  }

  /**
   * Calls {@code action} for each entity of the view; allocates nothing. A body that reads
   * components can take their positions instead of looking each storage up again: {@link
   * #each(PositionVisitor)}.
   *
   * @param action called with each entity
   */
  public void each(final LongConsumer action) {
    if (0 != include.length) {
      ViewLoop.each(ViewLoop.smallest(include), include, exclude, action);
    }
  }

  /**
   * Calls {@code visitor} for each entity of the view with the entity's position in each included
   * set, so that the body reads and writes components by position ({@code xAt(p)}, {@code setXAt(p,
   * v)} of a generated storage, {@link ObjectStorage#valueAt}...) with no lookup of its own: the
   * loop finds those positions anyway while it tests membership. Same order, same iteration rules
   * and guard as {@link #each(LongConsumer)} (led by the smallest included set, last position
   * first; changes that would make an entity be visited twice or never are refused).
   *
   * <p>{@code positions[i]} is the entity's position in the {@code i}-th set passed to {@link
   * #iterate}, in the order of those calls (a set included twice has two equal entries). The array
   * belongs to the view and is filled again before each call: read it during the call only, do not
   * keep it; writing to it changes nothing but the visitor's own reads. A position is valid until
   * the body changes that set's structure (an insertion may move elements of a set that a group
   * owns; a removal swaps the last element in).
   *
   * <p>Costs: the leader is walked in runs of 4,096 positions. Where every included set holds the
   * run's entities at the leader's positions (sets filled in the same order: one vectorized
   * comparison of packed arrays per set and run), each position is the leader's and no set is
   * looked up, until the visitor changes the structure of an included set (a removal, a move);
   * then, and in the other runs, per entity and included set, one read of its packed array at the
   * leader's position and a sparse lookup only when that read does not hold the entity. One lookup
   * per excluded set and entity. No allocation (a call nested in another {@code each} of the same
   * view allocates one array of the included sets' count).
   *
   * @param visitor called with each entity and its positions
   */
  public void each(final PositionVisitor visitor) {
    final SparseSet[] sets = include;
    if (0 == sets.length) {
      return;
    }
    final SparseSet[] out = exclude;
    final SparseSet lead = ViewLoop.smallest(sets);
    int[] positions = this.positions;
    if (0 != eaching || positions.length != sets.length) {
      positions = new int[sets.length];
      if (0 == eaching) {
        this.positions = positions;
      }
    }
    eaching++;
    try {
      ViewLoop.eachAt(lead, sets, out, positions, visitor);
    } finally {
      eaching--;
    }
  }

  /** {@return a new iterator over the entities of the view} */
  public EntityIterator iterator() {
    if (0 == include.length) {
      return new EntityIterator(new SparseSet(DeletionPolicy.SWAP_AND_POP), include, exclude);
    }
    return new EntityIterator(ViewLoop.smallest(include), include, exclude);
  }

  private static SparseSet[] append(final SparseSet[] sets, final SparseSet set) {
    if (null == set) {
      throw new NullPointerException("set");
    }
    final SparseSet[] next = Arrays.copyOf(sets, sets.length + 1);
    next[sets.length] = set;
    return next;
  }
}
