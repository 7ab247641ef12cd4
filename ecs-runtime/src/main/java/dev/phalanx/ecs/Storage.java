package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.RecordedFields;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A sparse set that also holds one component per entity, in pages of {@code pageSize} elements, and
 * publishes lifecycle signals. It is the base of every storage: {@link ObjectStorage} (one
 * reference per element), {@link EmptyStorage} and {@link VoidStorage} (no payload) and the
 * struct-of-arrays storages that the annotation processor generates (one primitive page array per
 * field).
 *
 * <h2>The mutation path</h2>
 *
 * <p>Every structural change (insertion, removal, clearing) goes through one path: it is checked in
 * full first (the entity's validity, the presence rules, the locks and iteration guards of this
 * storage and of every storage that a group upkeep will move), then applied (the element, then the
 * groups that observe this storage), then announced to listeners. A refused change throws before
 * anything is touched and publishes nothing. Where nothing can refuse or observe the change (one
 * owning group alone observes the storage, nobody listens, nothing is iterated or locked), the
 * group is updated directly, with the same moves. A change is never half-applied:
 *
 * <table>
 *   <caption>What user code may do, and what happens when it throws</caption>
 *   <tr><th>callback</th><th>runs</th><th>if it throws</th></tr>
 *   <tr><td>construct listener</td><td>after insertion and group upkeep</td>
 *       <td>the insertion stands; the other listeners run; the first exception is rethrown
 *       </td></tr>
 *   <tr><td>update listener</td><td>after the new value is written</td><td>likewise</td></tr>
 *   <tr><td>destroy listener</td><td>before removal: the component is still readable</td>
 *       <td>the removal still happens; the other listeners run; the first exception is rethrown
 *       after it</td></tr>
 *   <tr><td>{@code patch} consumer</td><td>before the value is written back</td>
 *       <td>nothing is written back, no update is published (an object storage's instance keeps
 *       what the consumer did to it)</td></tr>
 *   <tr><td>an instance's accessors ({@code emplace(e, value)})</td><td>before the element becomes
 *       visible</td><td>nothing is inserted</td></tr>
 * </table>
 *
 * <p>Listeners may change the world. A destroy listener removing the same component again is a
 * no-op; one that destroys the entity makes the destruction remove the component; if listeners
 * change the world so that the removal itself would now break an iteration, it is refused after
 * they ran ({@link java.util.ConcurrentModificationException}).
 *
 * <h2>How a subclass keeps its payload</h2>
 *
 * <p>The base decides where elements go; the subclass only moves bytes. It implements:
 *
 * <ul>
 *   <li>{@link #allocatePage(int)}: create payload page {@code n} (called before the first element
 *       lands on it; pages are never freed or moved, so an element's page and offset stay fixed
 *       while its position does);
 *   <li>{@link #moveElement}, {@link #swapElements}, {@link #releaseElement}: the payload side of
 *       swap-and-pop, sorting and compaction;
 *   <li>{@link #getAt(int)} and {@link #setAt(int, Object)}: convert between the packed payload and
 *       an instance of the component class.
 * </ul>
 *
 * <h2>For generated code</h2>
 *
 * <p>Typed mutators of a subclass follow one shape: {@link #prepareInsert(long)} (checks
 * everything, allocates, returns the position the element will have, not yet visible), write the
 * fields at that position, then {@link #commitInsert(long, int)} (makes it visible, updates groups,
 * publishes); or {@link #positionFor(long, String)}, write, then {@link #notifyUpdate(long)}. Bulk
 * forms follow the same shape over a range: {@link #prepareInsertAll}, write positions {@code
 * [first, first + count)}, {@link #commitInsertAll}.
 *
 * <h2>Invalidation</h2>
 *
 * <p>As {@link SparseSet}; in addition, payload page arrays are stable: a reference to a page array
 * stays valid for the storage's lifetime, so an element's slot is stable under in-place deletion.
 *
 * @param <T> the component class
 */
public abstract class Storage<T> extends SparseSet {

  /** What {@link #changeTickPages()} returns for a storage that keeps no ticks. */
  private static final long[][] NO_TICK_PAGES = new long[0][];

  private static final Group[] NO_GROUPS = new Group[0];

  private final ComponentType<T, ?> type;
  private final int pageSize;
  private final int pageShift;
  private int allocatedPages;
  private Registry registry;
  private Groups groups;
  private OwningGroup owner;
  // The groups that include (owned or get) and exclude this storage, by ascending rank.
  Group[] includedBy = NO_GROUPS;
  Group[] excludedBy = NO_GROUPS;
  // Non-zero while clear() removes elements one by one: insertions are refused meanwhile.
  private int clearing;
  // The log of in-place writes while someone reads it (see WriteLog), else null.
  WriteLog writeLog;
  // The same log while it appends; null while it has none or drops every write (every reader
  // has fallen behind its bound), so that logging costs nothing more then than no log.
  WriteLog appendingLog;
  // The instance staged by the default stage(), until writeStaged() writes it.
  private T staged;
  private final Signal onConstruct = new Signal();
  private final Signal onUpdate = new Signal();
  private final Signal onDestroy = new Signal();
  // After an insertion's construct listeners, and after a removal (change logs, view monitors).
  final Signal afterInsert = new Signal();
  final Signal afterRemove = new Signal();
  // Which owning group this storage's changes may update directly; refreshDirectUpkeep() has it
  // decide again whenever a group or listener changes.
  private final DirectUpkeep upkeep = new DirectUpkeep(this);

  /**
   * Creates an empty storage with the traits of {@code type}.
   *
   * @param type the component type this storage holds
   */
  protected Storage(final ComponentType<T, ?> type) {
    super(type.traits().policy());
    this.type = type;
    this.pageSize = type.traits().pageSize();
    this.pageShift = Integer.numberOfTrailingZeros(pageSize);
    for (final Signal signal : new Signal[] {onConstruct, onDestroy, afterInsert, afterRemove}) {
      signal.watch(this::refreshDirectUpkeep);
    }
  }

  /** {@return the component type held} */
  public final ComponentType<T, ?> type() {
    return type;
  }

  /** {@return the number of elements in a payload page (a power of two)} */
  public final int pageSize() {
    return pageSize;
  }

  /**
   * {@return {@code log2(pageSize())}: {@code position >>> pageShift()} is the page of a position}
   */
  public final int pageShift() {
    return pageShift;
  }

  /** {@return the number of payload pages allocated so far} */
  public final int pageCount() {
    return allocatedPages;
  }

  /** {@return the registry that owns this storage, or {@code null} for a standalone storage} */
  public final Registry registry() {
    return registry;
  }

  /** {@return the owning group that arranges this storage's elements, or {@code null}} */
  public final OwningGroup owner() {
    return owner;
  }

  /**
   * Signal published after a component is inserted (and the groups are up to date).
   *
   * @return the construction signal of this storage
   */
  public final Signal onConstruct() {
    return onConstruct;
  }

  /**
   * Signal published after a component is replaced or patched.
   *
   * @return the update signal of this storage
   */
  public final Signal onUpdate() {
    return onUpdate;
  }

  /**
   * Signal published after a component is inserted, once every {@link #onConstruct()} listener ran:
   * what a change log listens to (a view's monitor, a {@link dev.phalanx.ecs.snapshot.DeltaWriter
   * DeltaWriter}), so that it learns of an insertion after the listeners that may react to it.
   * Costs nothing while it has no listener.
   *
   * @return the after-insertion signal of this storage
   */
  public final Signal afterInsert() {
    return afterInsert;
  }

  /**
   * Signal published after a component is removed, when it can no longer be read (the counterpart
   * of {@link #afterInsert()}; {@link #onDestroy()} runs before the removal).
   *
   * @return the after-removal signal of this storage
   */
  public final Signal afterRemove() {
    return afterRemove;
  }

  /**
   * Signal published before a component is removed, while it can still be read.
   *
   * @return the destruction signal of this storage
   */
  public final Signal onDestroy() {
    return onDestroy;
  }

  @Override
  public String describe() {
    return "storage of " + type.name();
  }

  @Override
  final String elementName() {
    return type.name();
  }

  // ---------------------------------------------------------------------------------------------
  // Generic, instance-based API.
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds a component to {@code entity}. The instance is read before the element becomes visible: an
   * accessor that throws leaves the storage unchanged.
   *
   * @param entity the entity that receives the component
   * @param value the component; its fields are copied into the pages of a struct-of-arrays storage
   * @throws IllegalArgumentException if the entity is not valid in the owning registry or already
   *     has the component; {@link NullPointerException} if {@code value} is null and the type
   *     stores instances; {@link ClassCastException} (before anything is inserted) if a generated
   *     storage is handed an instance of another class through an unchecked cast
   * @throws IllegalStateException if the entity is being destroyed or the storage cleared
   * @throws java.util.ConcurrentModificationException if the change would break an iteration
   */
  public final void emplace(final long entity, final T value) {
    checkValue(entity, value, "emplace");
    // Read the instance first: its accessors are user code, which must run before a slot is chosen.
    stage(value);
    checkStaged(entity, "emplace");
    final int position = prepareInsert(entity);
    writeStaged(position);
    commitInsert(entity, position);
  }

  /**
   * Replaces the component of {@code entity}. The instance is read before anything is written.
   *
   * @param entity the entity whose component is replaced
   * @param value the new component
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final void replace(final long entity, final T value) {
    checkValue(entity, value, "replace");
    writeChecked(entity, value, "replace");
    notifyUpdate(entity);
  }

  /**
   * Adds the component, or replaces it if the entity already has one.
   *
   * @param entity the entity that receives the component
   * @param value the new component
   */
  public final void emplaceOrReplace(final long entity, final T value) {
    if (contains(entity)) {
      replace(entity, value);
    } else {
      emplace(entity, value);
    }
  }

  /**
   * Hands the component of {@code entity} to {@code patcher}, writes it back and publishes an
   * update. For mutable classes; a struct-of-arrays storage materializes an instance to do so
   * (typed storages offer allocation-free accessors instead). If the patcher throws, nothing is
   * written back.
   *
   * @param entity the entity whose component is patched
   * @param patcher changes the component in place
   * @throws IllegalArgumentException if the entity lacks the component
   * @throws IllegalStateException if the patcher removed the component
   */
  public final void patch(final long entity, final Consumer<? super T> patcher) {
    final T value = getAt(positionFor(entity, "patch"));
    patcher.accept(value);
    // The patcher may have changed the world: look the element up again.
    if (ABSENT == indexOf(entity)) {
      throw StorageRefusals.patcherRemoved(this, entity);
    }
    writeChecked(entity, value, "patch");
    notifyUpdate(entity);
  }

  /**
   * Publishes an update for {@code entity} after its fields were written in place.
   *
   * @param entity the entity whose fields were written
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final void patch(final long entity) {
    markWritten(positionFor(entity, "patch"));
    notifyUpdate(entity);
  }

  /**
   * {@return the component of {@code entity}: the stored instance for object storages, a new
   * instance built from the fields for struct-of-arrays storages}
   *
   * @param entity the entity to read
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final T get(final long entity) {
    return getAt(positionFor(entity, "get"));
  }

  /**
   * {@return the component of {@code entity}, or {@code null} if it has none}
   *
   * @param entity the entity to read
   */
  public final T tryGet(final long entity) {
    final int position = indexOf(entity);
    return ABSENT == position ? null : getAt(position);
  }

  /**
   * Removes the component of {@code entity} if it has one (tolerant). Publishes destroy first.
   *
   * @param entity the entity to remove the component from; need not be valid
   * @return whether a component was removed
   * @throws java.util.ConcurrentModificationException if the removal would break an iteration or
   *     the storage is locked; nothing is removed or published
   */
  public final boolean remove(final long entity) {
    final int position = indexOf(entity);
    if (ABSENT == position) {
      return false;
    }
    if (isQuiet()) {
      // Nobody listens, no group observes, nothing is iterated or locked: nothing to check or tell.
      removeAt(position);
      return true;
    }
    final OwningGroup direct = directRemoveOwner();
    if (null != direct) {
      direct.removeDirectly(entity, this, position);
      return true;
    }
    return removeObserved(entity, position);
  }

  /**
   * Checks, changing nothing, that {@link #remove(long)} of {@code entity} would not be refused now
   * by a lock, an iteration or a group's upkeep; does nothing if the entity has no element here.
   * For code that must refuse a change of several removals before the first (a {@link
   * DestroyCheck}). O(1) when nothing is iterated or locked and no group observes the storage.
   *
   * @param entity the entity whose element would be removed
   * @throws java.util.ConcurrentModificationException naming the entity and the storage, if the
   *     removal would be refused
   */
  public final void checkRemove(final long entity) {
    final int position = indexOf(entity);
    if (ABSENT != position && !isQuiet()) {
      ElementRemoval.check(this, entity, position);
    }
  }

  /**
   * The rest of {@link #remove}, kept apart so that the quiet path stays small enough to inline.
   */
  private boolean removeObserved(final long entity, final int position) {
    if (!onDestroy.isEmpty() && ElementRemoval.announcing(this, entity)) {
      // A destroy listener asked for the removal that is already under way.
      return false;
    }
    Failures.rethrow(ElementRemoval.remove(this, entity, position, null, false));
    return true;
  }

  /**
   * Removes the component of {@code entity} (strict).
   *
   * @param entity the entity to remove the component from
   * @throws IllegalArgumentException if the entity has no such component
   */
  public final void erase(final long entity) {
    positionFor(entity, "erase");
    remove(entity);
  }

  /**
   * Removes every component, publishing destroy for each (last position first). It always completes
   * once its checks passed: insertions into this storage are refused while it runs, and the first
   * exception a listener threw is rethrown at the end.
   *
   * @throws java.util.ConcurrentModificationException if this storage, or one that a group upkeep
   *     would move, is locked or iterated; nothing is removed
   */
  public final void clear() {
    Failures.rethrow(clear(null));
  }

  /**
   * Calls {@code visitor} for every entity reference the elements hold (their {@code @EntityRef}
   * fields); the base holds none. Generated storages of components with {@code @EntityRef} fields
   * override it, reading the primitive pages (no reflection, no allocation). {@link
   * Registry#danglingReferences()} uses it to find references to dead entities.
   *
   * @param visitor receives each holder, field name and reference
   */
  public void eachEntityRef(final EntityRefVisitor visitor) {}

  /**
   * {@return whether this storage holds links between entities: a relationship kind's, or the
   * hierarchy's} Links are the world's structure rather than data of one entity, so every writer of
   * chosen types ({@code types(...)} of the snapshot package's writers) streams these storages with
   * the entities it streams, listed or not. The base holds none.
   */
  public boolean isRelationship() {
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Change tracking. Generated storages of @Component(tracked = true) types override these.
  // ---------------------------------------------------------------------------------------------

  /** {@return whether this storage records a change tick per element} */
  public boolean isTracked() {
    return false;
  }

  /**
   * Returns the change tick at which the element at {@code position} was last written (added,
   * replaced, set, patched); 0 for an untracked storage.
   *
   * @param position a live position
   * @return the element's change tick
   */
  public long changeTickAt(final int position) {
    return 0;
  }

  /**
   * Returns the pages of change ticks, laid out as the field pages ({@code pages[position >>>
   * pageShift()][position & (pageSize() - 1)]} is {@link #changeTickAt}{@code (position)}), for
   * loops that scan ticks page by page; an empty array for an untracked storage. Tracked generated
   * storages override it. The outer array is replaced as pages are added: read it again after a
   * structural change.
   *
   * @return the tick pages, empty if the storage keeps no ticks
   */
  public long[][] changeTickPages() {
    return NO_TICK_PAGES;
  }

  /**
   * Returns whether {@code entity}'s component was added or written after {@code tick} (ticks are
   * 64-bit and never wrap in practice); {@code false} if it has none or the storage is untracked.
   *
   * @param entity any handle
   * @param tick a change tick already seen
   * @return whether the component changed after it
   */
  public final boolean changedSince(final long entity, final long tick) {
    final int position = indexOf(entity);
    return ABSENT != position && isTracked() && changeTickAt(position) > tick;
  }

  /**
   * Records that the element at {@code position} was written in place now; called by {@link
   * #patch(long)}. Tracked generated storages stamp the current tick. For generated code.
   *
   * @param position the element's position
   */
  protected void markWritten(final int position) {}

  /**
   * Opens a reader of this storage's write log: from now on, the entities whose element is written
   * in place are logged, once per change tick (see {@link WriteLog}). The log lives while a reader
   * is open; close the reader when done.
   *
   * @return a reader that starts at the log's end
   * @throws IllegalStateException if the storage keeps no change ticks
   */
  public final WriteLog.Reader readWrites() {
    if (!isWriteLogged()) {
      throw new IllegalStateException(
          "cannot read the writes of "
              + describe()
              + ": it logs no writes; a storage generated for @Component(tracked = true) does");
    }
    return WriteLog.open(this);
  }

  /**
   * Returns whether this storage logs its in-place writes while a {@link WriteLog} is read: tracked
   * generated storages do (and override this); a custom storage that keeps ticks without logging
   * returns {@code false}, and readers compare its ticks instead.
   *
   * @return whether {@link #readWrites()} is supported
   */
  public boolean isWriteLogged() {
    return false;
  }

  /**
   * Returns whether a write log is read: a generated in-place write that stamps a new tick then
   * calls {@link #logWritten}. For generated code.
   *
   * @return whether writes are logged
   */
  protected final boolean logsWrites() {
    return null != appendingLog;
  }

  /**
   * Logs the element at {@code position} as written in place for the first time at the current
   * tick, if it is visible (an element being added is not: its addition is signalled). Call only
   * when {@link #logsWrites()}. For generated code.
   *
   * @param position the element's position
   */
  protected final void logWritten(final int position) {
    if (position < size()) {
      final long entity = packed()[position];
      if (!Entity.isTombstone(entity)) {
        appendingLog.append(entity);
      }
    }
  }

  /**
   * {@return the links of the relationship kind this storage holds, or null for a storage of any
   * other component (or one that belongs to no registry)} A relationship kind's storage answers
   * with the relation that keeps its reverse side.
   */
  public EntityLinks entityLinks() {
    return null;
  }

  /**
   * {@return the target that the value {@link #stage} (or {@link #stageFrom}) read last names, for
   * a relationship kind's storage; {@link Entity#NULL} for any other} A {@link ChangeSet} reads it
   * to check the targets it stages before it commits. For generated code.
   */
  protected long stagedTarget() {
    return Entity.NULL;
  }

  /**
   * Checks the value {@link #stage} read for {@code entity} before anything is written: a storage
   * whose values must obey a rule of their own (a relationship's target must be live) refuses here,
   * so that a refused {@code emplace}, {@code replace} or {@code patch} changes nothing. The
   * default accepts every value. Runs after the instance's accessors and before the registry's own
   * checks.
   *
   * @param entity the entity the value is for
   * @param operation what is being done, for the message ("emplace", "replace", "patch")
   */
  protected void checkStaged(final long entity, final String operation) {}

  /**
   * Called once the storage belongs to its registry ({@link #registry()} is set and the registry
   * lists it), before anything is inserted: a storage that keeps state of its own next to its
   * elements (a relationship's reverse side) attaches it here. The default does nothing.
   */
  protected void bound() {}

  /**
   * Called once the storage's elements and values were replaced raw, without signals (a snapshot
   * restored into the registry), before anything is announced: a storage that keeps state derived
   * from its values rebuilds it here. The default does nothing.
   */
  protected void restored() {}

  /**
   * Returns the registry's current change tick, the stamp of a write made now (1 for a standalone
   * storage). For generated code.
   *
   * @return the current change tick
   */
  protected final long changeTick() {
    return null != guards ? guards.changeTick : 1;
  }

  /**
   * Applies a typed emplace recorded by a generated {@code emplace(commands, entity, fields...)}:
   * reads the fields back from {@code fields} and emplaces them, or replaces the component if the
   * entity has one. For generated code; storages without typed recording never receive one.
   *
   * @param entity the entity the command targets
   * @param fields the recorded fields, in the order they were recorded
   * @throws IllegalStateException if this storage does not record typed fields
   */
  protected void applyRecorded(final long entity, final RecordedFields fields) {
    throw new IllegalStateException(
        describe() + " has no typed recording: record emplace(entity, type, value)");
  }

  /**
   * Applies a typed emplace recorded through a generated storage's {@code emplace(commands, entity,
   * fields...)}: calls {@link #applyRecorded}, which reads the fields back from {@code fields} in
   * recording order and emplaces them, or replaces the component if the entity has one. Part of the
   * generated-code protocol, as the other members that take {@code dev.phalanx.ecs.internal} types:
   * code that replays recorded commands calls it, {@code fields} being its own reader of the
   * recorded fields; that package carries no compatibility promise to users.
   *
   * @param entity a live entity, the one the command targets
   * @param fields the recorded fields, in the order they were recorded
   * @throws IllegalStateException if this storage does not record typed fields, or as {@link
   *     #emplace} when the entity is being destroyed or the registry cleared
   * @throws java.util.ConcurrentModificationException if the insertion would break an iteration
   */
  public final void replayRecorded(final long entity, final RecordedFields fields) {
    applyRecorded(entity, fields);
  }

  // ---------------------------------------------------------------------------------------------
  // The mutation path.
  // ---------------------------------------------------------------------------------------------

  /**
   * Checks an insertion of {@code entity} in full (handle, validity, presence, lock, iteration
   * guards of every storage the groups will move), allocates what it needs (packed and sparse room,
   * payload page) and returns the position the element will have. The element is not visible yet:
   * write its payload at that position, then call {@link #commitInsert(long, int)}. For generated
   * code.
   *
   * @param entity the entity that will receive the component
   * @return the position to write the payload at
   * @throws IllegalArgumentException if the entity is not valid in the owning registry or already
   *     has the component
   * @throws IllegalStateException if the entity is being destroyed or the storage cleared
   * @throws java.util.ConcurrentModificationException if the change would break an iteration
   */
  protected final int prepareInsert(final long entity) {
    checkInsertable(entity);
    return prepareSlotFor(entity);
  }

  /**
   * The checks of {@link #prepareInsert} that concern {@code entity} alone: a handle, valid in the
   * owning registry, neither being destroyed nor cleared, without the component. Changes nothing.
   * For custom storages that check a change of several elements before making it.
   *
   * @param entity the entity that would receive the component
   * @throws IllegalArgumentException if the entity is not valid or already has the component
   * @throws IllegalStateException if the entity is being destroyed or the storage cleared
   */
  protected final void checkInsertable(final long entity) {
    final int index = Entity.index(entity);
    if (index < 0 || index > Entity.MAX_INDEX || Entity.isTombstone(entity)) {
      throw StorageRefusals.notAHandle(this, entity);
    }
    if (null != registry) {
      registry.checkInsertion(entity, type);
    }
    if (0 != clearing) {
      throw StorageRefusals.beingCleared(this, entity);
    }
    // One sparse lookup answers both "already has one" and "another version holds the index".
    final long holder = entityWithIndex(index);
    if (!Entity.isNull(holder)) {
      if (holder == entity) {
        throw StorageRefusals.alreadyHas(this, entity);
      }
      // Only standalone storages get here: a registry never has two live versions of one index.
      throw StorageRefusals.indexHeld(this, entity, holder);
    }
  }

  /**
   * For generated code: where an emplace recorded in a command buffer goes, the buffer having
   * checked that {@code entity} is live. Returns the entity's position if it has the component
   * (write the fields there, then {@link #notifyUpdate}), else {@code -2 - p}, {@code p} being the
   * position an insertion was prepared at as by {@link #prepareInsert} (write there, then {@link
   * #commitInsert}).
   *
   * @param entity a live entity
   * @return the position to write at, encoded as above
   * @throws IllegalStateException if the entity is being destroyed or the storage cleared
   * @throws java.util.ConcurrentModificationException if the insertion would break an iteration
   */
  protected final int prepareRecorded(final long entity) {
    final int position = indexOf(entity);
    if (ABSENT != position) {
      return position;
    }
    if (null != registry) {
      registry.checkInsertionState(entity, type);
    }
    if (0 != clearing) {
      throw StorageRefusals.beingCleared(this, entity);
    }
    return -2 - prepareSlotFor(entity);
  }

  /** The end of {@link #prepareInsert}: lock, group plan, room and page for {@code entity}. */
  private int prepareSlotFor(final long entity) {
    checkUnlocked(false, this, entity);
    final int position = nextPosition();
    if (hasGroups() && null == directInsertOwner()) {
      groups.planInsert(this, entity, position);
    }
    prepareSlot(Entity.index(entity));
    ensurePage(position);
    return position;
  }

  /**
   * Makes the element prepared by {@link #prepareInsert(long)} visible, updates the groups that
   * observe this storage, then publishes construction. No user code may run between the two calls
   * (generated code only writes fields); if the groups planned another change meanwhile, the plan
   * is made and checked again. For generated code.
   *
   * @param entity the entity passed to {@link #prepareInsert(long)}
   * @param position the position it returned
   * @throws IllegalStateException if the prepared position is no longer the storage's next one
   */
  protected final void commitInsert(final long entity, final int position) {
    if (position != nextPosition()) {
      throw StorageRefusals.changedBeforeCommit(this, entity);
    }
    final boolean observed = hasGroups();
    if (observed) {
      final OwningGroup direct = directInsertOwner();
      if (null != direct) {
        insertAt(entity, position);
        direct.enterDirectly(entity, this, position);
        return;
      }
      if (!groups.plannedFor(this, entity)) {
        groups.planInsert(this, entity, position);
      }
    }
    insertAt(entity, position);
    Throwable failure = null;
    if (observed) {
      groups.applyInsert(this, entity, position);
      failure = groups.publishPending(groups.pushPending(), registry, entity, null);
    }
    failure = onConstruct.publish(registry, entity, failure);
    if (!afterInsert.isEmpty()) {
      failure = afterInsert.publish(registry, entity, failure);
    }
    Failures.rethrow(failure);
  }

  /**
   * {@return whether announcing an insertion with no group entry pending would run nothing: no
   * construct or internal after-insert listener}
   */
  final boolean insertionQuiet() {
    return onConstruct.isEmpty() && afterInsert.isEmpty();
  }

  /** The mark {@link #commitUnannounced} returns when no group entry or exit is pending. */
  static final int NO_PENDING = -1;

  /**
   * As {@link #commitInsert}, but announces nothing: the element is visible and the groups are up
   * to date, and the entries and exits their listeners must hear are kept pending. Returns the mark
   * to hand to {@link #announceInsert} once the change that needed the element is complete (a
   * change of several elements announces them last inserted first). No user code may run between
   * the two calls but other such insertions. For custom storages whose one change inserts several
   * elements, and for {@link ChangeSet}.
   *
   * @param entity the entity passed to {@link #prepareInsert(long)}
   * @param position the position it returned
   * @return the mark to pass to {@link #announceInsert}
   * @throws IllegalStateException if the prepared position is no longer the storage's next one
   */
  protected final int commitUnannounced(final long entity, final int position) {
    if (position != nextPosition()) {
      throw StorageRefusals.changedBeforeUnannounced(this, entity);
    }
    if (!hasGroups()) {
      insertAt(entity, position);
      return NO_PENDING;
    }
    final OwningGroup direct = directInsertOwner();
    if (null != direct) {
      insertAt(entity, position);
      direct.enterDirectly(entity, this, position);
      return NO_PENDING;
    }
    if (!groups.plannedFor(this, entity)) {
      groups.planInsert(this, entity, position);
    }
    insertAt(entity, position);
    groups.applyInsert(this, entity, position);
    return groups.pushPending();
  }

  /**
   * Announces an insertion made by {@link #commitUnannounced}: the pending group entries since
   * {@code mark}, then construction. Every listener runs. For custom storages, as {@link
   * #commitUnannounced}.
   *
   * @param entity the entity inserted
   * @param mark what {@link #commitUnannounced} returned
   * @param failure what earlier listeners of the same change threw, or {@code null}
   * @return {@code failure}, or the first exception, with later ones suppressed
   */
  protected final Throwable announceInsert(final long entity, final int mark, Throwable failure) {
    if (NO_PENDING != mark) {
      failure = groups.publishPending(mark, registry, entity, failure);
    }
    failure = onConstruct.publish(registry, entity, failure);
    if (!afterInsert.isEmpty()) {
      failure = afterInsert.publish(registry, entity, failure);
    }
    return failure;
  }

  // ---------------------------------------------------------------------------------------------
  // Bulk insertion: EnTT's storage.insert(first, last, value).
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds a copy of {@code value} to every entity of {@code entities[from, to)}, as one change: the
   * whole range is checked before anything changes, then every element is inserted and the groups
   * updated, then construction is published for each entity in range order (with its group entries
   * first, as {@link #emplace(long, Object)} publishes them). EnTT's {@code storage.insert(first,
   * last, value)}.
   *
   * <p>The instance is read once, before anything is inserted (its accessors are user code); a
   * struct-of-arrays storage copies its fields into every element, an {@link ObjectStorage} stores
   * the same reference in every element, a tag storage stores nothing. The elements are appended at
   * positions {@code [size(), size() + (to - from))}, in range order, even where an in-place
   * storage has holes (EnTT appends a range likewise; {@link #compact()} reclaims holes). Typed
   * storages generate allocation-free forms: {@code insert(entities, from, to, fields...)} and
   * {@code insertColumns(entities, from, to, fieldArrays...)}.
   *
   * <p>Listeners: every element is in place, and every group up to date, before the first listener
   * runs; listeners see the whole range inserted. A listener that throws stops nothing: the
   * insertions stand, every other listener runs for every entity, and the first exception is
   * rethrown at the end. Cost: O(count) plus the groups' upkeep; no allocation once the packed
   * array, the sparse pages and the payload pages have room ({@link #reserve}).
   *
   * @param entities the entities that receive the component
   * @param from the first offset in {@code entities}
   * @param to the end of the range, exclusive
   * @param value the component; {@code null} only for a tag type
   * @throws IndexOutOfBoundsException if the range does not fit {@code entities}
   * @throws IllegalArgumentException if an entity of the range is not valid in the owning registry,
   *     already has the component, or is listed twice; nothing is inserted
   * @throws IllegalStateException if an entity is being destroyed or the storage cleared
   * @throws java.util.ConcurrentModificationException if the storage is locked, or if groups
   *     observe it while an iteration or a lock is active anywhere in the registry (insert one by
   *     one then); nothing is inserted
   */
  public final void insert(final long[] entities, final int from, final int to, final T value) {
    if (from < to) {
      checkValue(entities[from], value, "insert");
    }
    stage(value);
    final int first;
    try {
      first = prepareInsertAll(entities, from, to);
    } catch (final RuntimeException refused) {
      staged = null;
      throw refused;
    }
    writeStaged(first, to - from);
    commitInsertAll(entities, from, to, first);
  }

  /**
   * Checks a bulk insertion of {@code entities[from, to)} in full (the range, every entity as
   * {@link #prepareInsert} checks one, duplicates within the range, the lock, the groups), then
   * makes room for it: packed array, sparse pages and payload pages. Returns the position the first
   * entity's element will have; the others follow it, in range order. Nothing is visible yet: write
   * the payload of positions {@code [first, first + (to - from))}, then call {@link
   * #commitInsertAll}, with no user code in between. For generated code.
   *
   * @param entities the entities that will receive the component
   * @param from the first offset in {@code entities}
   * @param to the end of the range, exclusive
   * @return the position of the first element
   * @throws IndexOutOfBoundsException if the range does not fit {@code entities}
   * @throws IllegalArgumentException if an entity is not valid, already has the component, or is
   *     listed twice
   * @throws IllegalStateException if an entity is being destroyed or the storage cleared
   * @throws java.util.ConcurrentModificationException as {@link #insert(long[], int, int, Object)}
   */
  protected final int prepareInsertAll(final long[] entities, final int from, final int to) {
    return BulkInsertion.prepare(this, entities, from, to);
  }

  /**
   * Makes the elements prepared by {@link #prepareInsertAll} visible (positions {@code [first,
   * first + (to - from))}, in range order), updates the groups, then publishes, for each entity in
   * range order, its group entries and exits, construction and the internal after-insert signal.
   * Every listener runs; the first exception is rethrown at the end. For generated code.
   *
   * @param entities the range passed to {@link #prepareInsertAll}
   * @param from the first offset in {@code entities}
   * @param to the end of the range, exclusive
   * @param first the position {@link #prepareInsertAll} returned
   * @throws IllegalStateException if the storage changed since {@link #prepareInsertAll}
   */
  protected final void commitInsertAll(
      final long[] entities, final int from, final int to, final int first) {
    BulkInsertion.commit(this, entities, from, to, first);
  }

  /**
   * Returns whether a bulk insertion into this storage would pass the groups' check now and publish
   * nothing: no construction or after-insert listener, and either no group observes the storage or
   * nothing is iterated or locked and no group observing it has entry or exit listeners. Prefabs
   * copy in bulk then, and element by element otherwise (to announce everything last).
   */
  final boolean bulkSilent() {
    return BulkInsertion.silent(this);
  }

  /**
   * Publishes construction and after-insert for {@code entities[from, to)} in order (no group entry
   * pending); every listener runs. Returns {@code failure} or the first exception.
   */
  final Throwable publishInserted(
      final long[] entities, final int from, final int to, Throwable failure) {
    for (int i = from; i < to; i++) {
      failure = publishInserted(entities[i], failure);
    }
    return failure;
  }

  /** Publishes construction, then after-insert, for one inserted entity. */
  final Throwable publishInserted(final long entity, Throwable failure) {
    failure = onConstruct.publish(registry, entity, failure);
    if (!afterInsert.isEmpty()) {
      failure = afterInsert.publish(registry, entity, failure);
    }
    return failure;
  }

  @Override
  final void reservePayload(final int capacity) {
    if (capacity > 0) {
      ensurePage(capacity - 1);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The removal path.
  // ---------------------------------------------------------------------------------------------

  /**
   * Clears the storage (see {@link #clear()}); returns {@code failure} or the first listener
   * exception.
   */
  final Throwable clear(Throwable failure) {
    if (isEmpty()) {
      return failure;
    }
    checkRearrange("clear");
    if (hasGroups()) {
      groups.checkClear(this);
    }
    final boolean clearingRegistry = null != registry && registry.isClearing();
    if (onDestroy.isEmpty()
        && afterRemove.isEmpty()
        && !leaveSignalled()
        && (0 == excludedBy.length || clearingRegistry)) {
      // Nothing to tell and nobody to enter a group: drop every element at once.
      for (final Group group : includedBy) {
        group.clearMembers();
      }
      removeAll();
      return failure;
    }
    clearing++;
    try {
      // Listeners may remove other elements: re-read the bounds at every step.
      for (int position = size() - 1;
          position >= 0;
          position = Math.min(position - 1, size() - 1)) {
        final long entity = packed()[position];
        if (!Entity.isTombstone(entity)) {
          failure = ElementRemoval.remove(this, entity, position, failure, true);
        }
      }
      // Only holes are left (insertions were refused): drop them too.
      removeAll();
    } finally {
      clearing--;
    }
    return failure;
  }

  /**
   * Returns whether a removal may skip the mutation path's checks and announcements: no listener,
   * no group, and no iteration or lock anywhere in the registry (in this set, for a standalone
   * storage).
   */
  private boolean isQuiet() {
    return onDestroy.isEmpty()
        && afterRemove.isEmpty()
        && 0 == includedBy.length
        && 0 == excludedBy.length
        && (null != guards ? !guards.any() : !isLocked() && !isIterated());
  }

  /**
   * Returns whether {@code group} is the only group observing this storage and a removal from it
   * announces nothing (no destroy or after-remove listener): then the group may remove an element
   * of a destroyed entity from it as part of its own upkeep (see {@link
   * OwningGroup#removableTogether}).
   */
  final boolean observedOnlyBy(final Group group) {
    return onDestroy.isEmpty()
        && afterRemove.isEmpty()
        && 1 == includedBy.length
        && group == includedBy[0]
        && 0 == excludedBy.length;
  }

  /** Returns whether a group including this storage has leave listeners. */
  private boolean leaveSignalled() {
    for (final Group group : includedBy) {
      if (!group.onLeave.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Group upkeep decisions: whether a change may update an owning group directly.
  // ---------------------------------------------------------------------------------------------

  /**
   * Makes again, for every storage of the registry (this one alone if standalone), the decisions
   * that depend on groups and listeners: which owning group an insertion and a removal may update
   * directly, and which one a destroy may remove through ({@link DirectUpkeep#decide}). Called
   * whenever an input changes: a group starts observing a storage, or a listener of a storage or of
   * a group is connected or disconnected. One storage's decision can depend on another's listeners
   * (the other storages a group owns), hence the whole registry: O(storages), and only then.
   */
  final void refreshDirectUpkeep() {
    if (null != registry) {
      registry.refreshDirectUpkeep();
    } else {
      upkeep.decide();
    }
  }

  /** {@return which owning group this storage's changes may update directly} */
  final DirectUpkeep upkeep() {
    return upkeep;
  }

  /**
   * {@return the owning group an insertion may update directly, or {@code null}} Nothing in the
   * registry may be iterated or locked either. {@link #prepareInsert} and {@link #commitInsert}
   * agree on it, as nothing can run between them.
   */
  final OwningGroup directInsertOwner() {
    final OwningGroup direct = upkeep.inserter();
    return null != direct && !guards.any() ? direct : null;
  }

  /**
   * {@return the owning group a removal may update directly, or {@code null}} Nothing in the
   * registry may be iterated or locked either.
   */
  final OwningGroup directRemoveOwner() {
    final OwningGroup direct = upkeep.remover();
    return null != direct && !guards.any() ? direct : null;
  }

  /**
   * Returns whether removing an element runs no user code and updates no group: no group observes
   * the storage and nothing listens to its removals. Then {@link #removeAt} is the whole removal.
   */
  final boolean removesPlainly() {
    return !hasGroups() && onDestroy.isEmpty() && afterRemove.isEmpty();
  }

  /** {@return the groups of the owning registry, or {@code null} for a standalone storage} */
  final Groups groups() {
    return groups;
  }

  /** Returns whether groups observe this storage (include or exclude it). */
  final boolean hasGroups() {
    return 0 != includedBy.length || 0 != excludedBy.length;
  }

  // ---------------------------------------------------------------------------------------------
  // Registry and groups. Package-private: only the registry and groups call them.
  // ---------------------------------------------------------------------------------------------

  /** Binds this storage to the registry that creates it. */
  final void bind(final Registry owner, final Groups ownerGroups) {
    if (null != registry) {
      throw new IllegalStateException(describe() + " already belongs to a registry");
    }
    registry = owner;
    groups = ownerGroups;
    guards = ownerGroups.guards;
    if (null != ownerGroups.lockNewBy) {
      lock(ownerGroups.lockNewBy, ownerGroups.lockNewOf);
    }
  }

  /** Marks this storage as owned by {@code group}, or clears the mark with {@code null}. */
  final void claim(final OwningGroup group) {
    owner = group;
  }

  /** Registers {@code group} as including ({@code include}) or excluding this storage. */
  final void observe(final Group group, final boolean include) {
    final Group[] current = include ? includedBy : excludedBy;
    final Group[] next = Arrays.copyOf(current, current.length + 1);
    next[current.length] = group;
    Arrays.sort(next, (a, b) -> Integer.compare(a.rank, b.rank));
    if (include) {
      includedBy = next;
    } else {
      excludedBy = next;
    }
    refreshDirectUpkeep();
  }

  @Override
  final void checkSortable() {
    super.checkSortable();
    if (null != owner) {
      throw StorageRefusals.ownedSort(this, owner);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Building blocks for typed subclasses.
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return the position of {@code entity}'s component}
   *
   * @param operation the operation's name, for the exception message
   * @param entity the entity to look up
   * @throws IllegalArgumentException if the entity has no such component
   */
  protected final int positionFor(final long entity, final String operation) {
    final int position = indexOf(entity);
    if (ABSENT == position) {
      throw StorageRefusals.missing(this, entity, operation);
    }
    return position;
  }

  /**
   * Publishes an update for {@code entity}; call after writing the payload.
   *
   * @param entity the entity whose component changed
   */
  protected final void notifyUpdate(final long entity) {
    Failures.rethrow(onUpdate.publish(registry, entity, null));
  }

  private void checkValue(final long entity, final T value, final String operation) {
    if (null == value && !type.traits().empty()) {
      throw StorageRefusals.nullValue(this, entity, operation);
    }
  }

  /**
   * Writes an instance at {@code entity}'s position. The instance's accessors are user code that
   * may change the storage, so the position is looked up again after them.
   */
  private void writeChecked(final long entity, final T value, final String operation) {
    // Read the instance first (its accessors are user code), then find where to write it.
    stage(value);
    checkStaged(entity, operation);
    writeStaged(positionFor(entity, operation));
  }

  /** Allocates the payload pages up to the one holding {@code position}, in order. */
  final void ensurePage(final int position) {
    final int page = position >>> pageShift;
    while (page >= allocatedPages) {
      allocatePage(allocatedPages);
      allocatedPages++;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Payload hooks.
  // ---------------------------------------------------------------------------------------------

  /**
   * Allocates payload page {@code page}; pages are requested in order 0, 1, 2, .... Empty storages
   * allocate nothing. If it throws (out of memory), nothing was inserted and the next insertion
   * asks for the same page again. Snapshot loading first asks for the last page it needs (the page
   * tables must grow to hold it), installs whole pages into the tables {@link #eachColumn} hands
   * out, then asks for every page in order: a page already present must be kept.
   *
   * @param page the index of the page to allocate
   */
  protected abstract void allocatePage(int page);

  /**
   * {@return the component at {@code position} as an instance of the component class}
   *
   * @param position a position in {@code [0, size())} that holds an element
   */
  protected abstract T getAt(int position);

  /**
   * Writes {@code value} into the payload at {@code position}; it must write nothing else. If it
   * reads the instance through accessors (user code), override {@link #stage} and {@link
   * #writeStaged} too, so that the accessors run before a position is chosen.
   *
   * @param position a position whose page is allocated
   * @param value the component to copy
   */
  protected abstract void setAt(int position, T value);

  /**
   * Reads everything {@link #writeStaged} will write from {@code value}, before any position is
   * chosen: the instance's accessors may be user code that changes this very storage, and must not
   * run between choosing a slot and writing it. The default keeps the reference, for storages whose
   * {@link #setAt} reads nothing but the reference; a storage whose {@code setAt} calls accessors
   * overrides both (generated storages do). For generated code and custom storages.
   *
   * @param value the component about to be written
   */
  protected void stage(final T value) {
    staged = value;
  }

  /**
   * Writes what {@link #stage} read into the payload at {@code position}, running no user code; the
   * default hands the kept reference to {@link #setAt}. For generated code and custom storages.
   *
   * @param position where to write
   */
  protected void writeStaged(final int position) {
    final T value = staged;
    staged = null;
    setAt(position, value);
  }

  /**
   * Writes what {@link #stage} (or {@link #stageFrom}) read into every position of {@code [first,
   * first + count)}, then forgets it, running no user code: the payload side of a bulk insertion
   * ({@link #insert(long[], int, int, Object)}) and of a prefab's copies. The default hands the
   * kept reference to {@link #setAt} at each position; generated storages fill their pages a run at
   * a time. For generated code and custom storages.
   *
   * @param first the first position, its page allocated
   * @param count how many positions, their pages allocated
   */
  protected void writeStaged(final int first, final int count) {
    final T value = staged;
    staged = null;
    for (int position = first; position < first + count; position++) {
      setAt(position, value);
    }
  }

  /**
   * Reads, from the element at {@code position} of {@code source} (a storage of this storage's
   * type, in this registry or another, or standalone), everything {@link #writeStaged} will write:
   * the copy that cloning and prefabs make ({@code dev.phalanx.ecs.clone}). Like {@link #stage} it
   * runs before a position is chosen, and {@link #writeStaged} then writes the copy through the
   * normal checked insertion ({@link #prepareInsert}, {@link #commitInsert}), so signals, groups
   * and iteration guards see an ordinary insertion.
   *
   * <p>The default stages {@code source.getAt(position)}: for an {@link ObjectStorage} the stored
   * reference (a shallow copy: both elements then share one instance), for a tag storage its shared
   * instance. Generated struct-of-arrays storages override it to read the source's pages field by
   * field: no instance is built, nothing is boxed or allocated, no user code runs. A custom storage
   * whose {@link #getAt} or {@link #stage} runs user code should override it likewise. For
   * generated code and custom storages.
   *
   * @param source a storage of this storage's component type
   * @param position a position of {@code source} that holds an element
   */
  protected void stageFrom(final Storage<T> source, final int position) {
    stage(source.getAt(position));
  }

  // ---------------------------------------------------------------------------------------------
  // Snapshots.
  // ---------------------------------------------------------------------------------------------

  /**
   * Hands {@code visitor} every payload field of this storage, in declaration order: its name and
   * its page array (see {@link ColumnVisitor}). Snapshots read and write fields only through it, so
   * a storage that overrides it is saved, loaded, remapped and dumped field by field. The base, tag
   * and void storages have no column; {@link ObjectStorage} has one, {@code value}; generated
   * struct-of-arrays storages override it with one call per field. O(fields): it hands over page
   * arrays, it does not walk elements. For generated code and the runtime's storages.
   *
   * @param visitor receives one call per field
   */
  protected void eachColumn(final ColumnVisitor visitor) {}

  /**
   * Hands {@code visitor} every payload field of this storage, in declaration order, as its page
   * arrays ({@link #eachColumn}): the field-by-field view that serializers, dumps and tools read,
   * position {@code p} of a field being {@code pages[p >>> pageShift()][p & (pageSize() - 1)]} for
   * every position below {@link #size()}. The arrays are the storage's own: writing through them
   * bypasses every check, signal and change tick, so only a loader that stamps and announces what
   * it wrote should. O(fields); no allocation.
   *
   * @param visitor receives one call per field
   */
  public final void columns(final ColumnVisitor visitor) {
    eachColumn(visitor);
  }

  /** Allocates the payload pages of positions {@code [0, count)}; snapshot loading calls it. */
  final void allocatePagesFor(final int count) {
    if (count > 0) {
      ensurePage(count - 1);
    }
  }

  /**
   * Grows the page tables to hold the pages of {@code count} elements without allocating the pages
   * before the last, so that snapshot loading can install its own; {@link #allocatePagesFor} then
   * allocates the pages still missing.
   */
  final void reservePagesFor(final int count) {
    final int pages = (count + pageSize() - 1) >>> pageShift;
    if (pages > allocatedPages) {
      allocatePage(pages - 1);
    }
  }
}
