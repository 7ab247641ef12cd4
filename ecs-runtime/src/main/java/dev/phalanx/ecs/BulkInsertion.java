package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.Objects;

/**
 * Bulk insertion into a {@link Storage}: EnTT's {@code storage.insert(first, last, value)}, as the
 * storage's {@link Storage#prepareInsertAll} and {@link Storage#commitInsertAll} expose it. A range
 * of entities is one change: checked in full before anything changes, then appended in range order,
 * then announced entity by entity in range order.
 *
 * <p>Invariants kept between the two steps: {@link #prepare} leaves the range's elements invisible
 * and the storage's size unchanged, with room made for them at {@code [first, first + count)}, the
 * positions following the last element; {@link #commit} refuses if the size moved meanwhile, so a
 * prepared range is committed whole or not at all. No user code runs between the two. The groups
 * observing the storage are brought up to date before the first listener runs, so listeners see the
 * whole range inserted.
 */
final class BulkInsertion {

  private BulkInsertion() {}

  /** The body of {@link Storage#prepareInsertAll}: checks, then makes room; returns the first. */
  static int prepare(
      final Storage<?> storage, final long[] entities, final int from, final int to) {
    Objects.checkFromToIndex(from, to, entities.length);
    final int first = storage.size();
    if (from == to) {
      return first;
    }
    for (int i = from; i < to; i++) {
      storage.checkInsertable(entities[i]);
    }
    storage.checkUnlocked(false, storage, entities[from]);
    if (storage.hasGroups() && storage.guards.any()) {
      throw StorageRefusals.bulkObserved(storage, to - from);
    }
    final int duplicate = storage.prepareAppend(entities, from, to);
    if (duplicate >= 0) {
      throw StorageRefusals.listedTwice(storage, entities, from, to, duplicate);
    }
    storage.ensurePage(first + (to - from) - 1);
    return first;
  }

  /** The body of {@link Storage#commitInsertAll}: makes the range visible, then announces it. */
  static void commit(
      final Storage<?> storage,
      final long[] entities,
      final int from,
      final int to,
      final int first) {
    if (from == to) {
      return;
    }
    if (first != storage.size()) {
      throw StorageRefusals.bulkChanged(storage);
    }
    int mark = Storage.NO_PENDING;
    if (!storage.hasGroups()) {
      storage.appendAll(entities, from, to);
    } else {
      final OwningGroup direct = storage.directInsertOwner();
      if (null != direct) {
        insertDirectly(storage, direct, entities, from, to, first);
      } else {
        mark = insertPlanned(storage, entities, from, to, first);
      }
    }
    final Groups groups = storage.groups();
    if (storage.insertionQuiet() && (Storage.NO_PENDING == mark || !groups.pendingSince(mark))) {
      return;
    }
    Failures.rethrow(
        Storage.NO_PENDING == mark
            ? storage.publishInserted(entities, from, to, null)
            : groups.publishPendingInOrder(mark, entities, from, to, storage));
  }

  /** Inserts the range where one owning group may be updated directly, element by element. */
  private static void insertDirectly(
      final Storage<?> storage,
      final OwningGroup direct,
      final long[] entities,
      final int from,
      final int to,
      final int first) {
    for (int i = from, position = first; i < to; i++, position++) {
      final long entity = entities[i];
      storage.insertAt(entity, position);
      direct.enterDirectly(entity, storage, position);
    }
  }

  /**
   * Inserts the range through the groups' plans, keeping each entity's entries and exits pending;
   * returns the mark they start at. Nothing is iterated or locked ({@link #prepare} checked): no
   * plan can be refused.
   */
  private static int insertPlanned(
      final Storage<?> storage,
      final long[] entities,
      final int from,
      final int to,
      final int first) {
    final Groups groups = storage.groups();
    final int mark = groups.pendingMark();
    for (int i = from, position = first; i < to; i++, position++) {
      final long entity = entities[i];
      groups.planInsert(storage, entity, position);
      storage.insertAt(entity, position);
      groups.applyInsert(storage, entity, position);
      groups.pushPending();
    }
    return mark;
  }

  /**
   * Returns whether a bulk insertion into {@code storage} would pass the groups' check now and
   * publish nothing; see {@link Storage#bulkSilent()}.
   */
  static boolean silent(final Storage<?> storage) {
    if (!storage.insertionQuiet()) {
      return false;
    }
    if (!storage.hasGroups()) {
      return true;
    }
    if (storage.guards.any()) {
      return false;
    }
    return !signalled(storage.includedBy) && !signalled(storage.excludedBy);
  }

  /** Returns whether one of {@code groups} has entry or exit listeners. */
  private static boolean signalled(final Group[] groups) {
    for (final Group group : groups) {
      if (!group.onEnter.isEmpty() || !group.onLeave.isEmpty()) {
        return true;
      }
    }
    return false;
  }
}
