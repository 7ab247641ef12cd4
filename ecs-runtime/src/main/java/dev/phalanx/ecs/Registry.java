package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The world: it creates entities and owns one storage per component type, found by the type's dense
 * id with one array read (no hashing, no reflection).
 *
 * <h2>Entities and components</h2>
 *
 * <p>Entities are {@code long} handles (see {@link Entity}). Every method that takes an entity first
 * checks that it is valid and throws {@link IllegalArgumentException} naming the entity otherwise;
 * every failing method leaves the registry as it was. Strict operations ({@code emplace},
 * {@code erase}, {@code get}, {@code replace}, {@code patch}) also name the component and the rule
 * broken; tolerant ones ({@code remove}, {@code tryGet}, {@code has}) do not throw for a missing
 * component.
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>p = number of storages in the registry, l = listeners on the storage</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code create}, {@code valid}</td><td>O(1)</td></tr>
 *   <tr><td>{@code destroy}, {@code orphan}</td><td>O(p)</td></tr>
 *   <tr><td>{@code emplace}, {@code remove}, {@code replace}</td><td>O(1 + l)</td></tr>
 *   <tr><td>{@code get}, {@code has}, {@code storage}</td><td>O(1)</td></tr>
 * </table>
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe. Read-only access (get, has, iteration) from several threads is safe while no
 * thread changes the registry; parallel iteration over groups has its own contract.
 */
public final class Registry {

  private final EntityStorage entities;
  private Storage<?>[] byId = new Storage<?>[32];
  private Storage<?>[] storages = new Storage<?>[8];
  private int storageCount;
  private final Context context = new Context();
  private final Groups groups = new Groups();
  // The entity whose components destroy() is stripping, or NULL: groups must not let it enter.
  private long destroying = Entity.NULL;

  /** Creates an empty registry. */
  public Registry() {
    this(new EntityStorage());
  }

  /**
   * Creates an empty registry that refuses to create more than {@code entityLimit} identifiers.
   */
  public Registry(final int entityLimit) {
    this(new EntityStorage(entityLimit));
  }

  private Registry(final EntityStorage entities) {
    this.entities = entities;
  }

  // ---------------------------------------------------------------------------------------------
  // Entities.
  // ---------------------------------------------------------------------------------------------

  /** Returns the entity storage (identifiers, versions, live entities). */
  public EntityStorage entities() {
    return entities;
  }

  /**
   * Creates an entity with no component.
   *
   * @throws IllegalStateException if every identifier is in use
   */
  public long create() {
    return entities.create();
  }

  /** Creates {@code out.length} entities into {@code out}; all or none. */
  public void create(final long[] out) {
    entities.create(out, 0, out.length);
  }

  /** Returns whether {@code entity} is live. */
  public boolean valid(final long entity) {
    return entities.valid(entity);
  }

  /** Returns the number of live entities. */
  public int alive() {
    return entities.alive();
  }

  /**
   * Destroys {@code entity}: removes each of its components (publishing destroy signals), then
   * releases its identifier with a bumped version.
   *
   * @throws IllegalArgumentException if the entity is not valid
   */
  public void destroy(final long entity) {
    checkValid(entity, "destroy");
    final long outer = destroying;
    destroying = entity;
    try {
      removeAll(entity);
    } finally {
      destroying = outer;
    }
    entities.release(entity);
  }

  /**
   * Returns whether {@code entity} is being destroyed: its components are being removed one by one.
   * Groups use it so that losing an excluded component on the way does not make it enter them.
   */
  public boolean isBeingDestroyed(final long entity) {
    return destroying == entity && !Entity.isNull(entity);
  }

  /**
   * Destroys every entity of {@code batch[from, to)}.
   *
   * @throws IllegalArgumentException if one is not valid; the entities before it are destroyed, it and
   *     those after it are not
   */
  public void destroy(final long[] batch, final int from, final int to) {
    for (int i = from; i < to; i++) {
      destroy(batch[i]);
    }
  }

  /** Returns whether {@code entity} is valid and has no component. */
  public boolean orphan(final long entity) {
    checkValid(entity, "inspect");
    for (int i = 0; i < storageCount; i++) {
      if (storages[i].contains(entity)) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Storages.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the storage of {@code type}, creating it on first use. The result is typed with the
   * type's storage class: {@code registry.storage(Position_Traits.TYPE)} is a
   * {@code Position_Storage}.
   */
  public <T, S extends Storage<T>> S storage(final ComponentType<T, S> type) {
    final int id = type.id();
    final Storage<?>[] table = byId;
    if (id < table.length) {
      final Storage<?> found = table[id];
      if (null != found) {
        @SuppressWarnings("unchecked") // byId[id] was created by type.createStorage()
        final S storage = (S) found;
        return storage;
      }
    }
    return createStorage(type);
  }

  /** Returns the storage of {@code type} if it exists, else {@code null}; never creates one. */
  public Storage<?> findStorage(final ComponentType<?, ?> type) {
    final int id = type.id();
    return id < byId.length ? byId[id] : null;
  }

  /** Returns the named void storage {@code name}, creating it on first use. */
  public VoidStorage storage(final String name) {
    return storage(ComponentType.named(name));
  }

  /** Returns the storage of {@code javaClass}'s type (see {@link ComponentType#of}); not for hot paths. */
  public <T> Storage<T> storage(final Class<T> javaClass) {
    return storage(ComponentType.of(javaClass));
  }

  /** Returns the number of storages created so far. */
  public int storageCount() {
    return storageCount;
  }

  /** Returns the storage created {@code n}-th, {@code [0, storageCount())}. */
  public Storage<?> storageAt(final int n) {
    if (n < 0 || n >= storageCount) {
      throw new IndexOutOfBoundsException(n + " outside [0, " + storageCount + ")");
    }
    return storages[n];
  }

  private <T, S extends Storage<T>> S createStorage(final ComponentType<T, S> type) {
    final S storage = type.createStorage();
    storage.bind(this);
    final int id = type.id();
    if (id >= byId.length) {
      byId = Arrays.copyOf(byId, Math.max(id + 1, byId.length * 2));
    }
    byId[id] = storage;
    if (storageCount == storages.length) {
      storages = Arrays.copyOf(storages, storageCount * 2);
    }
    storages[storageCount++] = storage;
    return storage;
  }

  // ---------------------------------------------------------------------------------------------
  // Components.
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds a component to {@code entity}.
   *
   * @throws IllegalArgumentException if the entity is not valid or already has one
   */
  public <T> T emplace(final long entity, final ComponentType<T, ?> type, final T value) {
    storage(type).emplace(entity, value);
    return value;
  }

  /** Adds the component, or replaces the one {@code entity} has. */
  public <T> T emplaceOrReplace(final long entity, final ComponentType<T, ?> type, final T value) {
    checkValid(entity, "emplace or replace", type, "on");
    storage(type).emplaceOrReplace(entity, value);
    return value;
  }

  /**
   * Replaces the component of {@code entity}.
   *
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> T replace(final long entity, final ComponentType<T, ?> type, final T value) {
    storage(type).replace(entity, value);
    return value;
  }

  /**
   * Passes the component of {@code entity} to {@code patcher} and publishes an update.
   *
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> void patch(
      final long entity, final ComponentType<T, ?> type, final java.util.function.Consumer<? super T> patcher) {
    storage(type).patch(entity, patcher);
  }

  /**
   * Returns the component of {@code entity}.
   *
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> T get(final long entity, final ComponentType<T, ?> type) {
    return storage(type).get(entity);
  }

  /**
   * Returns the component of {@code entity}, or {@code null} if it has none.
   *
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T tryGet(final long entity, final ComponentType<T, ?> type) {
    checkValid(entity, "get", type, "of");
    final Storage<?> storage = findStorage(type);
    return null == storage ? null : storage(type).tryGet(entity);
  }

  /**
   * Returns the component of {@code entity}, adding {@code supplier.get()} first if it has none.
   *
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T getOrEmplace(final long entity, final ComponentType<T, ?> type, final Supplier<? extends T> supplier) {
    checkValid(entity, "get or emplace", type, "on");
    final Storage<T> storage = storage(type);
    final int position = storage.indexOf(entity);
    if (SparseSet.ABSENT != position) {
      return storage.get(entity);
    }
    final T value = supplier.get();
    storage.emplace(entity, value);
    return value;
  }

  /**
   * Removes the component of {@code entity} if it has one (tolerant).
   *
   * @return whether one was removed
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean remove(final long entity, final ComponentType<?, ?> type) {
    checkValid(entity, "remove", type, "from");
    final Storage<?> storage = findStorage(type);
    return null != storage && storage.remove(entity);
  }

  /**
   * Removes the component of {@code entity} (strict).
   *
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public void erase(final long entity, final ComponentType<?, ?> type) {
    storage(type).erase(entity);
  }

  /**
   * Returns whether {@code entity} has a component of {@code type}.
   *
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean has(final long entity, final ComponentType<?, ?> type) {
    checkValid(entity, "inspect", type, "of");
    final Storage<?> storage = findStorage(type);
    return null != storage && storage.contains(entity);
  }

  /** Returns whether {@code entity} has both components. */
  public boolean allOf(final long entity, final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return has(entity, first) && has(entity, second);
  }

  /** Returns whether {@code entity} has every component of {@code types}. */
  public boolean allOf(final long entity, final ComponentType<?, ?>[] types) {
    checkValid(entity, "inspect");
    for (final ComponentType<?, ?> type : types) {
      if (!has(entity, type)) {
        return false;
      }
    }
    return true;
  }

  /** Returns whether {@code entity} has at least one of the two components. */
  public boolean anyOf(final long entity, final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return has(entity, first) || has(entity, second);
  }

  /** Returns whether {@code entity} has at least one component of {@code types}. */
  public boolean anyOf(final long entity, final ComponentType<?, ?>[] types) {
    checkValid(entity, "inspect");
    for (final ComponentType<?, ?> type : types) {
      if (has(entity, type)) {
        return true;
      }
    }
    return false;
  }

  /** Removes every component of {@code type} (publishing destroy for each). */
  public void clear(final ComponentType<?, ?> type) {
    final Storage<?> storage = findStorage(type);
    if (null != storage) {
      storage.clear();
    }
  }

  /** Destroys every entity and clears every storage. */
  public void clear() {
    for (int i = storageCount - 1; i >= 0; i--) {
      storages[i].clear();
    }
    entities.releaseAll();
  }

  // ---------------------------------------------------------------------------------------------
  // Views and context.
  // ---------------------------------------------------------------------------------------------

  /** Returns a view of the entities that have {@code type}. */
  public View view(final ComponentType<?, ?> type) {
    return View.of(new SparseSet[] {storage(type)}, new SparseSet[0]);
  }

  /** Returns a view of the entities that have both types. */
  public View view(final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return View.of(new SparseSet[] {storage(first), storage(second)}, new SparseSet[0]);
  }

  /** Returns a view of the entities that have all three types. */
  public View view(final ComponentType<?, ?> first, final ComponentType<?, ?> second, final ComponentType<?, ?> third) {
    return View.of(new SparseSet[] {storage(first), storage(second), storage(third)}, new SparseSet[0]);
  }

  /** Returns a view of the entities that have every type of {@code include} and none of {@code exclude}. */
  public View view(final ComponentType<?, ?>[] include, final ComponentType<?, ?>[] exclude) {
    final SparseSet[] in = new SparseSet[include.length];
    for (int i = 0; i < include.length; i++) {
      in[i] = storage(include[i]);
    }
    final SparseSet[] out = new SparseSet[exclude.length];
    for (int i = 0; i < exclude.length; i++) {
      out[i] = storage(exclude[i]);
    }
    return View.of(in, out);
  }

  /**
   * Returns the group with these lists, creating it on first request (O(n) to arrange the existing
   * entities). With {@code owned} empty the group is non-owning. See {@link Groups} for the rules
   * (nesting, conflicts, in-place storages).
   *
   * @throws IllegalArgumentException if a type is listed twice or nothing is included
   * @throws IllegalStateException if the group conflicts with an existing one or would own an
   *     in-place storage
   */
  public Group group(
      final ComponentType<?, ?>[] owned, final ComponentType<?, ?>[] get, final ComponentType<?, ?>[] exclude) {
    return groups.group(storages(owned), storages(get), storages(exclude));
  }

  /** Returns the owning group with these lists; see {@link #group}. */
  public OwningGroup owningGroup(
      final ComponentType<?, ?>[] owned, final ComponentType<?, ?>[] get, final ComponentType<?, ?>[] exclude) {
    if (0 == owned.length) {
      throw new IllegalArgumentException("an owning group needs at least one owned type");
    }
    return (OwningGroup) group(owned, get, exclude);
  }

  /** Returns the full-owning group of {@code owned}, with no get or excluded type. */
  public OwningGroup owningGroup(final ComponentType<?, ?>... owned) {
    return owningGroup(owned, new ComponentType<?, ?>[0], new ComponentType<?, ?>[0]);
  }

  /** Returns the non-owning group with these lists; see {@link #group}. */
  public NonOwningGroup nonOwningGroup(final ComponentType<?, ?>[] get, final ComponentType<?, ?>[] exclude) {
    return (NonOwningGroup) group(new ComponentType<?, ?>[0], get, exclude);
  }

  /** Returns the groups of this registry. */
  public Groups groups() {
    return groups;
  }

  /** Returns the context variables (world-wide singletons). */
  public Context context() {
    return context;
  }

  // ---------------------------------------------------------------------------------------------
  // Internals.
  // ---------------------------------------------------------------------------------------------

  private Storage<?>[] storages(final ComponentType<?, ?>[] types) {
    final Storage<?>[] result = new Storage<?>[types.length];
    for (int i = 0; i < types.length; i++) {
      result[i] = storage(types[i]);
    }
    return result;
  }

  private void removeAll(final long entity) {
    // Last created storage first, as EnTT, so that storages created later (often dependents) go first.
    for (int i = storageCount - 1; i >= 0; i--) {
      storages[i].remove(entity);
    }
  }

  // The message is built only on failure: these checks run on hot paths, which must not allocate.
  private void checkValid(
      final long entity, final String verb, final ComponentType<?, ?> type, final String preposition) {
    if (!entities.valid(entity)) {
      checkValid(entity, verb + " " + type.name() + " " + preposition);
    }
  }

  private void checkValid(final long entity, final String operation) {
    if (!entities.valid(entity)) {
      throw new IllegalArgumentException(
          "cannot " + operation + " " + Entity.toString(entity) + ": the entity is not valid (destroyed or never created)");
    }
  }
}
