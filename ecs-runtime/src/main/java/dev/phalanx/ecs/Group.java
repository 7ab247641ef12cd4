package dev.phalanx.ecs;

import java.util.function.LongConsumer;

/**
 * A group: the entities that have every <em>owned</em> and <em>get</em> component and no
 * <em>excluded</em> one, kept up to date by the storages' signals instead of being computed on each
 * iteration as a view is.
 *
 * <ul>
 *   <li>An {@link OwningGroup} (full- or partial-owning) keeps its members at positions
 *       {@code [0, size())} of every owned storage, in the same order: iteration walks plain arrays.
 *   <li>A {@link NonOwningGroup} keeps its members in a sparse set of its own and looks components up.
 * </ul>
 *
 * <p>Groups are created by {@link dev.phalanx.ecs.Registry#group} and live as long as the registry.
 *
 * <h2>Costs</h2>
 *
 * <p>Every insertion or removal of a component of an observed type runs the group's test, and for an
 * owning group one swap per owned storage: O(owned + get + excluded) per change. Creating a group on a
 * populated registry is O(n).
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; see {@link OwningGroup#parallelEachChunk} for the one parallel form.
 */
public abstract sealed class Group permits OwningGroup, NonOwningGroup {

  final Storage<?>[] owned;
  final Storage<?>[] get;
  final Storage<?>[] exclude;
  final int rank;

  Group(final Storage<?>[] owned, final Storage<?>[] get, final Storage<?>[] exclude) {
    this.owned = owned;
    this.get = get;
    this.exclude = exclude;
    this.rank = owned.length + get.length + exclude.length;
  }

  /** Returns the number of members. */
  public abstract int size();

  /** Returns whether {@code entity} is a member. */
  public abstract boolean contains(long entity);

  /** Returns the member at {@code position}, {@code [0, size())}. */
  public abstract long entityAt(int position);

  /**
   * Calls {@code action} for each member, last position first. The rules of
   * {@link dev.phalanx.ecs.View} apply: the visited entity may lose components or be destroyed;
   * others may not leave the group meanwhile (detected).
   */
  public abstract void each(LongConsumer action);

  /** Returns the number of owned storages (0 for a non-owning group). */
  public final int ownedCount() {
    return owned.length;
  }

  /** Returns the {@code n}-th owned storage, in declaration order. */
  public final Storage<?> owned(final int n) {
    return owned[n];
  }

  /** Returns the number of get (observed, not owned) storages. */
  public final int getCount() {
    return get.length;
  }

  /** Returns the {@code n}-th get storage, in declaration order. */
  public final Storage<?> get(final int n) {
    return get[n];
  }

  /** Returns the number of excluded storages. */
  public final int excludeCount() {
    return exclude.length;
  }

  /** Returns the {@code n}-th excluded storage, in declaration order. */
  public final Storage<?> exclude(final int n) {
    return exclude[n];
  }

  /**
   * Returns whether {@code entity} has every owned and get component and no excluded one, ignoring
   * {@code ignored} among the excluded (it is about to be removed).
   */
  final boolean matches(final long entity, final SparseSet ignored) {
    for (final Storage<?> storage : owned) {
      if (!storage.contains(entity)) {
        return false;
      }
    }
    for (final Storage<?> storage : get) {
      if (!storage.contains(entity)) {
        return false;
      }
    }
    for (final Storage<?> storage : exclude) {
      if (storage != ignored && storage.contains(entity)) {
        return false;
      }
    }
    return true;
  }

  /** Adds {@code entity} if it matches and is not a member yet. */
  final void tryEnter(final long entity, final SparseSet ignored) {
    if (!contains(entity) && matches(entity, ignored)) {
      enter(entity);
    }
  }

  /** Removes {@code entity} if it is a member. */
  final void tryLeave(final long entity) {
    if (contains(entity)) {
      leave(entity);
    }
  }

  abstract void enter(long entity);

  abstract void leave(long entity);

  /** Forgets every member without touching storages; used before re-populating. */
  abstract void reset();

  /** Adds every matching entity, walking the smallest included storage from the front. */
  final void populate() {
    SparseSet smallest = null;
    for (final Storage<?> storage : owned) {
      smallest = null == smallest || storage.size() < smallest.size() ? storage : smallest;
    }
    for (final Storage<?> storage : get) {
      smallest = null == smallest || storage.size() < smallest.size() ? storage : smallest;
    }
    // Front to back: entering swaps the visited element with the first non-member, which lies at or
    // before it, so nothing is skipped or visited twice.
    for (int position = 0; position < smallest.size(); position++) {
      final long entity = smallest.packed()[position];
      if (!dev.phalanx.ecs.Entity.isTombstone(entity)) {
        tryEnter(entity, null);
      }
    }
  }

  /** Returns whether every list of this group contains the corresponding list of {@code other}. */
  final boolean extendsGroup(final Group other) {
    return containsAll(owned, other.owned) && containsAll(get, other.get) && containsAll(exclude, other.exclude);
  }

  /** Returns whether both groups observe exactly the same storages in the same roles. */
  final boolean sameAs(final Group other) {
    return extendsGroup(other) && other.extendsGroup(this);
  }

  final void lockAll() {
    for (final Storage<?> storage : owned) {
      storage.lock();
    }
    for (final Storage<?> storage : get) {
      storage.lock();
    }
    for (final Storage<?> storage : exclude) {
      storage.lock();
    }
  }

  final void unlockAll() {
    for (final Storage<?> storage : owned) {
      storage.unlock();
    }
    for (final Storage<?> storage : get) {
      storage.unlock();
    }
    for (final Storage<?> storage : exclude) {
      storage.unlock();
    }
  }

  private static boolean containsAll(final Storage<?>[] outer, final Storage<?>[] inner) {
    for (final Storage<?> wanted : inner) {
      boolean found = false;
      for (final Storage<?> candidate : outer) {
        found |= candidate == wanted;
      }
      if (!found) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "group<owned=" + names(owned) + ", get=" + names(get) + ", exclude=" + names(exclude) + ">";
  }

  private static String names(final Storage<?>[] storages) {
    final StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < storages.length; i++) {
      text.append(i == 0 ? "" : ", ").append(storages[i].type().name());
    }
    return text.append(']').toString();
  }
}
