package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.LongLongMap;
import java.util.function.LongConsumer;

/**
 * The entities that are in every included set and in no excluded set, computed while iterating: a
 * view owns nothing and costs nothing to keep.
 *
 * <p>An iteration walks the <em>leading</em> set (by default the smallest included one, chosen when
 * the iteration starts; {@link #leadBy} fixes it) and looks each entity up in the other sets.
 * Component values are read through the storages, for example {@code positions.x(e)} on a generated
 * storage or {@code objects.get(e)}.
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>n = size of the leading set, k = number of other included and excluded sets</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code each}, {@code iterator} walk</td>
 *       <td>O(n * k), no allocation for {@code each}</td></tr>
 *   <tr><td>{@code contains}</td><td>O(k)</td></tr>
 *   <tr><td>{@code sizeHint}</td><td>O(k)</td></tr>
 * </table>
 *
 * <h2>What may change during an iteration</h2>
 *
 * <p>Positions at or above the one being visited are <em>visited</em>; those below it are still to
 * come. Every change is checked against that boundary before it is made:
 *
 * <ul>
 *   <li>Allowed: creating entities; adding components to any entity (new elements are not visited,
 *       with one exception: when the leading set uses in-place deletion, an insertion reuses the
 *       most recent hole, and if that hole is not visited yet the new element will be); writing
 *       components in place; removing components of the visited entity or of entities already
 *       visited, or destroying them; any change to entities still to come that moves no element
 *       across the boundary (with an in-place leading set, removals never move anything).
 *   <li>Refused with a {@link java.util.ConcurrentModificationException}, before anything changes:
 *       a change that would move an element of the leading set across the boundary (removing an
 *       entity still to come under swap-and-pop brings an already visited one below the boundary;
 *       the visited entity entering or leaving a group that owns the leading set moves it or
 *       another element across); sorting, compacting or clearing the leading set.
 *   <li>Changes to the other sets never make the walk skip or repeat an entity; they only decide
 *       whether entities still to come match.
 * </ul>
 *
 * <h2>Typed views</h2>
 *
 * <p>{@link Registry#typedView(ComponentType, ComponentType)} and its siblings, for types that have
 * generated cursors, return typed views ({@link View1} to {@link View4}, the only subclasses of
 * this class): their {@code each} also hands the entity's components as positioned cursors, under
 * the same rules. {@code Registry.view} always returns a plain {@code View}.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; several threads may iterate a view at once only if nothing changes the sets.
 */
public sealed class View permits TypedView {

  private static final SparseSet[] NONE = new SparseSet[0];

  // Read by the typed views, which share this view's sets and iteration guard.
  final SparseSet[] include;
  final SparseSet[] exclude;
  final SparseSet leader;
  // Created on the first call to onEnter() or onLeave(): the listeners that tell entries and exits.
  private Signal onEnter;
  private Signal onLeave;
  // Entities that started matching while being destroyed or cleared, and so did not enter: the
  // removal of their included component, which follows in the same destroy or clear, must not
  // announce a leave. Created on first use.
  private LongLongMap entriesSuppressed;

  View(final SparseSet[] include, final SparseSet[] exclude, final SparseSet leader) {
    this.include = include;
    this.exclude = exclude;
    this.leader = leader;
  }

  /**
   * Creates a view.
   *
   * @param include at least one set
   * @param exclude sets whose entities are skipped; may be empty
   * @return the view
   * @throws IllegalArgumentException if {@code include} is empty or a set is both included and
   *     excluded
   */
  public static View of(final SparseSet[] include, final SparseSet[] exclude) {
    if (0 == include.length) {
      throw new IllegalArgumentException("a view needs at least one included storage");
    }
    for (int i = 0; i < include.length; i++) {
      if (null == include[i]) {
        throw new NullPointerException(
            "include[" + i + "] is null: a view needs a storage in every slot");
      }
    }
    for (int i = 0; i < exclude.length; i++) {
      if (null == exclude[i]) {
        throw new NullPointerException(
            "exclude[" + i + "] is null: a view needs a storage in every slot");
      }
    }
    for (final SparseSet in : include) {
      for (final SparseSet out : exclude) {
        if (in == out) {
          throw new IllegalArgumentException(
              in.describe() + " is both included in and excluded from the view");
        }
      }
    }
    return new View(include.clone(), exclude.clone(), null);
  }

  /**
   * Creates a view over {@code include} with nothing excluded.
   *
   * @param include at least one set
   * @return the view
   * @throws IllegalArgumentException if {@code include} is empty
   */
  public static View of(final SparseSet... include) {
    return of(include, NONE);
  }

  /**
   * {@return a view like this one that also excludes {@code sets}}
   *
   * @param sets the sets whose entities are skipped too
   */
  public View exclude(final SparseSet... sets) {
    final SparseSet[] merged = new SparseSet[exclude.length + sets.length];
    System.arraycopy(exclude, 0, merged, 0, exclude.length);
    System.arraycopy(sets, 0, merged, exclude.length, sets.length);
    final View view = of(include, merged);
    return null == leader ? view : view.leadBy(leader);
  }

  /**
   * {@return a view like this one that always iterates {@code set}, one of its included sets}
   *
   * @param set the set to iterate
   * @throws IllegalArgumentException if {@code set} is not included
   */
  public View leadBy(final SparseSet set) {
    for (final SparseSet in : include) {
      if (in == set) {
        return new View(include, exclude, set);
      }
    }
    throw new IllegalArgumentException(
        set.describe() + " is not included in the view and cannot lead it");
  }

  /** {@return the set an iteration starting now would walk} */
  public SparseSet leader() {
    return null != leader ? leader : ViewLoop.smallest(include);
  }

  /** {@return the number of included sets} */
  public final int includeCount() {
    return include.length;
  }

  /**
   * {@return the {@code n}-th included set, in the order given to {@link #of}}
   *
   * @param n the index in the include list, {@code [0, includeCount())}
   */
  public final SparseSet include(final int n) {
    return include[n];
  }

  /** {@return the number of excluded sets} */
  public final int excludeCount() {
    return exclude.length;
  }

  /**
   * {@return the {@code n}-th excluded set, in the order given to {@link #of} and {@link
   * #exclude(SparseSet...)}}
   *
   * @param n the index in the exclude list, {@code [0, excludeCount())}
   */
  public final SparseSet exclude(final int n) {
    return exclude[n];
  }

  /** {@return an upper bound of the number of entities: the size of the leading set} */
  public int sizeHint() {
    return leader().size();
  }

  /**
   * {@return whether {@code entity} is in the view}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public boolean contains(final long entity) {
    return ViewLoop.matches(entity, include, exclude);
  }

  /**
   * Calls {@code action} for each entity of the view; allocates nothing.
   *
   * @param action called with each entity
   */
  public void each(final LongConsumer action) {
    ViewLoop.each(leader(), include, exclude, action);
  }

  /** {@return a new iterator over the entities of the view} */
  public EntityIterator iterator() {
    return new EntityIterator(leader(), include, exclude);
  }

  /**
   * Signal published when an entity starts matching this view (it gained an included component or
   * lost an excluded one), after the change is complete and after that storage's own listeners. The
   * first call connects the view to its storages for good (one listener per storage, internal);
   * keep the view (a generated view query keeps its own) rather than asking the registry for a new
   * one. An entity being destroyed, or a registry being cleared, enters nothing.
   *
   * @return the enter signal
   * @throws IllegalStateException if a set of the view is not a storage (a plain sparse set has no
   *     signals)
   */
  public Signal onEnter() {
    monitor();
    return onEnter;
  }

  /**
   * Signal published when an entity stops matching this view (it lost an included component or
   * gained an excluded one), after the change is complete. See {@link #onEnter()}.
   *
   * @return the leave signal
   * @throws IllegalStateException as {@link #onEnter()}
   */
  public Signal onLeave() {
    monitor();
    return onLeave;
  }

  private void monitor() {
    if (null != onEnter) {
      return;
    }
    for (final SparseSet set : include) {
      requireStorage(set);
    }
    for (final SparseSet set : exclude) {
      requireStorage(set);
    }
    final Signal entered = new Signal();
    final Signal left = new Signal();
    for (final SparseSet set : include) {
      final Storage<?> storage = (Storage<?>) set;
      // Gaining an included component: it did not match before; does it now?
      storage.afterInsert.connect(
          (registry, entity) -> {
            if (ViewLoop.matches(entity, include, exclude)) {
              Failures.rethrow(entered.publish(registry, entity, null));
            }
          });
      // Losing one: it matched before if everything else still holds.
      storage.afterRemove.connect(
          (registry, entity) -> {
            if (ViewLoop.matchesOthers(entity, storage, include, exclude)
                && !forgetSuppressedEntry(entity)) {
              Failures.rethrow(left.publish(registry, entity, null));
            }
          });
    }
    for (final SparseSet set : exclude) {
      final Storage<?> storage = (Storage<?>) set;
      storage.afterInsert.connect(
          (registry, entity) -> {
            if (matchesIgnoring(entity, storage)) {
              Failures.rethrow(left.publish(registry, entity, null));
            }
          });
      storage.afterRemove.connect(
          (registry, entity) -> {
            if (ViewLoop.matches(entity, include, exclude)) {
              if (null != registry && registry.suppressesEntry(entity)) {
                suppressEntry(entity);
              } else {
                Failures.rethrow(entered.publish(registry, entity, null));
              }
            }
          });
    }
    onLeave = left;
    onEnter = entered;
  }

  /** Remembers that {@code entity} matches now but did not enter (it is destroyed or cleared). */
  private void suppressEntry(final long entity) {
    if (null == entriesSuppressed) {
      entriesSuppressed = new LongLongMap(4);
    }
    entriesSuppressed.put(entity, 0);
  }

  /** Returns whether {@code entity}'s entry was suppressed, forgetting it. */
  private boolean forgetSuppressedEntry(final long entity) {
    if (null == entriesSuppressed || !entriesSuppressed.containsKey(entity)) {
      return false;
    }
    entriesSuppressed.remove(entity);
    return true;
  }

  /** Returns whether {@code entity} matches, {@code ignored} (an excluded set) aside. */
  private boolean matchesIgnoring(final long entity, final SparseSet ignored) {
    for (final SparseSet in : include) {
      if (!in.contains(entity)) {
        return false;
      }
    }
    for (final SparseSet out : exclude) {
      if (out != ignored && out.contains(entity)) {
        return false;
      }
    }
    return true;
  }

  private static void requireStorage(final SparseSet set) {
    if (!(set instanceof Storage)) {
      throw new IllegalStateException(
          set.describe()
              + " is not a storage and publishes no signals: a view over it has no enter or leave"
              + " signals");
    }
  }
}
