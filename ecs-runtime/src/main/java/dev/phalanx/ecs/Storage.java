package dev.phalanx.ecs;

import java.util.function.Consumer;

/**
 * A sparse set that also holds one component per entity, in pages of {@code pageSize} elements, and
 * publishes lifecycle signals. It is the base of every storage: {@link ObjectStorage} (one reference
 * per element), {@link EmptyStorage} and {@link VoidStorage} (no payload) and the struct-of-arrays
 * storages that the annotation processor generates (one primitive page array per field).
 *
 * <h2>How a subclass keeps its payload</h2>
 *
 * <p>The base decides where elements go; the subclass only moves bytes. It implements:
 *
 * <ul>
 *   <li>{@link #allocatePage(int)}: create payload page {@code n} (called before the first element
 *       lands on it; pages are never freed or moved, so an element's page and offset stay fixed while
 *       its position does);
 *   <li>{@link #moveElement}, {@link #swapElements}, {@link #releaseElement}: the payload side of
 *       swap-and-pop, sorting and compaction;
 *   <li>{@link #getAt(int)} and {@link #setAt(int, Object)}: convert between the packed payload and an
 *       instance of the component class.
 * </ul>
 *
 * <p>Typed mutators of a subclass follow one shape: {@link #prepareInsert(long)} (validates and
 * returns the new position with its page allocated), write the fields, then
 * {@link #notifyConstruct(long)}; or {@link #positionFor(long, String)}, write, then
 * {@link #notifyUpdate(long)}.
 *
 * <h2>Signals</h2>
 *
 * <p>{@link #onConstruct()} fires after insertion, {@link #onUpdate()} after replace/patch,
 * {@link #onDestroy()} before removal, each with the owning registry (or {@code null}).
 *
 * <h2>Invalidation</h2>
 *
 * <p>As {@link SparseSet}; in addition, payload page arrays are stable: a reference to a page array
 * stays valid for the storage's lifetime, so an element's slot is stable under in-place deletion.
 *
 * @param <T> the component class
 */
public abstract class Storage<T> extends SparseSet {

  private final ComponentType<T, ?> type;
  private final int pageSize;
  private final int pageShift;
  private int allocatedPages;
  private Registry registry;
  private Object owner;
  // Removals whose destroy signal is being published, per thread: a listener removing the same
  // element again is a no-op. Per thread because in-place storages allow concurrent removals.
  private static final ThreadLocal<PendingRemovals> PENDING = ThreadLocal.withInitial(PendingRemovals::new);
  private final Signal onConstruct = new Signal();
  private final Signal onUpdate = new Signal();
  private final Signal onDestroy = new Signal();

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
  }

  /** Returns the component type held. */
  public final ComponentType<T, ?> type() {
    return type;
  }

  /** Returns the number of elements in a payload page (a power of two). */
  public final int pageSize() {
    return pageSize;
  }

  /** Returns {@code log2(pageSize())}: {@code position >>> pageShift()} is the page of a position. */
  public final int pageShift() {
    return pageShift;
  }

  /** Returns the number of payload pages allocated so far. */
  public final int pageCount() {
    return allocatedPages;
  }

  /** Returns the registry that owns this storage, or {@code null} for a standalone storage. */
  public final Registry registry() {
    return registry;
  }

  /**
   * Binds this storage to the registry that creates it. Called once by {@link Registry}.
   *
   * @throws IllegalStateException if already bound
   */
  public final void bind(final Registry owner) {
    if (null != registry) {
      throw new IllegalStateException(describe() + " already belongs to a registry");
    }
    registry = owner;
  }

  /** Signal published after a component is inserted. */
  public final Signal onConstruct() {
    return onConstruct;
  }

  /** Signal published after a component is replaced or patched. */
  public final Signal onUpdate() {
    return onUpdate;
  }

  /** Signal published before a component is removed. */
  public final Signal onDestroy() {
    return onDestroy;
  }

  @Override
  public String describe() {
    return "storage of " + type.name();
  }

  // ---------------------------------------------------------------------------------------------
  // Generic, instance-based API.
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds a component to {@code entity}.
   *
   * @throws IllegalArgumentException if the entity is not valid in the owning registry or already has
   *     the component; {@link NullPointerException} if {@code value} is null and the type stores
   *     instances
   */
  public final void emplace(final long entity, final T value) {
    checkValue(entity, value, "emplace");
    final int position = prepareInsert(entity);
    setAt(position, value);
    notifyConstruct(entity);
  }

  /**
   * Replaces the component of {@code entity}.
   *
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final void replace(final long entity, final T value) {
    checkValue(entity, value, "replace");
    final int position = positionFor(entity, "replace");
    setAt(position, value);
    notifyUpdate(entity);
  }

  /** Adds the component, or replaces it if the entity already has one. */
  public final void emplaceOrReplace(final long entity, final T value) {
    if (contains(entity)) {
      replace(entity, value);
    } else {
      emplace(entity, value);
    }
  }

  /**
   * Hands the component of {@code entity} to {@code patcher}, writes it back and publishes an update.
   * For mutable classes; a struct-of-arrays storage materializes an instance to do so (typed storages
   * offer allocation-free accessors instead).
   *
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final void patch(final long entity, final Consumer<? super T> patcher) {
    final int position = positionFor(entity, "patch");
    final T value = getAt(position);
    patcher.accept(value);
    setAt(position, value);
    notifyUpdate(entity);
  }

  /**
   * Publishes an update for {@code entity} after its fields were written in place.
   *
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final void patch(final long entity) {
    positionFor(entity, "patch");
    notifyUpdate(entity);
  }

  /**
   * Returns the component of {@code entity}: the stored instance for object storages, a new instance
   * built from the fields for struct-of-arrays storages.
   *
   * @throws IllegalArgumentException if the entity lacks the component
   */
  public final T get(final long entity) {
    return getAt(positionFor(entity, "get"));
  }

  /** Returns the component of {@code entity}, or {@code null} if it has none. */
  public final T tryGet(final long entity) {
    final int position = indexOf(entity);
    return ABSENT == position ? null : getAt(position);
  }

  /**
   * Removes the component of {@code entity} if it has one (tolerant). Publishes destroy first.
   *
   * @return whether a component was removed
   */
  public final boolean remove(final long entity) {
    int position = indexOf(entity);
    if (ABSENT == position) {
      return false;
    }
    if (!onDestroy.isEmpty()) {
      final PendingRemovals pending = PENDING.get();
      if (pending.contains(this, entity)) {
        // A destroy listener asked for the removal that is already under way.
        return false;
      }
      pending.push(this, entity);
      try {
        onDestroy.publish(registry, entity);
      } finally {
        pending.pop();
      }
      // A listener (a group, say) may have moved the element, or removed it: look it up again.
      position = indexOf(entity);
      if (ABSENT == position) {
        return true;
      }
    }
    removeEntityAt(position);
    return true;
  }

  /**
   * Removes the component of {@code entity} (strict).
   *
   * @throws IllegalArgumentException if the entity has no such component
   */
  public final void erase(final long entity) {
    positionFor(entity, "erase");
    remove(entity);
  }

  /** Removes every component, publishing destroy for each, last position first. */
  public final void clear() {
    if (!onDestroy.isEmpty()) {
      // Listeners may remove other elements: re-read the bounds and the array at every step.
      for (int position = size() - 1; position >= 0; position = Math.min(position - 1, size() - 1)) {
        final long entity = packed()[position];
        if (!Entity.isTombstone(entity)) {
          remove(entity);
        }
      }
    }
    clearEntities();
  }

  // ---------------------------------------------------------------------------------------------
  // Group ownership.
  // ---------------------------------------------------------------------------------------------

  /**
   * Marks this storage as owned by {@code group} (an owning group arranges its elements), or clears
   * the mark with {@code null}. Called by groups only.
   *
   * @throws IllegalStateException if the storage is already owned by another object, or uses in-place
   *     deletion (its elements may not move)
   */
  public final void claim(final Object group) {
    if (null != group && DeletionPolicy.IN_PLACE == policy()) {
      throw new IllegalStateException(
          describe() + " uses in-place deletion and cannot be owned by a group (its elements must not"
              + " move); use it as a get or exclude type instead");
    }
    owner = group;
  }

  /** Returns the owning group, or {@code null}. */
  public final Object owner() {
    return owner;
  }

  @Override
  protected void checkSortable() {
    super.checkSortable();
    if (null != owner) {
      throw new IllegalStateException(
          "cannot sort " + describe() + " on its own: it is owned by " + owner
              + "; sort the group instead");
    }
  }

  /**
   * Sorts positions {@code [0, length)} of an owned storage; called by the group that owns it.
   *
   * @throws IllegalStateException if the storage is not owned
   */
  public final void sortOwnedRange(final int length, final PositionComparator comparator) {
    checkOwned();
    sortRange(0, length, comparator);
  }

  /** As {@link #sortOwnedRange(int, PositionComparator)}, comparing entities. */
  public final void sortOwnedRangeByEntity(final int length, final EntityComparator comparator) {
    checkOwned();
    sortRangeByEntity(0, length, comparator);
  }

  private void checkOwned() {
    if (null == owner) {
      throw new IllegalStateException(describe() + " is not owned by a group");
    }
  }

  /**
   * Swaps two positions without the ownership check. Groups use it to arrange owned storages.
   *
   * @param left a live position
   * @param right a live position
   */
  public final void swapPositions(final int left, final int right) {
    swapAt(left, right);
  }

  // ---------------------------------------------------------------------------------------------
  // Building blocks for typed subclasses.
  // ---------------------------------------------------------------------------------------------

  /**
   * Validates an insertion, inserts {@code entity} and returns its position, whose payload page is
   * allocated. The caller writes the payload, then calls {@link #notifyConstruct(long)}.
   *
   * @throws IllegalArgumentException if the entity is not valid in the owning registry or already has
   *     the component
   */
  protected final int prepareInsert(final long entity) {
    final int index = Entity.index(entity);
    if (index < 0 || index > Entity.MAX_INDEX || Entity.isTombstone(entity)) {
      throw new IllegalArgumentException(
          "cannot emplace " + type.name() + " on " + Entity.toString(entity)
              + ": not an entity handle (null, tombstone or index out of range)");
    }
    if (null != registry && !registry.valid(entity)) {
      throw new IllegalArgumentException(
          "cannot emplace " + type.name() + " on " + Entity.toString(entity)
              + ": the entity is not valid (destroyed or never created)");
    }
    // One sparse lookup answers both "already has one" and "another version holds the index".
    final long holder = entityWithIndex(index);
    if (!Entity.isNull(holder)) {
      if (holder == entity) {
        throw new IllegalArgumentException(
            "cannot emplace " + type.name() + " on " + Entity.toString(entity)
                + ": it already has one; use replace or emplaceOrReplace");
      }
      // Only standalone storages get here: a registry never has two live versions of one index.
      throw new IllegalArgumentException(
          "cannot emplace " + type.name() + " on " + Entity.toString(entity) + ": "
              + Entity.toString(holder) + " (same index, another version) is still in the storage");
    }
    final int position = insertEntity(entity);
    ensurePage(position);
    return position;
  }

  /**
   * Returns the position of {@code entity}'s component.
   *
   * @param operation the operation's name, for the exception message
   * @throws IllegalArgumentException if the entity has no such component
   */
  protected final int positionFor(final long entity, final String operation) {
    final int position = indexOf(entity);
    if (ABSENT == position) {
      throw missing(entity, operation);
    }
    return position;
  }

  /** Publishes construction for {@code entity}; call after writing the payload. */
  protected final void notifyConstruct(final long entity) {
    onConstruct.publish(registry, entity);
  }

  /** Publishes an update for {@code entity}; call after writing the payload. */
  protected final void notifyUpdate(final long entity) {
    onUpdate.publish(registry, entity);
  }

  /** Builds the exception for a missing component. */
  protected final IllegalArgumentException missing(final long entity, final String operation) {
    final String reason = null != registry && !registry.valid(entity)
        ? "the entity is not valid (destroyed or never created)"
        : "the entity has no " + type.name();
    return new IllegalArgumentException(
        "cannot " + operation + " " + type.name() + " of " + Entity.toString(entity) + ": " + reason);
  }

  private void checkValue(final long entity, final T value, final String operation) {
    if (null == value && !type.traits().empty()) {
      throw new NullPointerException(
          "cannot " + operation + " a null " + type.name() + " on " + Entity.toString(entity));
    }
  }

  private void ensurePage(final int position) {
    final int page = position >>> pageShift;
    while (page >= allocatedPages) {
      allocatePage(allocatedPages);
      allocatedPages++;
    }
  }

  /** A small per-thread stack of (storage, entity) removals in progress; grows, never shrinks. */
  private static final class PendingRemovals {
    private Storage<?>[] storages = new Storage<?>[4];
    private long[] entities = new long[4];
    private int depth;

    boolean contains(final Storage<?> storage, final long entity) {
      for (int i = depth - 1; i >= 0; i--) {
        if (storages[i] == storage && entities[i] == entity) {
          return true;
        }
      }
      return false;
    }

    void push(final Storage<?> storage, final long entity) {
      if (depth == storages.length) {
        storages = java.util.Arrays.copyOf(storages, depth * 2);
        entities = java.util.Arrays.copyOf(entities, depth * 2);
      }
      storages[depth] = storage;
      entities[depth] = entity;
      depth++;
    }

    void pop() {
      storages[--depth] = null;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Payload hooks.
  // ---------------------------------------------------------------------------------------------

  /**
   * Allocates payload page {@code page}; pages are requested in order 0, 1, 2, .... Empty storages
   * allocate nothing.
   */
  protected abstract void allocatePage(int page);

  /** Returns the component at {@code position} as an instance of the component class. */
  protected abstract T getAt(int position);

  /** Writes {@code value} into the payload at {@code position}. */
  protected abstract void setAt(int position, T value);
}
