package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Guards;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The groups of one registry, and the upkeep that keeps them exact.
 *
 * <h2>Upkeep</h2>
 *
 * <p>Groups are not signal listeners: every insertion into or removal from a storage that groups
 * observe is <em>planned</em> here first (which groups the entity enters or leaves), the plan is
 * checked against the locks and iteration guards of every storage it will move, and only then is it
 * applied, before any user listener runs. So group upkeep neither depends on where users connect
 * their listeners nor on whether they throw, and a refused change moves nothing.
 *
 * <h2>Maintenance order</h2>
 *
 * <p>Each storage lists the groups that observe it by <em>rank</em> (number of observed types; in a
 * nested family the more restrictive group always has the higher rank):
 *
 * <ul>
 *   <li>entries (construct of an owned or get type, destroy of an excluded type) are applied from
 *       the lowest rank to the highest: the less restrictive group places the entity first, then
 *       the more restrictive one moves it inside its prefix;
 *   <li>exits (destroy of an owned or get type, construct of an excluded type) from the highest
 *       rank to the lowest.
 * </ul>
 *
 * <p>Applying entries in the other order corrupts nested groups: the more restrictive group would
 * swap the entity into a slot that belongs to a member of the less restrictive group's prefix,
 * evicting it.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>Two owning groups that own a common storage must be nested (each list of one contains the
 *       corresponding list of the other); otherwise the second is refused.
 *   <li>Storages with in-place deletion cannot be owned.
 *   <li>Asking for a group equal to an existing one returns the existing one.
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe. Removals from an in-place storage that groups observe may run on several
 * threads at once (the in-place contract): their upkeep is serialized on this object.
 */
public final class Groups {

  private final Registry registry;
  private final List<Group> groups = new ArrayList<>();

  // The plan of the change being made: groups to enter or leave, in the order to apply them.
  private Group[] plan = new Group[8];
  private boolean[] entering = new boolean[8];
  private int planned;

  // What the plan was made for: an insertion checks, at commit, that it is still its own.
  private Storage<?> planTarget;
  private long planEntity;

  // Iterations and locks active over the registry's sets.
  final Guards guards = new Guards();

  // While set (Registry.lockAll), a storage the registry creates starts locked by these.
  String lockNewBy;
  Object lockNewOf;

  // While set (Registry.countChunks), parallel chunk passes count their tasks per thread.
  ChunkCounts.Source chunkCounts;

  // The parallel chunk passes of several tasks under way, which waiting threads may help
  // (Registry.helpParallelPasses).
  final ConcurrentLinkedQueue<ChunkPass> openPasses = new ConcurrentLinkedQueue<>();

  // Enter and leave signals waiting to be published, as a stack: each change pushes what its plan
  // did, publishes its own entries, and pops them; changes made by those listeners push above.
  private Group[] pendingGroups = new Group[8];
  private boolean[] pendingEnter = new boolean[8];
  // The entity of each pending entry or exit (a bulk insertion publishes them entity by entity).
  private long[] pendingEntity = new long[8];
  private int pendingTop;

  // Test hook: apply entries from the most restrictive group first, the order the seed article
  // shows to be wrong. Only the nested-group ordering test sets it, to prove the rule matters.
  boolean wrongEntryOrder;

  Groups(final Registry registry) {
    this.registry = registry;
  }

  /** {@return the number of groups} */
  public int size() {
    return groups.size();
  }

  /**
   * {@return the {@code n}-th group created, {@code [0, size())}}
   *
   * @param n the index, in creation order
   */
  public Group get(final int n) {
    return groups.get(n);
  }

  // ---------------------------------------------------------------------------------------------
  // Creation.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the group with these lists, creating it (and arranging the existing entities) if
   * needed. Everything is checked before anything changes.
   */
  Group group(final Storage<?>[] owned, final Storage<?>[] get, final Storage<?>[] exclude) {
    final Group candidate =
        0 == owned.length
            ? new NonOwningGroup(get.clone(), exclude.clone(), guards)
            : new OwningGroup(this, owned.clone(), get.clone(), exclude.clone());
    validate(candidate);
    for (final Group existing : groups) {
      if (existing.getClass() == candidate.getClass() && existing.sameAs(candidate)) {
        return existing;
      }
    }
    checkConflicts(candidate);
    final List<Group> family =
        candidate instanceof OwningGroup ? familyOf(candidate) : List.of(candidate);
    for (final Group member : family) {
      for (final Storage<?> storage : member.owned) {
        storage.checkRearrange("create " + candidate + ", which rearranges");
      }
    }
    // Every check passed: from here on the registry changes, and nothing can fail.
    for (final Storage<?> storage : candidate.owned) {
      storage.claim((OwningGroup) candidate);
    }
    groups.add(candidate);
    for (final Storage<?> storage : candidate.owned) {
      storage.observe(candidate, true);
    }
    for (final Storage<?> storage : candidate.get) {
      storage.observe(candidate, true);
    }
    for (final Storage<?> storage : candidate.exclude) {
      storage.observe(candidate, false);
    }
    final List<Group> ordered = new ArrayList<>(family);
    ordered.sort(Comparator.comparingInt(g -> g.rank));
    for (final Group member : ordered) {
      member.reset();
    }
    for (final Group member : ordered) {
      member.populate();
    }
    return candidate;
  }

  /**
   * Returns the owning group nested in {@code group} (more restrictive than it), or {@code null}.
   */
  OwningGroup moreRestrictiveThan(final OwningGroup group) {
    for (final Group other : groups) {
      if (other != group
          && other instanceof OwningGroup owning
          && shareOwned(owning, group)
          && owning.extendsGroup(group)) {
        return owning;
      }
    }
    return null;
  }

  private static void validate(final Group group) {
    if (0 == group.owned.length && 0 == group.get.length) {
      throw new IllegalArgumentException("a group needs at least one owned or get storage");
    }
    // A type listed twice was refused by Registry.group (checkDistinct), the only caller.
    for (final Storage<?> storage : group.owned) {
      if (DeletionPolicy.IN_PLACE == storage.policy()) {
        throw new IllegalStateException(
            "cannot create "
                + group
                + ": "
                + storage.describe()
                + " uses in-place deletion, so its"
                + " elements must not move and it cannot be owned; list it as a get type instead");
      }
    }
  }

  private void checkConflicts(final Group candidate) {
    for (final Group existing : groups) {
      if (existing instanceof OwningGroup
          && shareOwned(existing, candidate)
          && !existing.extendsGroup(candidate)
          && !candidate.extendsGroup(existing)) {
        throw new IllegalStateException(
            "cannot create "
                + candidate
                + ": it owns a storage that "
                + existing
                + " owns too, and the two are not nested (neither group's owned, get and exclude"
                + " lists contain the other's)");
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

  /** Returns {@code group} and every owning group connected to it through shared owned storages. */
  private List<Group> familyOf(final Group group) {
    final List<Group> family = new ArrayList<>();
    family.add(group);
    for (int i = 0; i < family.size(); i++) {
      for (final Group other : groups) {
        if (other instanceof OwningGroup
            && !family.contains(other)
            && shareOwned(other, family.get(i))) {
          family.add(other);
        }
      }
    }
    return family;
  }

  // ---------------------------------------------------------------------------------------------
  // Upkeep: plan, check, apply.
  // ---------------------------------------------------------------------------------------------

  /**
   * Plans the upkeep of inserting {@code entity} into {@code target} at {@code position} and checks
   * it.
   *
   * @throws java.util.ConcurrentModificationException if a storage it would move is locked, or a
   *     move would cross an iteration's floor
   */
  void planInsert(final Storage<?> target, final long entity, final int position) {
    planned = 0;
    planTarget = target;
    planEntity = entity;
    // The entity is not in the target yet, so it is a member of no group that includes the
    // target: no membership test, only the match.
    final Group[] in = target.includedBy;
    if (wrongEntryOrder) {
      for (int i = in.length - 1; i >= 0; i--) {
        if (in[i].matchesWith(entity, target)) {
          add(in[i], true);
        }
      }
    } else {
      for (int i = 0; i < in.length; i++) {
        if (in[i].matchesWith(entity, target)) {
          add(in[i], true);
        }
      }
    }
    final Group[] out = target.excludedBy;
    for (int i = out.length - 1; i >= 0; i--) {
      if (out[i].containsLive(entity)) {
        add(out[i], false);
      }
    }
    if (guards.any()) {
      check(target, entity, position, false);
    }
  }

  /** {@return whether the current plan is the insertion of {@code entity} into {@code target}} */
  boolean plannedFor(final Storage<?> target, final long entity) {
    return planTarget == target && planEntity == entity;
  }

  /**
   * Applies the plan of the last {@link #planInsert}, after the element was inserted into {@code
   * target} at {@code position}.
   */
  void applyInsert(final Storage<?> target, final long entity, final int position) {
    final Group[] steps = plan;
    final boolean[] enter = entering;
    if (1 == planned && enter[0] && steps[0] instanceof OwningGroup) {
      // One group to enter: the new element's position needs no lookup.
      ((OwningGroup) steps[0]).enter(entity, target, position);
      return;
    }
    for (int i = 0, count = planned; i < count; i++) {
      if (enter[i]) {
        steps[i].enter(entity);
      } else {
        steps[i].leave(entity);
      }
    }
  }

  /**
   * Remembers the entries and exits of the last applied plan whose groups have listeners, returning
   * the stack mark to pass to {@link #publishPending}. Call right after applying a plan.
   */
  int pushPending() {
    final int mark = pendingTop;
    for (int i = 0; i < planned; i++) {
      final Group group = plan[i];
      if (group.onEnter.isEmpty() && group.onLeave.isEmpty()) {
        continue;
      }
      if (pendingTop == pendingGroups.length) {
        pendingGroups = Arrays.copyOf(pendingGroups, pendingTop * 2);
        pendingEnter = Arrays.copyOf(pendingEnter, pendingTop * 2);
        pendingEntity = Arrays.copyOf(pendingEntity, pendingTop * 2);
      }
      pendingGroups[pendingTop] = group;
      pendingEnter[pendingTop] = entering[i];
      pendingEntity[pendingTop] = planEntity;
      pendingTop++;
    }
    return mark;
  }

  /** {@return the current top of the pending stack, the mark a bulk insertion starts from} */
  int pendingMark() {
    return pendingTop;
  }

  /** {@return whether entries or exits were pushed since {@code mark}} */
  boolean pendingSince(final int mark) {
    return pendingTop != mark;
  }

  /**
   * Publishes a bulk insertion into {@code target} of {@code entities[from, to)}, whose plans were
   * pushed since {@code mark} in range order: for each entity, its pending entries and exits, then
   * the target's construction and after-insert signals; then pops them. Every listener runs (a
   * listener's own changes push and pop above the range); returns the first exception or {@code
   * null}.
   */
  Throwable publishPendingInOrder(
      final int mark,
      final long[] entities,
      final int from,
      final int to,
      final Storage<?> target) {
    final int top = pendingTop;
    final Registry registry = target.registry();
    Throwable failure = null;
    try {
      int next = mark;
      for (int i = from; i < to; i++) {
        final long entity = entities[i];
        for (; next < top && pendingEntity[next] == entity; next++) {
          final Group group = pendingGroups[next];
          failure =
              (pendingEnter[next] ? group.onEnter : group.onLeave)
                  .publish(registry, entity, failure);
        }
        failure = target.publishInserted(entity, failure);
      }
    } finally {
      Arrays.fill(pendingGroups, mark, top, null);
      pendingTop = mark;
    }
    return failure;
  }

  /**
   * Publishes, in plan order, the entries and exits pushed since {@code mark}, then pops them.
   * Every listener runs; returns {@code failure} or the first exception.
   */
  Throwable publishPending(
      final int mark, final Registry registry, final long entity, Throwable failure) {
    final int top = pendingTop;
    try {
      for (int i = mark; i < top; i++) {
        final Group group = pendingGroups[i];
        failure =
            (pendingEnter[i] ? group.onEnter : group.onLeave).publish(registry, entity, failure);
      }
    } finally {
      Arrays.fill(pendingGroups, mark, top, null);
      pendingTop = mark;
    }
    return failure;
  }

  /**
   * Plans the upkeep of removing {@code entity}'s element at {@code position} of {@code target},
   * and checks it (with the target's own removal) if {@code check}.
   */
  void planRemove(
      final Storage<?> target, final long entity, final int position, final boolean check) {
    if (DeletionPolicy.IN_PLACE == target.policy()) {
      // In-place removals may run on several threads; their upkeep is serialized.
      synchronized (this) {
        planRemoveUnsynchronized(target, entity, position, check);
      }
    } else {
      planRemoveUnsynchronized(target, entity, position, check);
    }
  }

  private void planRemoveUnsynchronized(
      final Storage<?> target, final long entity, final int position, final boolean check) {
    planned = 0;
    planTarget = null;
    final Group[] in = target.includedBy;
    for (int i = in.length - 1; i >= 0; i--) {
      if (in[i].containsAt(target, position, entity)) {
        add(in[i], false);
      }
    }
    if (!registry.suppressesEntry(entity)) {
      final Group[] out = target.excludedBy;
      // The entity is in the target, so it is a member of no group that excludes the target.
      for (int i = 0; i < out.length; i++) {
        if (out[i].matchesWithout(entity, target)) {
          add(out[i], true);
        }
      }
    }
    if (check) {
      check(target, entity, position, true);
    }
  }

  /**
   * Applies the plan of the last {@link #planRemove}: exits, the removal of the element (at {@code
   * position} of {@code target}), entries.
   */
  Throwable applyRemove(
      final Storage<?> target, final long entity, final int position, final Throwable failure) {
    if (DeletionPolicy.IN_PLACE == target.policy()) {
      // Removals from an in-place storage may run on several threads: the upkeep, and the group
      // signals it publishes, are serialized.
      synchronized (this) {
        // Another thread's removal may have planned since: plan again under the lock.
        final int now = target.indexOf(entity);
        planRemoveUnsynchronized(target, entity, now, false);
        applyRemoveUnsynchronized(target, entity, now);
        return publishPending(pushPending(), target.registry(), entity, failure);
      }
    }
    applyRemoveUnsynchronized(target, entity, position);
    return publishPending(pushPending(), target.registry(), entity, failure);
  }

  private void applyRemoveUnsynchronized(
      final Storage<?> target, final long entity, final int position) {
    final Group[] steps = plan;
    final boolean[] enter = entering;
    final int count = planned;
    if (1 == count
        && !enter[0]
        && steps[0] instanceof OwningGroup
        && steps[0].owns(target)
        && ((OwningGroup) steps[0]).spans(target)) {
      // The common case of one group spanning the storage: leave and remove in one move; when the
      // entity is being destroyed and nothing would see the difference, in every owned storage.
      final OwningGroup group = (OwningGroup) steps[0];
      if (!guards.any() && registry.isBeingDestroyed(entity) && group.removableTogether(target)) {
        group.leaveAndRemoveAll(entity, target, position);
      } else {
        group.leaveAndRemove(entity, target, position);
      }
      return;
    }
    for (int i = 0; i < count; i++) {
      if (!enter[i]) {
        steps[i].leave(entity);
      }
    }
    target.removeAt(target.positionOfLive(entity));
    for (int i = 0; i < count; i++) {
      if (enter[i]) {
        steps[i].enter(entity);
      }
    }
  }

  /**
   * Checks that {@code target} may be cleared as far as its groups are concerned: nothing they
   * would move is locked or iterated.
   */
  void checkClear(final Storage<?> target) {
    checkClearOf(target.includedBy);
    checkClearOf(target.excludedBy);
  }

  private static void checkClearOf(final Group[] observers) {
    for (final Group group : observers) {
      if (group instanceof OwningGroup) {
        for (final Storage<?> storage : group.owned) {
          storage.checkRearrange("clear a storage observed by a group, which rearranges");
        }
      } else {
        ((NonOwningGroup) group)
            .memberSet()
            .checkRearrange("clear a storage observed by a group, which rearranges");
      }
    }
  }

  private void add(final Group group, final boolean enter) {
    if (planned == plan.length) {
      plan = Arrays.copyOf(plan, planned * 2);
      entering = Arrays.copyOf(entering, planned * 2);
    }
    plan[planned] = group;
    entering[planned] = enter;
    planned++;
  }

  /** Checks the target's own change and every move the plan makes. Allocates only to throw. */
  private void check(
      final Storage<?> target, final long entity, final int position, final boolean removal) {
    checkStorage(target, position, removal, target, entity);
    for (int i = 0; i < planned; i++) {
      final Group group = plan[i];
      if (group instanceof OwningGroup) {
        for (final Storage<?> storage : group.owned) {
          if (storage != target) {
            checkStorage(storage, SparseSet.ABSENT, removal, target, entity);
          }
        }
      } else if (!entering[i]) {
        // Entering appends to the member set, which is never locked: always allowed.
        final SparseSet members = ((NonOwningGroup) group).memberSet();
        members.checkRemoveAt(members.indexOf(entity), entity, target);
      }
    }
  }

  /**
   * Checks the moves the plan makes in {@code storage}: they all lie between the entity's position,
   * the lengths of the planned owning groups that own it and, when {@code storage} is the target of
   * a removal, the last position.
   */
  private void checkStorage(
      final Storage<?> storage,
      final int position,
      final boolean removal,
      final Storage<?> target,
      final long entity) {
    final boolean removedHere = removal && storage == target;
    if (!storage.isIterated() || (removedHere && DeletionPolicy.IN_PLACE == storage.policy())) {
      storage.checkUnlocked(removal, target, entity);
      return;
    }
    final int at = SparseSet.ABSENT == position ? storage.indexOf(entity) : position;
    int low = at;
    int high = at;
    for (int i = 0; i < planned; i++) {
      if (plan[i] instanceof OwningGroup && plan[i].owns(storage)) {
        final int slot = ((OwningGroup) plan[i]).size() - (entering[i] ? 0 : 1);
        low = Math.min(low, slot);
        high = Math.max(high, slot);
      }
    }
    if (removedHere) {
      high = Math.max(high, storage.size() - 1);
    }
    storage.checkMoves(low, high, removal, target, entity);
    if (removedHere) {
      // As without groups: the set may not shrink below the part an iteration already visited.
      storage.checkRemoveAt(at, entity, target);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Consistency.
  // ---------------------------------------------------------------------------------------------

  /** Appends every broken group invariant to {@code problems}. */
  void verify(final List<String> problems) {
    for (final Group group : groups) {
      group.verify(problems);
    }
    for (final Group inner : groups) {
      for (final Group outer : groups) {
        if (inner != outer
            && inner instanceof OwningGroup
            && outer instanceof OwningGroup
            && shareOwned(inner, outer)
            && inner.extendsGroup(outer)
            && inner.size() > outer.size()) {
          problems.add(
              inner
                  + " has "
                  + inner.size()
                  + " members but the group it is nested in, "
                  + outer
                  + ", has only "
                  + outer.size());
        }
      }
    }
  }

  /**
   * Forgets every group's members and arranges them again from the storages, groups of lower rank
   * first (so nested groups stay nested); used after a snapshot filled storages in bulk. Nothing is
   * checked and nothing published. An owning group adopts without a lookup the members it finds
   * aligned at the front of its owned storages, as storages saved from a registry with the same
   * groups hold them, and moves nothing there; it then walks its smallest owned storage for the
   * rest (see {@link OwningGroup#rebuild}). A non-owning group's members are listed anew. O(total
   * elements).
   */
  void rebuild() {
    final List<Group> ordered = new ArrayList<>(groups);
    ordered.sort(Comparator.comparingInt(g -> g.rank));
    for (final Group member : ordered) {
      member.reset();
    }
    for (final Group member : ordered) {
      if (member instanceof OwningGroup owning) {
        owning.rebuild();
      } else {
        member.populate();
      }
    }
  }
}
