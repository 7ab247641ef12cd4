package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.Arrays;

/**
 * The second and third steps of a {@link ChangeSet}'s commit, once {@link ChangeCheck} passed every
 * change and the staged entities are created: applies every insertion and value write in staging
 * order, unannounced, logging what it made; then announces the log; then runs the removals and
 * destructions in staging order, announced as the registry announces them.
 *
 * <p>Invariants kept:
 *
 * <ul>
 *   <li>No user code runs while changes are applied but the {@link ChangeSet.RowWriter}s of row
 *       changes and the {@link ChangeSet.References} of copies, which only write their element.
 *   <li>Every staged handle a change holds is resolved to its created entity, and every
 *       {@code @EntityRef} field an element is written with is rewritten through the set ({@link
 *       ChangeSet#written}) after its mapping.
 *   <li>A row write reuses the position its check found while its storage's structure stamp is
 *       unchanged; positions of a run are taken after the run's insertions, where groups keep them.
 *   <li>The log holds, per insertion made, its storage, entity and pending mark (a copy or row
 *       insertion with nothing to announce is left out), per value write {@link #UPDATE}, and per
 *       run of writes its change with {@link #UPDATE_RUN}; the announce step empties it.
 *   <li>Nothing thrown stops the commit: a writer's or listener's exception is collected and
 *       returned, the first with later ones suppressed.
 * </ul>
 */
final class ChangeApply {

  // A log mark for a value write, announced as an update; insertions log their pending mark.
  private static final int UPDATE = -2;
  // A log mark for a run of value writes, its entity the run's change: an update per target.
  private static final int UPDATE_RUN = -3;

  private final ChangeSet changes;
  private final ChangeCheck check;
  private final Registry registry;
  private final ReferenceRewriter rewriter = new ReferenceRewriter();

  // What the apply made, to announce: storage, entity and pending mark, or UPDATE.
  private Storage<?>[] logStorages = new Storage<?>[16];
  private long[] logEntities = new long[16];
  private int[] logMarks = new int[16];
  private int logSize;

  // A run of destroys, applied as one batch.
  private long[] batch = new long[8];

  // A run of row changes handed to its writer at once: positions and rows.
  private int[] runPositions = new int[16];
  private int[] runRows = new int[16];

  ChangeApply(final ChangeSet changes, final ChangeCheck check, final Registry registry) {
    this.changes = changes;
    this.check = check;
    this.registry = registry;
  }

  /** Applies every checked change, then announces; returns what listeners threw. */
  Throwable run() {
    logSize = 0;
    // Only a row writer (user code, which should not throw) can fail here.
    Throwable failure = null;
    final int size = changes.size;
    int change = 0;
    while (change < size) {
      int next = change + 1;
      switch (changes.kinds[change]) {
        case ChangeSet.EMPLACE -> insertValue(change);
        case ChangeSet.COPY -> insertCopies(change);
        case ChangeSet.REPLACE -> writeValue(change);
        case ChangeSet.WRITE_RUN -> failure = writeRun(change, failure);
        case ChangeSet.EMPLACE_ROW -> {
          next = rowRunEnd(change);
          failure = insertRows(change, next, failure);
        }
        default -> {}
      }
      change = next;
    }
    failure = announce(failure);
    int later = 0;
    while (later < size) {
      final byte kind = changes.kinds[later];
      int next = later + 1;
      if (ChangeSet.REMOVE == kind) {
        failure = removeLater(later, failure);
      } else if (ChangeSet.DESTROY == kind) {
        next = changes.destroyRunEnd(later);
        failure = destroyLater(later, next, failure);
      }
      later = next;
    }
    return failure;
  }

  private void insertValue(final int change) {
    final Storage<?> storage = check.storage(change);
    final long entity = changes.resolve(changes.targets[change]);
    stageValue(storage, changes.values[change]);
    final int at = storage.prepareInsert(entity);
    storage.writeStaged(at);
    rewrite(storage, at, 0, null);
    log(storage, entity, storage.commitUnannounced(entity, at));
  }

  private void writeValue(final int change) {
    final Storage<?> storage = check.storage(change);
    final long entity = changes.resolve(changes.targets[change]);
    stageValue(storage, changes.values[change]);
    final int at = storage.indexOf(entity);
    storage.writeStaged(at);
    rewrite(storage, at, 0, null);
    log(storage, entity, UPDATE);
  }

  /** {@return the end of the run of row insertions from {@code from}: same type and writer} */
  private int rowRunEnd(final int from) {
    final byte[] kinds = changes.kinds;
    final ComponentType<?, ?>[] types = changes.types;
    final Object[] values = changes.values;
    final int size = changes.size;
    int end = from + 1;
    while (end < size
        && kinds[end] == ChangeSet.EMPLACE_ROW
        && types[end] == types[from]
        && values[end] == values[from]) {
      end++;
    }
    return end;
  }

  /**
   * Applies the row insertions {@code [from, to)}, one type and writer: the insertions first
   * (unannounced, each logged; groups may move elements), then the writer writes every element at
   * its final position at once.
   */
  private Throwable insertRows(final int from, final int to, final Throwable failure) {
    final Storage<?> storage = check.storage(from);
    final int count = to - from;
    reserveRun(count);
    for (int k = 0; k < count; k++) {
      final long entity = changes.resolve(changes.targets[from + k]);
      runRows[k] = (int) changes.sources[from + k];
      final int mark = storage.commitUnannounced(entity, storage.prepareInsert(entity));
      if (Storage.NO_PENDING != mark || !storage.insertionQuiet()) {
        log(storage, entity, mark);
      }
    }
    // Found once every insertion of the run is made: an owning group moves its new members.
    for (int k = 0; k < count; k++) {
      runPositions[k] = storage.indexOf(changes.resolve(changes.targets[from + k]));
    }
    return writeRows(storage, (ChangeSet.RowWriter) changes.values[from], count, failure);
  }

  /**
   * Applies a run of row writes: its writer writes every element at the position its check found
   * (found again if an element of the storage moved or left since), and the run is logged once for
   * announcing.
   */
  private Throwable writeRun(final int change, final Throwable failure) {
    final Storage<?> storage = check.storage(change);
    final int start = changes.rangeStarts[change];
    final int count = changes.rangeCounts[change];
    final long[] targets = changes.rangeTargets;
    final int[] positions = changes.rangePositions;
    if (!check.runPositionsHold(change, storage.structureStamp())) {
      for (int i = start; i < start + count; i++) {
        positions[i] = storage.indexOf(targets[i]);
      }
    }
    reserveRun(count);
    System.arraycopy(positions, start, runPositions, 0, count);
    System.arraycopy(changes.rangeRows, start, runRows, 0, count);
    log(storage, change, UPDATE_RUN);
    return writeRows(storage, (ChangeSet.RowWriter) changes.values[change], count, failure);
  }

  private void reserveRun(final int count) {
    if (runPositions.length < count) {
      runPositions = new int[Math.max(count, 2 * runPositions.length)];
      runRows = new int[runPositions.length];
    }
  }

  /**
   * Has {@code writer} write rows {@code runRows} at {@code runPositions}, {@code [0, count)}, at
   * once; stamps each element and rewrites its staged references. What the writer throws is
   * collected, the elements kept as written.
   */
  private Throwable writeRows(
      final Storage<?> storage,
      final ChangeSet.RowWriter writer,
      final int count,
      Throwable failure) {
    try {
      writer.writeAll(storage, runPositions, runRows, count);
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
    }
    for (int k = 0; k < count; k++) {
      storage.markWritten(runPositions[k]);
    }
    if (rewriter.hasRefs(storage)) {
      for (int k = 0; k < count; k++) {
        rewriter.rewrite(storage, runPositions[k], 0, null, changes);
      }
    }
    return failure;
  }

  private void insertCopies(final int change) {
    final Storage<?> storage = check.storage(change);
    final Storage<?> source = (Storage<?>) changes.values[change];
    final int from = source.indexOf(changes.sources[change]);
    final long target = changes.targets[change];
    if (!Entity.isNull(target)) {
      insertCopy(storage, source, from, changes.resolve(target), 0, changes.maps[change]);
      return;
    }
    final int start = changes.rangeStarts[change];
    if (start < 0) {
      insertCopies(storage, source, from, changes.created, -1 - start, change);
      return;
    }
    final long[] targets = changes.rangeTargets;
    for (int i = start; i < start + changes.rangeCounts[change]; i++) {
      targets[i] = changes.resolve(targets[i]);
    }
    insertCopies(storage, source, from, targets, start, change);
  }

  /**
   * Inserts copies of {@code source}'s element at {@code from} for {@code entities[start, start +
   * count)}: as one bulk insertion where announcing would run nothing, else one by one.
   */
  private void insertCopies(
      final Storage<?> storage,
      final Storage<?> source,
      final int from,
      final long[] entities,
      final int start,
      final int change) {
    final int count = changes.rangeCounts[change];
    final ChangeSet.References references = changes.maps[change];
    if (storage.bulkSilent()) {
      stageCopy(storage, source, from);
      final int first = storage.prepareInsertAll(entities, start, start + count);
      storage.writeStaged(first, count);
      if (rewriter.hasRefs(storage)) {
        for (int i = 0; i < count; i++) {
          rewrite(storage, first + i, i, references);
        }
      }
      storage.commitInsertAll(entities, start, start + count, first);
      return;
    }
    final long sourceEntity = changes.sources[change];
    for (int i = 0; i < count; i++) {
      // Each insertion may move the source's element (an owning group swaps the new element into
      // its part of the storage, and the source may be that storage): look it up again.
      final int at = 0 == i ? from : source.indexOf(sourceEntity);
      insertCopy(storage, source, at, entities[start + i], i, references);
    }
  }

  private void insertCopy(
      final Storage<?> storage,
      final Storage<?> source,
      final int from,
      final long entity,
      final int copy,
      final ChangeSet.References references) {
    stageCopy(storage, source, from);
    final int at = storage.prepareInsert(entity);
    storage.writeStaged(at);
    rewrite(storage, at, copy, references);
    final int mark = storage.commitUnannounced(entity, at);
    if (Storage.NO_PENDING != mark || !storage.insertionQuiet()) {
      log(storage, entity, mark);
    }
  }

  /** Rewrites the references of the element at {@code position}: mapped, then staged handles. */
  private void rewrite(
      final Storage<?> storage,
      final int position,
      final int copy,
      final ChangeSet.References references) {
    if (rewriter.hasRefs(storage)) {
      rewriter.rewrite(storage, position, copy, references, changes);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void stageValue(final Storage<T> storage, final Object value) {
    storage.stage((T) value);
  }

  @SuppressWarnings("unchecked")
  private static <T> void stageCopy(
      final Storage<T> storage, final Storage<?> source, final int at) {
    storage.stageFrom((Storage<T>) source, at);
  }

  private void log(final Storage<?> storage, final long entity, final int mark) {
    if (logSize == logMarks.length) {
      final int grown = logSize * 2;
      logStorages = Arrays.copyOf(logStorages, grown);
      logEntities = Arrays.copyOf(logEntities, grown);
      logMarks = Arrays.copyOf(logMarks, grown);
    }
    logStorages[logSize] = storage;
    logEntities[logSize] = entity;
    logMarks[logSize] = mark;
    logSize++;
  }

  /** Publishes creation, then insertions last first, then updates in order; empties the log. */
  private Throwable announce(Throwable failure) {
    final Signal onCreate = registry.onCreate();
    if (!onCreate.isEmpty()) {
      final long[] created = changes.created;
      for (int i = 0; i < changes.createdCount; i++) {
        failure = onCreate.publish(registry, created[i], failure);
      }
    }
    for (int i = logSize - 1; i >= 0; i--) {
      if (UPDATE != logMarks[i] && UPDATE_RUN != logMarks[i]) {
        failure = logStorages[i].announceInsert(logEntities[i], logMarks[i], failure);
      }
    }
    for (int i = 0; i < logSize; i++) {
      final Storage<?> storage = logStorages[i];
      if (UPDATE == logMarks[i]) {
        failure = announceUpdate(storage, logEntities[i], failure);
      } else if (UPDATE_RUN == logMarks[i] && !storage.onUpdate().isEmpty()) {
        final int change = (int) logEntities[i];
        final int start = changes.rangeStarts[change];
        for (int k = start; k < start + changes.rangeCounts[change]; k++) {
          failure = announceUpdate(storage, changes.rangeTargets[k], failure);
        }
      }
    }
    Arrays.fill(logStorages, 0, logSize, null);
    logSize = 0;
    return failure;
  }

  /** Publishes an update of {@code entity}, unless listeners destroyed it or stripped it. */
  private Throwable announceUpdate(final Storage<?> storage, final long entity, Throwable failure) {
    if (!storage.onUpdate().isEmpty() && storage.contains(entity)) {
      failure = storage.onUpdate().publish(registry, entity, failure);
    }
    return failure;
  }

  /** Runs a staged removal, unless its storage never existed or listeners destroyed its target. */
  private Throwable removeLater(final int change, Throwable failure) {
    final Storage<?> storage = check.storage(change);
    final long entity = changes.resolve(changes.targets[change]);
    if (null == storage || !registry.valid(entity)) {
      return failure;
    }
    try {
      storage.remove(entity);
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
    }
    return failure;
  }

  /**
   * Runs the staged destroys {@code [from, to)} as one batch, as the check ran the registry's
   * destroy rules on them; a target that listeners destroyed already is left out.
   */
  private Throwable destroyLater(final int from, final int to, Throwable failure) {
    int count = 0;
    for (int change = from; change < to; change++) {
      final long entity = changes.resolve(changes.targets[change]);
      if (registry.valid(entity)) {
        if (count == batch.length) {
          batch = Arrays.copyOf(batch, count * 2);
        }
        batch[count++] = entity;
      }
    }
    if (0 == count) {
      return failure;
    }
    try {
      registry.destroy(batch, 0, count);
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
    }
    return failure;
  }
}
