package dev.phalanx.ecs;

/**
 * Which owning group one storage's changes may update directly: the routing that lets an insertion,
 * a removal or a destroy skip the planned group upkeep ({@link Groups}) when nothing could refuse
 * or observe it. One per storage, made with it.
 *
 * <h2>Invariants</h2>
 *
 * <ul>
 *   <li>The three decisions ({@link #inserter()}, {@link #remover()} and the group a destroy may
 *       remove through) depend only on the groups observing the storage and on the signals of the
 *       storage, of its groups and of the other storages its group owns. {@link #decide()} makes
 *       them again whenever one of those changes ({@link Storage#refreshDirectUpkeep}), so they are
 *       never stale.
 *   <li>A decision is a necessary condition, not a sufficient one: what can change between any two
 *       calls (whether anything in the registry is iterated or locked, whether a group spans its
 *       owned storages) is read at each change, by {@link Storage#directInsertOwner}, {@link
 *       Storage#directRemoveOwner}, {@link #removeWithSpanningGroup} and {@link #removableInBulk}.
 *   <li>A direct upkeep makes exactly the moves of the planned one and publishes nothing, as the
 *       planned one would publish nothing in the same state: routing never changes the outcome.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>Reading a decision is one field read; {@link #decide()} is O(groups of the storage + storages
 * its group owns), run only when a group or listener changes (O(storages) for the registry).
 * Keeping the answers saves about 2 ns per check: an insertion asks twice, a removal once. The
 * direct upkeep itself saves the plan's bookkeeping: about a quarter of an add + remove under a
 * group ({@code WithGroups.addRemove}). No allocation. Not thread-safe, as the storage.
 */
final class DirectUpkeep {

  private final Storage<?> storage;
  // The owning group whose upkeep an insertion (a removal) may do directly, or null: see
  // directOwner().
  private OwningGroup inserter;
  private OwningGroup remover;
  // The owning group a destroy may empty the storage's element through, with its other owned
  // storages' (see removeWithSpanningGroup), or null.
  private OwningGroup spanning;

  DirectUpkeep(final Storage<?> storage) {
    this.storage = storage;
  }

  /**
   * {@return the owning group an insertion may update directly if nothing is iterated or locked, or
   * {@code null}}
   */
  OwningGroup inserter() {
    return inserter;
  }

  /**
   * {@return the owning group a removal may update directly if nothing is iterated or locked, or
   * {@code null}}
   */
  OwningGroup remover() {
    return remover;
  }

  /** Recomputes the storage's decisions; see {@link Storage#refreshDirectUpkeep}. */
  void decide() {
    final OwningGroup direct = directOwner();
    inserter =
        null != direct && storage.onConstruct().isEmpty() && storage.afterInsert.isEmpty()
            ? direct
            : null;
    remover =
        null != direct && storage.onDestroy().isEmpty() && storage.afterRemove.isEmpty()
            ? direct
            : null;
    spanning = spanningCandidate();
  }

  /**
   * Removes the element at {@code position} of {@code entity}, which is being destroyed, together
   * with its elements in the other storages of its owning group, when that is all the removal can
   * do: the storage's only observer is one owning group that owns it and {@link
   * OwningGroup#removableTogether spans its owned storages alone}, nothing iterates or locks a
   * storage, and nothing listens. The group's planned removal would make the same moves and publish
   * nothing. Returns false, having done nothing, otherwise. What only a group or a listener can
   * change is decided beforehand ({@link #decide}); whether the group spans its storages and
   * whether anything is iterated are read here.
   */
  boolean removeWithSpanningGroup(final long entity, final int position) {
    final OwningGroup group = spanning;
    if (null == group || storage.guards.any() || !group.spansOwned()) {
      return false;
    }
    group.leaveAndRemoveAll(entity, storage, position);
    return true;
  }

  /**
   * Returns whether a destroy batch may remove from the storage in bulk ({@link
   * SparseSet#removeAll(long[], int, int)}), with nothing to announce or refuse: nothing listens to
   * its removals, and it has no group, or its only observer is one owning group that {@link
   * OwningGroup#removableTogether spans its owned storages alone}. All of those hold only members,
   * at the same positions; the batch removes the same entities from each in the same order, so they
   * stay aligned, and the group's size follows theirs ({@link OwningGroup#followOwned}).
   */
  boolean removableInBulk() {
    if (!storage.hasGroups()) {
      return storage.removesPlainly();
    }
    // The kept decision covers the listeners, the observers and the group's leave signal.
    final OwningGroup group = spanning;
    return null != group && group.spansOwned();
  }

  /**
   * The owning group whose upkeep an insertion or removal may do directly, without a plan, or
   * {@code null}: the group is the storage's only observer, neither it nor the storage announces
   * anything, and the storage deletes by swap-and-pop, so no check can fail and no user code can
   * run. Whether the storage announces anything is left to {@link #decide}.
   */
  private OwningGroup directOwner() {
    final Group[] in = storage.includedBy;
    if (1 != in.length
        || 0 != storage.excludedBy.length
        || DeletionPolicy.SWAP_AND_POP != storage.policy()) {
      return null;
    }
    return in[0] instanceof OwningGroup group && group.onEnter.isEmpty() && group.onLeave.isEmpty()
        ? group
        : null;
  }

  /**
   * The owning group that is the storage's only observer and owns it, if nothing listens to its
   * leaving or to the removals of any storage it owns, and it is the only observer of each: what
   * {@link #removeWithSpanningGroup} needs besides the group spanning its storages and nothing
   * being iterated, which can change between any two calls. Else {@code null}.
   */
  private OwningGroup spanningCandidate() {
    final Group[] in = storage.includedBy;
    if (1 != in.length || !(in[0] instanceof OwningGroup group)) {
      return null;
    }
    return storage.observedOnlyBy(group)
            && group.owns(storage)
            && group.leavesUnobservedBesides(storage)
        ? group
        : null;
  }
}
