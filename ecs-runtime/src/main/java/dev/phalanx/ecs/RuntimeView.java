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
   * Calls {@code action} for each entity of the view; allocates nothing.
   *
   * @param action called with each entity
   */
  public void each(final LongConsumer action) {
    if (0 != include.length) {
      ViewLoop.each(ViewLoop.smallest(include), include, exclude, action);
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
