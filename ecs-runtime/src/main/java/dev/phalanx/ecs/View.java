package dev.phalanx.ecs;

import java.util.function.LongConsumer;

/**
 * The entities that are in every included set and in no excluded set, computed while iterating: a
 * view owns nothing and costs nothing to keep.
 *
 * <p>An iteration walks the <em>leading</em> set (by default the smallest included one, chosen when
 * the iteration starts; {@link #leadBy} fixes it) and looks each entity up in the other sets.
 * Component values are read through the storages, for example
 * {@code positions.x(e)} on a generated storage or {@code objects.get(e)}.
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>n = size of the leading set, k = number of other included and excluded sets</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code each}, {@code iterator} walk</td><td>O(n * k), no allocation for {@code each}</td></tr>
 *   <tr><td>{@code contains}</td><td>O(k)</td></tr>
 *   <tr><td>{@code sizeHint}</td><td>O(k)</td></tr>
 * </table>
 *
 * <h2>What may change during an iteration</h2>
 *
 * <ul>
 *   <li>Allowed: creating entities; adding components to any entity (new elements are not visited,
 *       with one exception: when the leading set uses in-place deletion, an insertion reuses the most
 *       recent hole, and if that hole is not visited yet the new element will be);
 *       changing the visited entity's components in place; removing the visited entity's components or
 *       destroying it.
 *   <li>Not allowed: removing components of <em>other</em> entities from the sets being iterated
 *       (unless the leading set uses in-place deletion, where nothing moves); sorting, compacting or
 *       clearing them. Done to the leading set, this is detected and reported with a
 *       {@link java.util.ConcurrentModificationException}; done to another set it is not detected,
 *       so do not rely on it.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; several threads may iterate a view at once only if nothing changes the sets.
 */
public final class View {

  private static final SparseSet[] NONE = new SparseSet[0];

  private final SparseSet[] include;
  private final SparseSet[] exclude;
  private final SparseSet leader;

  private View(final SparseSet[] include, final SparseSet[] exclude, final SparseSet leader) {
    this.include = include;
    this.exclude = exclude;
    this.leader = leader;
  }

  /**
   * Creates a view.
   *
   * @param include at least one set
   * @param exclude sets whose entities are skipped; may be empty
   * @throws IllegalArgumentException if {@code include} is empty or a set is both included and excluded
   */
  public static View of(final SparseSet[] include, final SparseSet[] exclude) {
    if (0 == include.length) {
      throw new IllegalArgumentException("a view needs at least one included storage");
    }
    for (final SparseSet in : include) {
      for (final SparseSet out : exclude) {
        if (in == out) {
          throw new IllegalArgumentException(in.describe() + " is both included in and excluded from the view");
        }
      }
    }
    return new View(include.clone(), exclude.clone(), null);
  }

  /** Creates a view over {@code include} with nothing excluded. */
  public static View of(final SparseSet... include) {
    return of(include, NONE);
  }

  /** Returns a view like this one that also excludes {@code sets}. */
  public View exclude(final SparseSet... sets) {
    final SparseSet[] merged = new SparseSet[exclude.length + sets.length];
    System.arraycopy(exclude, 0, merged, 0, exclude.length);
    System.arraycopy(sets, 0, merged, exclude.length, sets.length);
    final View view = of(include, merged);
    return null == leader ? view : view.leadBy(leader);
  }

  /**
   * Returns a view like this one that always iterates {@code set}, one of its included sets.
   *
   * @throws IllegalArgumentException if {@code set} is not included
   */
  public View leadBy(final SparseSet set) {
    for (final SparseSet in : include) {
      if (in == set) {
        return new View(include, exclude, set);
      }
    }
    throw new IllegalArgumentException(set.describe() + " is not included in the view and cannot lead it");
  }

  /** Returns the set an iteration starting now would walk. */
  public SparseSet leader() {
    return null != leader ? leader : ViewLoop.smallest(include);
  }

  /** Returns an upper bound of the number of entities: the size of the leading set. */
  public int sizeHint() {
    return leader().size();
  }

  /** Returns whether {@code entity} is in the view. */
  public boolean contains(final long entity) {
    return ViewLoop.matches(entity, include, exclude);
  }

  /** Calls {@code action} for each entity of the view; allocates nothing. */
  public void each(final LongConsumer action) {
    ViewLoop.each(leader(), include, exclude, action);
  }

  /** Returns a new iterator over the entities of the view. */
  public EntityIterator iterator() {
    return new EntityIterator(leader(), include, exclude);
  }
}
