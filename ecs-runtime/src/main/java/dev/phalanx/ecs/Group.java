package dev.phalanx.ecs;

import java.util.List;
import java.util.function.LongConsumer;

/**
 * A group: the entities that have every <em>owned</em> and <em>get</em> component and no
 * <em>excluded</em> one, kept up to date by the storages' signals instead of being computed on each
 * iteration as a view is.
 *
 * <ul>
 *   <li>An {@link OwningGroup} (full- or partial-owning) keeps its members at positions {@code [0,
 *       size())} of every owned storage, in the same order: iteration walks plain arrays.
 *   <li>A {@link NonOwningGroup} keeps its members in a sparse set of its own and looks components
 *       up.
 * </ul>
 *
 * <p>Groups are created by {@link Registry#group} and live as long as the registry. They are kept
 * up to date by the storages' mutation path itself (see {@link Groups}), before any listener runs.
 *
 * <h2>Costs</h2>
 *
 * <p>Every insertion or removal of a component of an observed type runs the group's test, and for
 * an owning group one swap per owned storage: O(owned + get + excluded) per change. Creating a
 * group on a populated registry is O(n).
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
  final Signal onEnter = new Signal();
  final Signal onLeave = new Signal();

  Group(final Storage<?>[] owned, final Storage<?>[] get, final Storage<?>[] exclude) {
    this.owned = owned;
    this.get = get;
    this.exclude = exclude;
    this.rank = owned.length + get.length + exclude.length;
    onEnter.watch(this::refreshDirectUpkeep);
    onLeave.watch(this::refreshDirectUpkeep);
  }

  /**
   * Tells the storages this group observes that its listeners changed: one of them suffices, as it
   * refreshes every storage of the registry. A group has an owned or a get storage (checked when it
   * is declared).
   */
  private void refreshDirectUpkeep() {
    (0 != owned.length ? owned[0] : get[0]).refreshDirectUpkeep();
  }

  /**
   * Signal published after an entity entered the group, once the change that made it enter is
   * complete (the entity is a member; its components can be read), before the storage's construct
   * or update listeners. Listeners follow the rules of {@link Signal}.
   *
   * @return the enter signal
   */
  public final Signal onEnter() {
    return onEnter;
  }

  /**
   * Signal published after an entity left the group, once the change that made it leave is
   * complete: it is no longer a member, and the component whose removal made it leave is gone (read
   * it in that storage's destroy listener). Published after the storage's destroy listeners.
   *
   * @return the leave signal
   */
  public final Signal onLeave() {
    return onLeave;
  }

  /** {@return the number of members} */
  public abstract int size();

  /**
   * {@return whether {@code entity} is a member}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public abstract boolean contains(long entity);

  /**
   * {@return the member at {@code position}, {@code [0, size())}}
   *
   * @param position the member's position
   */
  public abstract long entityAt(int position);

  /**
   * Calls {@code action} for each member, last position first (after a sort: the reverse of the
   * sort's order; {@link #eachInOrder} walks the other way). The rules of {@link View} apply: the
   * visited entity (and those already visited) may lose components or be destroyed; a change that
   * would make a member be visited twice or never is refused before it is made.
   *
   * @param action called with each member
   */
  public abstract void each(LongConsumer action);

  /**
   * Calls {@code action} for each member, position 0 first: after a sort, in the sort's order
   * (ascending key or comparator order), where {@link #each} visits it in reverse. The group's
   * storages are locked meanwhile (as during a chunk pass): the body may read and write components,
   * but every structural change to an observed storage is refused with a {@link
   * java.util.ConcurrentModificationException} before anything changes (record it in a {@link
   * dev.phalanx.ecs.command.CommandBuffer CommandBuffer} and apply it after). O(n), no allocation.
   *
   * @param action called with each member, from position 0 to {@code size() - 1}
   */
  public abstract void eachInOrder(LongConsumer action);

  /** {@return the number of owned storages (0 for a non-owning group)} */
  public final int ownedCount() {
    return owned.length;
  }

  /**
   * {@return the {@code n}-th owned storage, in declaration order}
   *
   * @param n the index in the owned list, {@code [0, ownedCount())}
   */
  public final Storage<?> owned(final int n) {
    return owned[n];
  }

  /** {@return the number of get (observed, not owned) storages} */
  public final int getCount() {
    return get.length;
  }

  /**
   * {@return the {@code n}-th get storage, in declaration order}
   *
   * @param n the index in the get list, {@code [0, getCount())}
   */
  public final Storage<?> get(final int n) {
    return get[n];
  }

  /** {@return the number of excluded storages} */
  public final int excludeCount() {
    return exclude.length;
  }

  /**
   * {@return the {@code n}-th excluded storage, in declaration order}
   *
   * @param n the index in the exclude list, {@code [0, excludeCount())}
   */
  public final Storage<?> exclude(final int n) {
    return exclude[n];
  }

  /** Returns whether {@code storage} is one of the owned storages. */
  final boolean owns(final SparseSet storage) {
    for (final Storage<?> candidate : owned) {
      if (candidate == storage) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns whether {@code entity} has every owned and get component and no excluded one. Reads
   * every set with {@link SparseSet#contains}, so it also serves {@link #verify}.
   */
  final boolean matches(final long entity) {
    for (final Storage<?> storage : owned) {
      if (!storage.contains(entity)) {
        return false;
      }
    }
    return matchesGetAndExclude(entity);
  }

  /** {@return whether {@code entity} is in every get storage and in no excluded one} */
  final boolean matchesGetAndExclude(final long entity) {
    if (!inEveryGet(entity)) {
      return false;
    }
    for (final Storage<?> storage : exclude) {
      if (storage.contains(entity)) {
        return false;
      }
    }
    return true;
  }

  /** {@return whether every get storage holds {@code entity}} */
  final boolean inEveryGet(final long entity) {
    for (final Storage<?> storage : get) {
      if (!storage.contains(entity)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns whether {@code entity}, live in the registry, matches, counting {@code present} (a
   * storage it is about to enter) as containing it. Group upkeep: lookups by {@link
   * SparseSet#positionOfLive}.
   */
  final boolean matchesWith(final long entity, final SparseSet present) {
    for (final Storage<?> storage : owned) {
      if (storage != present && storage.positionOfLive(entity) < 0) {
        return false;
      }
    }
    for (final Storage<?> storage : get) {
      if (storage != present && storage.positionOfLive(entity) < 0) {
        return false;
      }
    }
    for (final Storage<?> storage : exclude) {
      if (storage.positionOfLive(entity) >= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns whether {@code entity}, live in the registry, matches, counting {@code absent} (an
   * excluded storage it is about to leave) as not containing it. Group upkeep.
   */
  final boolean matchesWithout(final long entity, final SparseSet absent) {
    for (final Storage<?> storage : owned) {
      if (storage.positionOfLive(entity) < 0) {
        return false;
      }
    }
    for (final Storage<?> storage : get) {
      if (storage.positionOfLive(entity) < 0) {
        return false;
      }
    }
    for (final Storage<?> storage : exclude) {
      if (storage != absent && storage.positionOfLive(entity) >= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * As {@link #contains}, for an entity live in the registry (see {@link
   * SparseSet#positionOfLive}); group upkeep uses it.
   */
  abstract boolean containsLive(long entity);

  /**
   * As {@link #containsLive}, for an entity whose element sits at {@code position} of {@code
   * storage}, a storage the group includes: an owning group answers from the position when it owns
   * the storage.
   */
  boolean containsAt(final Storage<?> storage, final int position, final long entity) {
    return containsLive(entity);
  }

  /** Adds {@code entity}, which matches and is not a member. */
  abstract void enter(long entity);

  /** Removes {@code entity}, which is a member. */
  abstract void leave(long entity);

  /** Forgets every member without moving any element; used before re-populating. */
  abstract void reset();

  /** Forgets every member because an included storage is being cleared. */
  final void clearMembers() {
    reset();
  }

  /** Adds every matching entity, walking the smallest included storage from the front. */
  final void populate() {
    populate(smallestIncluded());
  }

  /** {@return the smallest owned or get storage: the fewest candidates to walk} */
  private SparseSet smallestIncluded() {
    SparseSet smallest = null;
    for (final Storage<?> storage : owned) {
      smallest = null == smallest || storage.size() < smallest.size() ? storage : smallest;
    }
    for (final Storage<?> storage : get) {
      smallest = null == smallest || storage.size() < smallest.size() ? storage : smallest;
    }
    return smallest;
  }

  /**
   * Adds every matching entity in the order of {@code walked}, an included storage, from the front
   * (snapshot loading has a shortcut for owning groups, {@link OwningGroup#rebuild}). Front to
   * back: entering swaps the visited element with the first non-member, which lies at or before it,
   * so nothing is skipped or visited twice.
   */
  private void populate(final SparseSet walked) {
    for (int position = 0; position < walked.size(); position++) {
      final long entity = walked.packed()[position];
      if (!Entity.isTombstone(entity) && !contains(entity) && matches(entity)) {
        enter(entity);
      }
    }
  }

  /** Appends every broken invariant of this group to {@code problems}. */
  abstract void verify(List<String> problems);

  /**
   * Appends to {@code problems} the entities that match but are not members and the members that do
   * not match, walking the smallest included storage.
   */
  final void verifyMembership(final List<String> problems) {
    final SparseSet smallest = smallestIncluded();
    for (int position = 0; position < smallest.size(); position++) {
      final long entity = smallest.packed()[position];
      if (!Entity.isTombstone(entity) && matches(entity) != contains(entity)) {
        problems.add(
            this
                + ": "
                + Entity.toString(entity)
                + (contains(entity)
                    ? " is a member but does not match"
                    : " matches but is not a member"));
      }
    }
    for (int position = 0; position < size(); position++) {
      final long entity = entityAt(position);
      if (!matches(entity)) {
        problems.add(
            this + ": member " + Entity.toString(entity) + " at " + position + " does not match");
      }
    }
  }

  /**
   * Locks every observed storage; {@code by} says what holds the locks ("a chunk iteration of").
   */
  final void lockAll(final String by) {
    for (final Storage<?> storage : owned) {
      storage.lock(by, this);
    }
    for (final Storage<?> storage : get) {
      storage.lock(by, this);
    }
    for (final Storage<?> storage : exclude) {
      storage.lock(by, this);
    }
  }

  /** Returns whether every list of this group contains the corresponding list of {@code other}. */
  final boolean extendsGroup(final Group other) {
    return containsAll(owned, other.owned)
        && containsAll(get, other.get)
        && containsAll(exclude, other.exclude);
  }

  /** Returns whether both groups observe exactly the same storages in the same roles. */
  final boolean sameAs(final Group other) {
    return extendsGroup(other) && other.extendsGroup(this);
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
    return "group<owned="
        + names(owned)
        + ", get="
        + names(get)
        + ", exclude="
        + names(exclude)
        + ">";
  }

  private static String names(final Storage<?>[] storages) {
    final StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < storages.length; i++) {
      text.append(i == 0 ? "" : ", ").append(storages[i].type().name());
    }
    return text.append(']').toString();
  }
}
