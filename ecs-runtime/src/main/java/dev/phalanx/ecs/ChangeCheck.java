package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;

/**
 * The first step of a {@link ChangeSet}'s commit: checks every staged change against the world and
 * against the changes staged before it, and records what the apply step needs. It changes nothing
 * of the world (a storage created for a type the registry did not have yet excepted), so a refused
 * commit changes nothing; {@link ChangeRefusals} builds what it throws.
 *
 * <p>What it records, per check:
 *
 * <ul>
 *   <li>Per change, the storage it touches ({@link #storage}), and per run of row writes the
 *       storage's {@link Storage#structureStamp()} when its positions (in the set's {@code
 *       rangePositions}) were found: the apply reuses them while the stamp is unchanged (no element
 *       of the storage moved since).
 *   <li>The (entity, type) pairs changed so far, so that a second change of one pair is refused: a
 *       bit per entity index and type id for live entities, each word set listed so that {@link
 *       #forgetMarks()} clears only those; a bit per staging number and type id for created ones (a
 *       prefab's thousands of copies cost a bit each).
 *   <li>The entities destroyed so far, keyed by {@link #entityKey}, and how many of them are the
 *       set's own creations.
 *   <li>The storages that could refuse a destroy (locked, iterated, or observed by groups while an
 *       iteration or lock is active), listed at the first destroy: the check changes nothing, so
 *       the list holds for the whole check, and a destroy asks only them whether they hold it.
 * </ul>
 *
 * <p>Marks are cleared when a check refuses, and when the set forgets its changes (after a commit
 * past its check, or a clear): every check starts from none. The per-change storages are the
 * registry's own, overwritten by the next check.
 */
final class ChangeCheck {

  // What a change's target is: an entity of the world, or one the set creates.
  private static final int LIVE = 0;
  private static final int CREATED = 1;

  private final ChangeSet changes;
  private final Registry registry;

  // Per change, the storage it touches; as long as the set's change arrays.
  private Storage<?>[] storages = new Storage<?>[16];
  // Per run of row writes, its storage's structure stamp when its positions were found (-1: none
  // hold, a stamp never being negative).
  private long[] checkedStamps = new long[16];

  // Pairs changed so far, per type id: a bit per entity index for live entities (each word set
  // listed in liveMarks as type id << 32 | word), a bit per staging number for created ones.
  private long[][] livePairs = new long[32][];
  private long[] liveMarks = new long[16];
  private int liveMarkCount;
  private long[][] stagedPairs = new long[32][];
  // The entities destroyed so far, and whether any is one of the set's own creations (mostly not).
  private final LongLongMap destroyed = new LongLongMap(16);
  private boolean destroysCreated;
  // The storages that could refuse a destroy, listed by the check's first destroy.
  private Storage<?>[] guarded = new Storage<?>[8];
  private int guardedCount;
  private boolean guardedListed;
  // The live entities of a run of destroys, for the registry's destroy rules.
  private long[] batch = new long[8];
  // The relationships the set stages, checked once every change is.
  private final LinkCheck links;

  ChangeCheck(final ChangeSet changes, final Registry registry) {
    this.changes = changes;
    this.registry = registry;
    this.links = new LinkCheck(changes, registry);
  }

  /** Grows the per-change records with the set's change arrays, to {@code length}. */
  void grow(final int length) {
    storages = Arrays.copyOf(storages, length);
    checkedStamps = Arrays.copyOf(checkedStamps, length);
  }

  /** {@return the storage the check found for {@code change} (null: none exists)} */
  Storage<?> storage(final int change) {
    return storages[change];
  }

  /**
   * Notes the structure stamp of {@code storage} (null: none exists yet) as run {@code change}
   * starts: its positions, noted as its writes are staged ({@link #noteWrites}), hold while the
   * stamp stays the same.
   */
  void startWriteRun(final int change, final Storage<?> storage) {
    checkedStamps[change] = null == storage ? -1L : storage.structureStamp();
  }

  /**
   * Notes the positions of the writes {@code [at, at + count)} of run {@code change} in {@code
   * storage}: its caller has just looked at each element, so the lookup costs little then, and the
   * check need not repeat it (a cache miss per element in a large world). The stamp noted when the
   * run started covers them: stamps only count up, so if the storage's elements moved between two
   * writes of the run, the stamp differs at the check and every position is found again.
   */
  void noteWrites(final Storage<?> storage, final int at, final int count) {
    final long[] targets = changes.rangeTargets;
    final int[] positions = changes.rangePositions;
    if (null == storage) {
      // The run's stamp is -1 (startWriteRun): the check finds every position itself.
      return;
    }
    for (int i = at; i < at + count; i++) {
      positions[i] = storage.indexOf(targets[i]);
    }
  }

  /**
   * {@return whether the positions of write run {@code change} in {@code rangePositions} still
   * hold: its storage's structure stamp is still {@code stamp}}
   */
  boolean runPositionsHold(final int change, final long stamp) {
    return checkedStamps[change] == stamp;
  }

  /** Checks every change against the world and the changes staged before it. */
  void run() {
    final int size = changes.size;
    if (changes.staged > 0 || size > 0) {
      registry.checkChangeable(changes);
    }
    registry.entities().checkCreatable(changes.staged);
    for (int change = 0; change < size; change++) {
      final byte kind = changes.kinds[change];
      if (ChangeSet.DESTROY == kind) {
        checkDestroy(changes.targets[change]);
        if (change + 1 == size || ChangeSet.DESTROY != changes.kinds[change + 1]) {
          checkDestroyRules(change + 1);
        }
        continue;
      }
      final Storage<?> storage = storageFor(change);
      storages[change] = storage;
      final long target = changes.targets[change];
      if (ChangeSet.COPY == kind && Entity.isNull(target)) {
        checkSource(change);
        checkRange(change, storage);
      } else if (ChangeSet.WRITE_RUN == kind) {
        checkWriteRun(change, storage);
      } else {
        if (ChangeSet.COPY == kind) {
          checkSource(change);
        }
        checkComponent(change, storage, target);
      }
      links.note(change, storage);
    }
    links.run(this);
  }

  /** {@return whether a change of the set destroys {@code entity} (live or staged here)} */
  boolean destroys(final long entity) {
    return 0 != destroyed.size() && destroyed.containsKey(entityKey(entity));
  }

  /**
   * Checks a copy to many targets. Targets the set creates, with nothing destroyed by the set, only
   * need their pair marked (a prefab's thousands of copies): the lock and group checks do not
   * depend on the target, and are made once. Other targets get the full check.
   */
  private void checkRange(final int change, final Storage<?> storage) {
    final int rangeStart = changes.rangeStarts[change];
    if (rangeStart < 0) {
      checkCreatedRun(change, storage, -1 - rangeStart, changes.rangeCounts[change]);
      return;
    }
    final int end = rangeStart + changes.rangeCounts[change];
    if (rangeStart == end) {
      return;
    }
    final long[] targets = changes.rangeTargets;
    storage.checkUnlocked(false, storage, targets[rangeStart]);
    checkGroupsQuiet(change, storage, targets[rangeStart]);
    final boolean noDestroys = 0 == destroyed.size();
    for (int i = rangeStart; i < end; i++) {
      final long entity = targets[i];
      if (noDestroys && changes.isStagedHere(entity)) {
        markPair(change, entity, CREATED);
      } else {
        checkComponent(change, storage, entity);
      }
    }
  }

  /** Checks a copy to the run of creations {@code [n, n + count)}, as {@link #checkRange}. */
  private void checkCreatedRun(
      final int change, final Storage<?> storage, final int n, final int count) {
    if (0 == count) {
      return;
    }
    if (0 != destroyed.size()) {
      for (int i = 0; i < count; i++) {
        checkComponent(change, storage, changes.handle(n + i));
      }
      return;
    }
    storage.checkUnlocked(false, storage, changes.handle(n));
    checkGroupsQuiet(change, storage, changes.handle(n));
    final long[] bits = stagedBits(changes.types[change].id());
    final int end = n + count;
    int k = n;
    while (k < end) {
      if (0 == (k & 63) && end - k >= 64) {
        // A whole word of the run at once.
        if (0 != bits[k >>> 6]) {
          final int taken = k + Long.numberOfTrailingZeros(bits[k >>> 6]);
          markPair(change, changes.handle(taken), CREATED);
        }
        bits[k >>> 6] = -1L;
        k += 64;
        continue;
      }
      markPair(change, changes.handle(k), CREATED);
      k++;
    }
  }

  /**
   * {@return the storage of the change's type: the registry's, created for an insertion if it has
   * none yet; null for a change that needs none to exist}
   */
  private Storage<?> storageFor(final int change) {
    final ComponentType<?, ?> type = changes.types[change];
    final Storage<?> found = registry.findStorage(type);
    final byte kind = changes.kinds[change];
    if (null != found
        || ChangeSet.REPLACE == kind
        || ChangeSet.WRITE_RUN == kind
        || ChangeSet.REMOVE == kind) {
      return found;
    }
    return storageIn(registry, type);
  }

  private static <T, S extends Storage<T>> S storageIn(
      final Registry registry, final ComponentType<T, S> type) {
    return registry.storage(type);
  }

  /** Refuses a copy whose source no longer holds the element. */
  private void checkSource(final int change) {
    final Storage<?> source = (Storage<?>) changes.values[change];
    final long sourceEntity = changes.sources[change];
    if (SparseSet.ABSENT == source.indexOf(sourceEntity)) {
      throw ChangeRefusals.sourceGone(
          changes, change, changes.targets[change], sourceEntity, changes.types[change], source);
    }
  }

  /** Checks one change of {@code entity}'s component in {@code storage} (null: none exists). */
  private void checkComponent(final int change, final Storage<?> storage, final long entity) {
    final int origin = liveState(change, entity);
    markPair(change, entity, origin);
    final boolean present = LIVE == origin && null != storage && storage.contains(entity);
    switch (changes.kinds[change]) {
      case ChangeSet.EMPLACE, ChangeSet.COPY, ChangeSet.EMPLACE_ROW -> {
        if (present) {
          throw refusal(change, entity, "it already has one; stage replace to write it");
        }
        if (LIVE == origin) {
          registry.checkInsertionState(entity, changes.types[change]);
        }
        storage.checkUnlocked(false, storage, entity);
        checkGroupsQuiet(change, storage, entity);
      }
      case ChangeSet.REPLACE, ChangeSet.WRITE_RUN -> {
        if (!present) {
          throw refusal(change, entity, "it has no " + changes.types[change].name());
        }
      }
      default -> {
        if (present) {
          if (storage.isLocked() || storage.isIterated()) {
            // Refused, unless a permit lets this thread change it: the message only then.
            storage.checkRearrange(ChangeRefusals.describe(changes, change, entity));
          }
          checkGroupsQuiet(change, storage, entity);
        }
      }
    }
  }

  /**
   * Checks a run of row writes, keeping the positions found in {@code rangePositions} for the
   * apply: the staged ones while the storage's structure stamp is unchanged, else found again. A
   * live entity the storage holds is valid (a storage holds live entities only), so one lookup
   * answers both questions; any other target gets the full check, which refuses it with the reason
   * (or passes an element appended since staging).
   */
  private void checkWriteRun(final int change, final Storage<?> storage) {
    final int start = changes.rangeStarts[change];
    final int end = start + changes.rangeCounts[change];
    final long[] targets = changes.rangeTargets;
    final int[] positions = changes.rangePositions;
    final boolean noted = null != storage && checkedStamps[change] == storage.structureStamp();
    for (int i = start; i < end; i++) {
      final long entity = targets[i];
      int at;
      if (noted) {
        at = positions[i];
      } else {
        // A staged handle is no element of the storage: ABSENT, as for any other non-member.
        at = null == storage ? SparseSet.ABSENT : storage.indexOf(entity);
      }
      if (SparseSet.ABSENT == at
          || (0 != destroyed.size() && destroyed.containsKey(entityKey(entity)))) {
        // The full check refuses with the reason, or passes an element appended since staging.
        checkComponent(change, storage, entity);
        at = storage.indexOf(entity);
      } else {
        markPair(change, entity, LIVE);
      }
      positions[i] = at;
    }
    // Every target of a run whose storage does not exist is refused above: it exists here.
    checkedStamps[change] = storage.structureStamp();
  }

  /**
   * Records that the set changes {@code entity}'s component of the change's type, refusing a second
   * change of it.
   */
  private void markPair(final int change, final long entity, final int origin) {
    final int id = changes.types[change].id();
    final boolean first;
    if (CREATED == origin) {
      first = markStaged(id, Entity.version(entity) - changes.base);
    } else {
      first = markLive(id, Entity.index(entity));
    }
    if (!first) {
      throw refusal(
          change,
          entity,
          "an earlier change of this set already changes it; stage one change per component and"
              + " entity");
    }
  }

  /** Sets the bit of staging number {@code n} for type {@code id}; returns whether it was clear. */
  private boolean markStaged(final int id, final int n) {
    final long[] bits = stagedBits(id);
    final long bit = 1L << n;
    final boolean clear = 0 == (bits[n >>> 6] & bit);
    bits[n >>> 6] |= bit;
    return clear;
  }

  /**
   * Sets the bit of entity index {@code index} for type {@code id}, listing its word if it was the
   * word's first; returns whether the bit was clear.
   */
  private boolean markLive(final int id, final int index) {
    final int word = index >>> 6;
    final long[] bits = liveBits(id, word);
    final long bit = 1L << index;
    if (0 != (bits[word] & bit)) {
      return false;
    }
    if (0 == bits[word]) {
      if (liveMarkCount == liveMarks.length) {
        liveMarks = Arrays.copyOf(liveMarks, liveMarkCount * 2);
      }
      liveMarks[liveMarkCount++] = (long) id << 32 | word;
    }
    bits[word] |= bit;
    return true;
  }

  /** Makes room for type {@code id} in both tables of pairs, which keep one length. */
  private void typeRoom(final int id) {
    if (id >= livePairs.length) {
      final int length = Math.max(id + 1, livePairs.length * 2);
      livePairs = Arrays.copyOf(livePairs, length);
      stagedPairs = Arrays.copyOf(stagedPairs, length);
    }
  }

  /** {@return type {@code id}'s bits, one per entity index, with room for word {@code word}} */
  private long[] liveBits(final int id, final int word) {
    typeRoom(id);
    long[] bits = livePairs[id];
    if (null == bits || bits.length <= word) {
      final int words = Math.max(word + 1, null == bits ? 64 : bits.length * 2);
      bits = null == bits ? new long[words] : Arrays.copyOf(bits, words);
      livePairs[id] = bits;
    }
    return bits;
  }

  /** {@return type {@code id}'s bits, one per staging number, with room for every creation} */
  private long[] stagedBits(final int id) {
    typeRoom(id);
    long[] bits = stagedPairs[id];
    final int words = stagedWords();
    if (null == bits || bits.length < words) {
      bits = null == bits ? new long[words] : Arrays.copyOf(bits, Math.max(words, bits.length * 2));
      stagedPairs[id] = bits;
    }
    return bits;
  }

  /** {@return how many words of a table of staged pairs hold a bit per staging number} */
  private int stagedWords() {
    return (changes.staged + 63) >>> 6;
  }

  /**
   * Returns whether {@code entity} is {@link #LIVE} or {@link #CREATED} by the set; refuses a
   * target that is neither live nor staged here, or that an earlier change destroys.
   */
  private int liveState(final int change, final long entity) {
    if (ChangeSet.isStaged(entity)) {
      if (!changes.isStagedHere(entity)) {
        throw refusal(change, entity, "it is a staged handle of another change set");
      }
      if (destroysCreated && destroyed.containsKey(entityKey(entity))) {
        throw refusal(change, entity, "an earlier change of this set destroys it");
      }
      return CREATED;
    }
    if (!registry.valid(entity)) {
      throw refusal(change, entity, "the entity is not valid (destroyed or never created)");
    }
    if (0 != destroyed.size() && destroyed.containsKey(entityKey(entity))) {
      throw refusal(change, entity, "an earlier change of this set destroys it");
    }
    return LIVE;
  }

  /**
   * Checks a destroy: its target is live or staged here and not destroyed already; a live one must
   * be destroyable, and each guarded storage that holds it must allow the removal.
   */
  private void checkDestroy(final long entity) {
    final int change = -1;
    liveState(change, entity);
    if (ChangeSet.isStaged(entity)) {
      destroysCreated = true;
    } else {
      registry.checkDestroyable(entity);
      if (!guardedListed) {
        findGuarded();
      }
      for (int g = 0; g < guardedCount; g++) {
        final Storage<?> storage = guarded[g];
        if (storage.contains(entity)) {
          storage.checkRearrange(ChangeRefusals.destroying(changes, entity));
          checkGroupsQuiet(change, storage, entity);
        }
      }
    }
    destroyed.put(entityKey(entity), 1L);
  }

  /**
   * Runs the registry's destroy rules ({@link DestroyCheck}: a {@code REFUSE} relationship's, the
   * policies' checks under an iteration) on the run of destroys that ends before change {@code
   * end}, as one batch, as {@link Registry#destroy(long[], int, int)} runs them; the apply destroys
   * the run as that batch. The set's own creations have no relationships in the world: the rules
   * see the live entities.
   */
  private void checkDestroyRules(final int end) {
    int from = end - 1;
    while (from > 0 && ChangeSet.DESTROY == changes.kinds[from - 1]) {
      from--;
    }
    int count = 0;
    for (int change = from; change < end; change++) {
      final long entity = changes.targets[change];
      if (!ChangeSet.isStaged(entity)) {
        if (count == batch.length) {
          batch = Arrays.copyOf(batch, count * 2);
        }
        batch[count++] = entity;
      }
    }
    if (0 != count) {
      registry.checkDestroyRules(batch, 0, count);
    }
  }

  /**
   * Lists the storages that could refuse a destroy: only they need asking whether they hold the
   * entity (a destroy of an entity with ten components then costs no lookup but its own).
   */
  private void findGuarded() {
    guardedListed = true;
    guardedCount = 0;
    final boolean groupsGuarded = registry.groups().guards.any();
    for (int s = 0; s < registry.storageCount(); s++) {
      final Storage<?> storage = registry.storageAt(s);
      if (storage.isLocked() || storage.isIterated() || (groupsGuarded && storage.hasGroups())) {
        if (guardedCount == guarded.length) {
          guarded = Arrays.copyOf(guarded, guardedCount * 2);
        }
        guarded[guardedCount++] = storage;
      }
    }
  }

  /** Refuses a change of a storage that groups observe while an iteration or lock is active. */
  private void checkGroupsQuiet(final int change, final Storage<?> storage, final long entity) {
    if (storage.hasGroups() && registry.groups().guards.any()) {
      throw ChangeRefusals.groupsObserve(changes, change, entity, storage);
    }
  }

  private IllegalArgumentException refusal(
      final int change, final long entity, final String reason) {
    return ChangeRefusals.refusal(changes, change, entity, reason);
  }

  /** A key for an entity: its index, or its staging number with bit 32 set; never -1. */
  static long entityKey(final long entity) {
    return ChangeSet.isStaged(entity)
        ? 0x1_0000_0000L | (Entity.version(entity) & 0xFFFF_FFFFL)
        : Entity.index(entity);
  }

  /** Forgets the pairs, destroys and guarded storages recorded; keeps the per-change storages. */
  void forgetMarks() {
    for (int i = 0; i < liveMarkCount; i++) {
      livePairs[(int) (liveMarks[i] >>> 32)][(int) liveMarks[i]] = 0L;
    }
    liveMarkCount = 0;
    links.forget();
    destroysCreated = false;
    // The guarded storages are the registry's own, which it holds as long as the set: kept as they
    // are, overwritten by the next list.
    guardedListed = false;
    destroyed.clear();
    final int words = stagedWords();
    for (final long[] bits : stagedPairs) {
      if (null != bits) {
        Arrays.fill(bits, 0, Math.min(words, bits.length), 0L);
      }
    }
  }
}
