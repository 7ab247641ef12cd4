package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;

/**
 * The checked removal of one element from a {@link Storage}: the path that a removal takes when
 * something may refuse or observe it (a listener, a group, an iteration or a lock), and that
 * destroys and clears force through. It checks, publishes destroy while the element is still
 * readable, checks again if listeners ran, then removes the element and updates the groups, then
 * publishes the internal after-remove signal.
 *
 * <p>Invariants kept:
 *
 * <ul>
 *   <li>A removal that is refused throws before anything changes; one refused after its destroy
 *       listeners ran carries their first exception as suppressed.
 *   <li>The groups' plan applied is the one made after the last user code ran: a plan made before
 *       the destroy listeners is made again.
 *   <li>While a removal's destroy signal is published, it is registered on the calling thread's
 *       {@link PendingRemovals}: a listener asking for the same removal again is a no-op.
 * </ul>
 */
final class ElementRemoval {

  // Removals whose destroy signal is being published, per thread: a listener removing the same
  // element again is a no-op. Per thread because in-place storages allow concurrent removals.
  private static final ThreadLocal<PendingRemovals> PENDING =
      ThreadLocal.withInitial(PendingRemovals::new);

  private ElementRemoval() {}

  /** {@return whether the calling thread is announcing the removal of {@code entity} from it} */
  static boolean announcing(final Storage<?> storage, final long entity) {
    return PENDING.get().contains(storage, entity);
  }

  /**
   * Removes {@code entity}'s element at {@code position}: checks, publishes destroy (unless the
   * same removal is already being announced), checks again if listeners ran, then removes it and
   * updates the groups. Returns {@code failure} or the first listener exception. With {@code force}
   * (destroy and clear, which must complete) a removal that listeners made unsafe still happens and
   * a {@link java.util.ConcurrentModificationException} is added to the failures.
   */
  static Throwable remove(
      final Storage<?> storage,
      final long entity,
      int position,
      Throwable failure,
      final boolean force) {
    final boolean observed = storage.hasGroups();
    // Whether the groups' plan for this removal is current (planned after the last user code ran).
    boolean planned = false;
    if (!force) {
      check(storage, entity, position, observed);
      planned = observed;
    }
    final Signal onDestroy = storage.onDestroy();
    if (!onDestroy.isEmpty()) {
      final PendingRemovals pending = PENDING.get();
      if (!pending.contains(storage, entity)) {
        pending.push(storage, entity);
        try {
          failure = onDestroy.publish(storage.registry(), entity, failure);
        } finally {
          pending.pop();
        }
        position = storage.indexOf(entity);
        if (SparseSet.ABSENT == position) {
          // A listener removed it (through another path, such as destroying the entity).
          return failure;
        }
      }
      try {
        check(storage, entity, position, observed);
        planned = observed;
      } catch (final RuntimeException refused) {
        if (!force) {
          // The listeners' first exception, if any, travels with the refusal.
          if (null != failure) {
            refused.addSuppressed(failure);
          }
          throw refused;
        }
        failure = Failures.add(failure, refused);
        planned = false;
      }
    }
    return apply(storage, entity, position, failure, observed, planned);
  }

  /** Removes the element, updating the groups (planning again unless {@code planned}). */
  private static Throwable apply(
      final Storage<?> storage,
      final long entity,
      final int position,
      Throwable failure,
      final boolean observed,
      final boolean planned) {
    if (observed) {
      final Groups groups = storage.groups();
      if (!planned) {
        groups.planRemove(storage, entity, position, false);
      }
      failure = groups.applyRemove(storage, entity, position, failure);
    } else {
      storage.removeAt(position);
    }
    if (!storage.afterRemove.isEmpty()) {
      failure = storage.afterRemove.publish(storage.registry(), entity, failure);
    }
    return failure;
  }

  /**
   * Checks, without changing anything, that {@code entity}'s element at {@code position} may go.
   */
  static void check(final Storage<?> storage, final long entity, final int position) {
    check(storage, entity, position, storage.hasGroups());
  }

  private static void check(
      final Storage<?> storage, final long entity, final int position, final boolean observed) {
    if (observed) {
      final Groups groups = storage.groups();
      groups.planRemove(storage, entity, position, groups.guards.any());
    } else {
      storage.checkRemoveAt(position, entity, storage);
    }
  }
}
