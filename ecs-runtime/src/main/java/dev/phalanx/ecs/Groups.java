package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The groups of one registry and the signal handlers that keep them up to date.
 *
 * <h2>Maintenance order</h2>
 *
 * <p>Each observed storage has one handler, connected first on its construct and destroy signals
 * (so groups are up to date before user listeners run). A handler visits the groups that observe its
 * storage ordered by <em>rank</em> (number of observed types; in a nested family the more restrictive
 * group always has the higher rank):
 *
 * <ul>
 *   <li>an event that can make entities <em>enter</em> (construct of an owned or get type, destroy of
 *       an excluded type) visits groups from the lowest rank to the highest: the less restrictive group
 *       places the entity first, then the more restrictive one moves it inside its prefix;
 *   <li>an event that can make entities <em>leave</em> (destroy of an owned or get type, construct of
 *       an excluded type) visits them from the highest rank to the lowest.
 * </ul>
 *
 * <p>Applying entries in the other order corrupts nested groups: the more restrictive group would swap
 * the entity into a slot that belongs to a member of the less restrictive group's prefix, evicting it.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>Two owning groups that own a common storage must be nested (each list of one contains the
 *       corresponding list of the other); otherwise the second is refused.
 *   <li>Storages with in-place deletion cannot be owned.
 *   <li>Asking for a group equal to an existing one returns the existing one.
 * </ul>
 */
public final class Groups {

  private final List<Group> groups = new ArrayList<>();
  private final Map<Storage<?>, Handler> handlers = new IdentityHashMap<>();

  // Test hook: apply entries from the most restrictive group first, the order the seed article shows
  // to be wrong. Only the nested-group ordering test sets it, to prove the rule matters.
  private final boolean wrongEntryOrder;

  /** Creates an empty set of groups; the registry owns one. */
  public Groups() {
    this(false);
  }

  Groups(final boolean wrongEntryOrder) {
    this.wrongEntryOrder = wrongEntryOrder;
  }

  /** Returns the number of groups. */
  public int size() {
    return groups.size();
  }

  /**
   * Returns the group with these lists, creating it (and arranging the existing entities) if needed.
   *
   * @param owned storages whose elements the group arranges; empty for a non-owning group
   * @param get storages observed but not owned
   * @param exclude storages whose entities are left out
   * @throws IllegalArgumentException if no storage is included, a storage is listed twice or both
   *     included and excluded
   * @throws IllegalStateException if an owned storage uses in-place deletion or is owned by a group
   *     that is not nested with the new one
   */
  public Group group(final Storage<?>[] owned, final Storage<?>[] get, final Storage<?>[] exclude) {
    final Group candidate = 0 == owned.length
        ? new NonOwningGroup(get.clone(), exclude.clone())
        : new OwningGroup(this, owned.clone(), get.clone(), exclude.clone());
    validate(candidate);
    for (final Group existing : groups) {
      if (existing.getClass() == candidate.getClass() && existing.sameAs(candidate)) {
        return existing;
      }
    }
    checkConflicts(candidate);
    // Every check passed: from here on the registry changes.
    for (final Storage<?> storage : candidate.owned) {
      storage.claim(candidate);
    }
    groups.add(candidate);
    for (final Storage<?> storage : candidate.owned) {
      handler(storage).addInclude(candidate);
    }
    for (final Storage<?> storage : candidate.get) {
      handler(storage).addInclude(candidate);
    }
    for (final Storage<?> storage : candidate.exclude) {
      handler(storage).addExclude(candidate);
    }
    if (candidate instanceof OwningGroup) {
      rebuildFamily(candidate);
    } else {
      candidate.populate();
    }
    return candidate;
  }

  /** Returns the owning group nested in {@code group} (more restrictive than it), or {@code null}. */
  OwningGroup moreRestrictiveThan(final OwningGroup group) {
    for (final Group other : groups) {
      if (other != group && other instanceof OwningGroup && shareOwned(other, group) && other.extendsGroup(group)) {
        return (OwningGroup) other;
      }
    }
    return null;
  }

  private static void validate(final Group group) {
    if (0 == group.owned.length && 0 == group.get.length) {
      throw new IllegalArgumentException("a group needs at least one owned or get storage");
    }
    final List<Storage<?>> all = new ArrayList<>();
    all.addAll(Arrays.asList(group.owned));
    all.addAll(Arrays.asList(group.get));
    all.addAll(Arrays.asList(group.exclude));
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        if (all.get(i) == all.get(j)) {
          throw new IllegalArgumentException(
              all.get(i).describe() + " is listed twice in " + group
                  + " (a type cannot be both owned and get, or both included and excluded)");
        }
      }
    }
    for (final Storage<?> storage : group.owned) {
      if (DeletionPolicy.IN_PLACE == storage.policy()) {
        throw new IllegalStateException(
            "cannot create " + group + ": " + storage.describe() + " uses in-place deletion, so its"
                + " elements must not move and it cannot be owned; list it as a get type instead");
      }
    }
  }

  private void checkConflicts(final Group candidate) {
    for (final Group existing : groups) {
      if (existing instanceof OwningGroup && shareOwned(existing, candidate)
          && !existing.extendsGroup(candidate) && !candidate.extendsGroup(existing)) {
        throw new IllegalStateException(
            "cannot create " + candidate + ": it owns a storage that " + existing + " owns too, and the two"
                + " are not nested (neither group's owned, get and exclude lists contain the other's)");
      }
    }
  }

  private static boolean shareOwned(final Group a, final Group b) {
    for (final Storage<?> x : a.owned) {
      for (final Storage<?> y : b.owned) {
        if (x == y) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Re-arranges every owning group connected to {@code group} through shared owned storages: forget
   * their members, then populate them from the least to the most restrictive, so that each one's
   * prefix lies inside the prefixes of the groups it extends.
   */
  private void rebuildFamily(final Group group) {
    final List<Group> family = new ArrayList<>();
    family.add(group);
    for (int i = 0; i < family.size(); i++) {
      for (final Group other : groups) {
        if (other instanceof OwningGroup && !family.contains(other) && shareOwned(other, family.get(i))) {
          family.add(other);
        }
      }
    }
    family.sort(Comparator.comparingInt(g -> g.rank));
    for (final Group member : family) {
      member.reset();
    }
    for (final Group member : family) {
      member.populate();
    }
  }

  private Handler handler(final Storage<?> storage) {
    Handler handler = handlers.get(storage);
    if (null == handler) {
      handler = new Handler(storage, wrongEntryOrder);
      handlers.put(storage, handler);
      storage.onConstruct().connectFirst(handler.constructed);
      storage.onDestroy().connectFirst(handler.destroyed);
    }
    return handler;
  }

  /** The listeners of one storage: they run the groups that observe it, in maintenance order. */
  private static final class Handler {
    private static final Group[] NONE = new Group[0];

    private final Storage<?> storage;
    private final boolean wrongEntryOrder;
    // Both sorted by ascending rank.
    private Group[] including = NONE;
    private Group[] excluding = NONE;
    final ComponentListener constructed = (registry, entity) -> constructed(entity);
    final ComponentListener destroyed = (registry, entity) -> destroyed(entity, registry);

    Handler(final Storage<?> storage, final boolean wrongEntryOrder) {
      this.storage = storage;
      this.wrongEntryOrder = wrongEntryOrder;
    }

    void addInclude(final Group group) {
      including = sortedWith(including, group);
    }

    void addExclude(final Group group) {
      excluding = sortedWith(excluding, group);
    }

    private void constructed(final long entity) {
      final Group[] in = including;
      if (wrongEntryOrder) {
        for (int i = in.length - 1; i >= 0; i--) {
          in[i].tryEnter(entity, null);
        }
      } else {
        for (int i = 0; i < in.length; i++) {
          in[i].tryEnter(entity, null);
        }
      }
      final Group[] out = excluding;
      for (int i = out.length - 1; i >= 0; i--) {
        out[i].tryLeave(entity);
      }
    }

    private void destroyed(final long entity, final Registry registry) {
      final Group[] in = including;
      for (int i = in.length - 1; i >= 0; i--) {
        in[i].tryLeave(entity);
      }
      if (null != registry && registry.isBeingDestroyed(entity)) {
        // Its other components are going too: entering now would only move elements for nothing, and
        // would break an iteration that destroys the entity it visits.
        return;
      }
      final Group[] out = excluding;
      for (int i = 0; i < out.length; i++) {
        // The component is still there (destroy fires before removal): ignore it in the test.
        out[i].tryEnter(entity, storage);
      }
    }

    private static Group[] sortedWith(final Group[] groups, final Group group) {
      final Group[] next = Arrays.copyOf(groups, groups.length + 1);
      next[groups.length] = group;
      Arrays.sort(next, Comparator.comparingInt(g -> g.rank));
      return next;
    }
  }
}
