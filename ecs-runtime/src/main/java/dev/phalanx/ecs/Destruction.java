package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;

/**
 * The checked destruction of entities: what {@link Registry#destroy(long)} does when something
 * could refuse, observe or interrupt it, what a batch {@link Registry#destroy(long[], int, int)}
 * does, and how {@link Registry#clear()} checks and empties every storage. The registry keeps the
 * state these read (its storages, the destroying stack, whether it is clearing) and the short path
 * of a destroy that nothing can observe; this class keeps the order in which a guarded destroy
 * checks and removes.
 *
 * <p>Invariants kept:
 *
 * <ul>
 *   <li>Locks are checked first, then the features' {@link DestroyCheck}s, reading only, before the
 *       destroying stack is written: destroys refused on several threads at once (the bodies of a
 *       parallel pass) change nothing of the registry.
 *   <li>While anything is iterated or locked, every removal is checked before the first is made: a
 *       refused destroy or batch changes nothing.
 *   <li>Once its checks passed a destroy completes: an entity is on the destroying stack from its
 *       first removal until its components are gone and {@link Registry#onDestroy()} ran, and is
 *       released after that (with the version asked for) unless a listener released it already.
 *   <li>A clear checks every storage before it empties the first, so a refused clear changes
 *       nothing; while it runs the registry refuses creations and insertions, so each live entity
 *       is announced once.
 * </ul>
 */
final class Destruction {

  private final Registry registry;

  Destruction(final Registry registry) {
    this.registry = registry;
  }

  /**
   * Destroys the live {@code entity}, not being destroyed, and releases it with {@code version};
   * the guarded path of {@link Registry#destroy(long)}.
   */
  void destroy(final long entity, final int version) {
    final boolean guarded = registry.groups().guards.any();
    if (guarded) {
      // A lock (a parallel iteration's among them) refuses before the destroying stack is
      // written: several threads refused at once then change nothing of the registry.
      checkUnlockedFor(entity, 1);
    }
    // The features' rules (DestroyCheck) read only, like the locks.
    registry.checkDestroyRules(entity);
    registry.pushDestroying(entity);
    if (guarded) {
      // Something is iterated or locked: every removal must be allowed before the first is made.
      try {
        checkDestroy(entity);
      } catch (final RuntimeException refused) {
        registry.popDestroying();
        throw refused;
      }
    }
    Failures.rethrow(destroyChecked(entity, version, null));
  }

  /**
   * Destroys the valid entities of {@code batch[from, to)}, checking everything first; see {@link
   * Registry#destroy(long[], int, int)}. The registry is not being cleared.
   */
  void destroy(final long[] batch, final int from, final int to) {
    if (registry.groups().guards.any()) {
      // The locks first, for the whole batch, reading only: a batch refused on several threads at
      // once (the bodies of a parallel pass) must not touch the destroying stack, which is shared.
      for (int i = from; i < to; i++) {
        checkUnlockedFor(batch[i], to - from);
      }
    }
    registry.checkDestroyRules(batch, from, to);
    if (registry.destroysInBulk()) {
      destroyInBulk(batch, from, to);
      return;
    }
    for (int i = from; i < to; i++) {
      registry.pushDestroying(batch[i]);
      try {
        checkDestroy(batch[i]);
      } finally {
        registry.popDestroying();
      }
    }
    final EntityStorage entities = registry.entities();
    Throwable failure = null;
    for (int i = from; i < to; i++) {
      final long entity = batch[i];
      if (entities.valid(entity) && !registry.isBeingDestroyed(entity)) {
        registry.pushDestroying(entity);
        failure = destroyChecked(entity, Registry.NEXT_VERSION, failure);
      }
    }
    Failures.rethrow(failure);
  }

  /**
   * Checks, changing nothing, what a guarded {@link #destroy(long, int)} of the live {@code entity}
   * checks before its first removal: the locks, then every removal (with the entity on the
   * destroying stack meanwhile, as in a batch's check). See {@link Registry#checkDestroy}.
   */
  void checkDestroyable(final long entity) {
    checkUnlockedFor(entity, 1);
    if (registry.isBeingDestroyed(entity)) {
      return; // its removals are under way: the destroy is a no-op
    }
    registry.pushDestroying(entity);
    try {
      checkDestroy(entity);
    } finally {
      registry.popDestroying();
    }
  }

  /**
   * Throws a {@link java.util.ConcurrentModificationException} if a storage that holds {@code
   * entity} is locked (by a chunk or parallel iteration, or a sort's comparator): destroying the
   * entity would remove its element there. Reads only, and allocates nothing unless it throws, so
   * that destroys refused on several threads at once change nothing of the registry.
   *
   * @param batchSize the number of entities of the destroy that {@code entity} belongs to (1: a
   *     destroy of one entity), for the message
   */
  private void checkUnlockedFor(final long entity, final int batchSize) {
    final Storage<?>[] storages = registry.storageTable();
    for (int i = registry.storageCount() - 1; i >= 0; i--) {
      final Storage<?> storage = storages[i];
      if (storage.isLocked() && SparseSet.ABSENT != storage.indexOf(entity)) {
        throw RegistryRefusals.lockedHolder(entity, batchSize, storage);
      }
    }
  }

  /** Checks, changing nothing, that every component of {@code entity} may be removed now. */
  private void checkDestroy(final long entity) {
    final Storage<?>[] storages = registry.storageTable();
    for (int i = registry.storageCount() - 1; i >= 0; i--) {
      final Storage<?> storage = storages[i];
      final int position = storage.indexOf(entity);
      if (SparseSet.ABSENT != position) {
        ElementRemoval.check(storage, entity, position);
      }
    }
  }

  /**
   * Removes every component of {@code entity}, which is on the destroying stack, publishes {@link
   * Registry#onDestroy()}, then releases it with {@code version} ({@link Registry#NEXT_VERSION}:
   * the next one). Returns {@code failure} or the first listener exception.
   */
  private Throwable destroyChecked(final long entity, final int version, Throwable failure) {
    try {
      // Listeners may create storages: those cannot hold the entity (additions are refused). The
      // table is read again at each step, as a new storage may have replaced it.
      for (int i = registry.storageCount() - 1; i >= 0; i--) {
        final Storage<?> storage = registry.storageTable()[i];
        final int position = storage.indexOf(entity);
        if (SparseSet.ABSENT != position
            && !(storage.hasGroups()
                && storage.upkeep().removeWithSpanningGroup(entity, position))) {
          failure = ElementRemoval.remove(storage, entity, position, failure, true);
        }
      }
      final Signal onDestroy = registry.onDestroy();
      if (!onDestroy.isEmpty()) {
        failure = onDestroy.publish(registry, entity, failure);
      }
    } finally {
      registry.popDestroying();
    }
    // A listener may have released it already (registry.clear() from a destroy listener).
    final EntityStorage entities = registry.entities();
    if (entities.valid(entity)) {
      entities.releaseLive(entity, version);
    }
    return failure;
  }

  /**
   * {@return whether every storage allows its elements to be removed in bulk} The part of {@link
   * Registry#destroysInBulk()} that asks the storages.
   */
  boolean storagesRemovableInBulk() {
    final Storage<?>[] storages = registry.storageTable();
    for (int i = 0; i < registry.storageCount(); i++) {
      if (!storages[i].upkeep().removableInBulk()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Destroys a checked batch when {@link Registry#destroysInBulk()}: storage by storage, each a
   * tight loop ({@link SparseSet#removeAll(long[], int, int)}), then the identifiers released in
   * batch order, so that recycling continues as if they had been destroyed one by one. An entity
   * listed twice is removed and released once. Every entity of the batch must be live when it
   * starts.
   */
  private void destroyInBulk(final long[] batch, final int from, final int to) {
    final Storage<?>[] storages = registry.storageTable();
    final int count = registry.storageCount();
    for (int s = count - 1; s >= 0; s--) {
      final Storage<?> storage = storages[s];
      if (storage.isEmpty()) {
        continue;
      }
      storage.removeAll(batch, from, to);
    }
    for (int s = 0; s < count; s++) {
      if (storages[s].hasGroups()) {
        ((OwningGroup) storages[s].includedBy[0]).followOwned();
      }
    }
    final EntityStorage entities = registry.entities();
    for (int i = from; i < to; i++) {
      if (entities.valid(batch[i])) {
        entities.release(batch[i]);
      }
    }
  }

  /**
   * Checks, changing nothing, that {@link Registry#clear()} may clear every storage (last created
   * first): none that holds elements is locked or iterated, nor refused by its groups.
   */
  void checkClear() {
    final Storage<?>[] storages = registry.storageTable();
    for (int i = registry.storageCount() - 1; i >= 0; i--) {
      final Storage<?> storage = storages[i];
      if (!storage.isEmpty()) {
        storage.checkRearrange("clear the registry, which clears");
        if (storage.hasGroups()) {
          registry.groups().checkClear(storage);
        }
      }
    }
  }

  /**
   * Clears every storage (last created first), then publishes {@link Registry#onDestroy()} for each
   * live entity; the registry is clearing, and releases the entities afterwards. Returns the first
   * listener exception, or {@code null}.
   */
  Throwable clearAll() {
    Throwable failure = null;
    for (int i = registry.storageCount() - 1; i >= 0; i--) {
      failure = registry.storageTable()[i].clear(failure);
    }
    final Signal onDestroy = registry.onDestroy();
    if (!onDestroy.isEmpty()) {
      // Listeners can neither create nor destroy entities now (refused, no-op): the live prefix
      // stays as it is, so each entity is announced once.
      final EntityStorage entities = registry.entities();
      final long[] packed = entities.packed();
      for (int at = entities.alive() - 1; at >= 0; at--) {
        failure = onDestroy.publish(registry, packed[at], failure);
      }
    }
    return failure;
  }
}
