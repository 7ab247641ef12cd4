package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The world: it creates entities and owns one storage per component type, found by the type's dense
 * id with one array read (no hashing, no reflection).
 *
 * <h2>Entities and components</h2>
 *
 * <p>Entities are {@code long} handles (see {@link Entity}). Every method that takes an entity
 * first checks that it is valid and throws {@link IllegalArgumentException} naming the entity
 * otherwise; every failing method leaves the registry as it was. Strict operations ({@code
 * emplace}, {@code erase}, {@code get}, {@code replace}, {@code patch}) also name the component and
 * the rule broken; tolerant ones ({@code remove}, {@code tryGet}, {@code has}) do not throw for a
 * missing component.
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>p = number of storages in the registry, l = listeners on the storage</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code create}, {@code valid}</td><td>O(1) (plus {@code onCreate}'s listeners)</td></tr>
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

  private static final SparseSet[] NO_SETS = new SparseSet[0];
  private static final Storage<?>[] NO_STORAGES = new Storage<?>[0];
  private static final ComponentType<?, ?>[] NO_TYPES = new ComponentType<?, ?>[0];
  // The version argument of destroy meaning "the next version": the one version no caller passes.
  static final int NEXT_VERSION = Entity.TOMBSTONE_VERSION;

  private final EntityStorage entities;
  private Storage<?>[] byId = new Storage<?>[32];
  private Storage<?>[] storages = new Storage<?>[8];
  private int storageCount;
  private final Context context = new Context();
  // Published after an entity is created, and when one is destroyed (after its components left).
  private final Signal onCreate = new Signal();
  private final Signal onDestroy = new Signal();
  private final Groups groups = new Groups(this);
  // The entities whose components destroy() is removing (nested destroys from listeners stack up):
  // they may not receive components, and they enter no group on the way out. [0, destroyingDepth)
  // holds them outermost first; Destruction pushes an entity before its first removal and pops it
  // once onDestroy ran. The hot checks read destroyingDepth alone, hence the state lives here.
  private long[] destroying = new long[4];
  private int destroyingDepth;
  // Whether clear() is removing everything: nothing may be created or added meanwhile.
  private boolean clearing;
  // Whether a destroy can run no user code and touch no group: no storage has a group, a destroy
  // listener or a removal listener, and onDestroy is empty. Decided again whenever one of those
  // changes (refreshDirectUpkeep), so never stale; whether anything is iterated or locked, or a
  // destroy or clear is in progress, is read at each destroy.
  private boolean plainDestroy = true;
  // The consistency checks: verify(), danglingReferences() and the checks features registered.
  private final RegistryVerifier verifier = new RegistryVerifier(this);
  // The guarded and batch destroys, which run over the state above.
  private final Destruction destruction = new Destruction(this);
  // Rules that may refuse a destroy before anything changes (addDestroyCheck), and the one-entry
  // batch they are handed for a single destroy.
  private DestroyCheck[] destroyChecks = new DestroyCheck[0];
  private final long[] oneDestroyed = new long[1];

  /** Creates an empty registry. */
  public Registry() {
    this(new EntityStorage());
  }

  /**
   * Creates an empty registry that refuses to create more than {@code entityLimit} identifiers.
   *
   * @param entityLimit the most identifiers the registry may ever create
   */
  public Registry(final int entityLimit) {
    this(new EntityStorage(entityLimit));
  }

  private Registry(final EntityStorage entities) {
    this.entities = entities;
    onDestroy.watch(this::refreshDirectUpkeep);
  }

  // ---------------------------------------------------------------------------------------------
  // Entities.
  // ---------------------------------------------------------------------------------------------

  /** {@return the entity storage (identifiers, versions, live entities)} */
  public EntityStorage entities() {
    return entities;
  }

  /**
   * Creates an entity with no component, then publishes {@link #onCreate()}.
   *
   * @return the new entity, with a fresh or recycled identifier
   * @throws IllegalStateException if every identifier is in use, or the registry is being cleared
   * @throws RuntimeException the first exception an {@link #onCreate()} listener threw; the entity
   *     is created all the same (and lost to the caller: a create listener should not throw)
   */
  public long create() {
    final long entity = createUnannounced();
    if (!onCreate.isEmpty()) {
      Failures.rethrow(onCreate.publish(this, entity, null));
    }
    return entity;
  }

  /**
   * Creates {@code out.length} entities into {@code out}; all or none.
   *
   * @param out receives the new entities
   */
  public void create(final long[] out) {
    create(out, 0, out.length);
  }

  /**
   * Creates {@code count} entities into {@code out[offset, offset + count)}, all or none, then
   * publishes {@link #onCreate()} for each, in order.
   *
   * @param out receives the new entities
   * @param offset where in {@code out} the first one goes
   * @param count how many to create
   * @throws IndexOutOfBoundsException if the range does not fit {@code out}
   * @throws IllegalStateException if the identifiers would run out, or the registry is being
   *     cleared; none is created
   * @throws RuntimeException the first exception an {@link #onCreate()} listener threw, once every
   *     entity is created and every listener told
   */
  public void create(final long[] out, final int offset, final int count) {
    checkNotClearing("create entities");
    entities.create(out, offset, count);
    if (!onCreate.isEmpty()) {
      Throwable failure = null;
      for (int i = offset; i < offset + count; i++) {
        failure = onCreate.publish(this, out[i], failure);
      }
      Failures.rethrow(failure);
    }
  }

  /**
   * Makes room for {@code capacity} entities, so that creating up to that many (one by one or in
   * bulk) allocates nothing: EnTT's {@code registry.storage<entity>().reserve(n)}. Pair it with
   * {@link SparseSet#reserve} on the storages that will receive components. O(capacity) when it
   * grows; nothing is created and nothing is published.
   *
   * @param capacity the number of entities to make room for
   * @throws IllegalArgumentException if {@code capacity} is negative
   */
  public void reserve(final int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("cannot reserve room for " + capacity + " entities");
    }
    entities.reserve(capacity);
  }

  /**
   * Replaces this registry's content with {@code image}'s: its identifiers, versions and recycling
   * order, and each of its storages with its elements at their positions and its values; groups are
   * rebuilt from them. The registry must have no live entity (a new one, or one cleared: its
   * released identifiers are replaced). Storages the image lacks stay as they are (empty).
   *
   * <p>Checked first, then changed by steps that run no user code and cannot fail half-way; then,
   * with the whole image in, enter is published for every member of a group that has enter
   * listeners (construct and {@link #onCreate()} are not: a restored state already holds what such
   * listeners derived). Listener exceptions are collected; the first is rethrown once all ran, and
   * the restored world stands. Every element of a tracked storage is stamped as written at the
   * current {@link #changeTick()}. O(storages + pages + tracked elements + group members).
   *
   * @param image the content, checked as it was built; restored once
   * @throws IllegalStateException if the registry has live entities or is clearing, or the image
   *     was restored before; nothing changed
   * @throws IllegalArgumentException if the image holds more identifiers than {@link
   *     EntityStorage#limit()}; nothing changed
   * @throws java.util.ConcurrentModificationException if a storage is locked or iterated; nothing
   *     changed
   * @throws RuntimeException the first exception an enter listener threw, once all ran
   */
  public void restore(final RegistryImage image) {
    image.restoreInto(this);
  }

  /**
   * Locks every storage of this registry for {@code by} and {@code of} (see {@link
   * SparseSet#lock}), and each storage it creates until {@link #unlockAll()}: structural changes
   * are refused everywhere, except on a storage whose lock {@link SparseSet#permit permits} the
   * calling thread. What a schedule does while a wave of systems runs on several threads (as
   * flecs's {@code readonly_begin}), so that an undeclared change, even into a storage a system
   * creates, is refused rather than raced. O(storages).
   *
   * @param by what holds the locks, in words ("the schedule")
   * @param of the object holding them, named in the refusal
   * @throws IllegalStateException if the registry is already locked by {@code lockAll}
   */
  public void lockAll(final String by, final Object of) {
    Objects.requireNonNull(by, "by");
    if (null != groups.lockNewBy) {
      throw new IllegalStateException(
          "cannot lock every storage for " + by + ": " + groups.lockNewBy + " holds them");
    }
    for (int s = 0; s < storageCount; s++) {
      storages[s].lock(by, of);
    }
    groups.lockNewBy = by;
    groups.lockNewOf = of;
  }

  /**
   * Releases what {@link #lockAll} took, the storages created meanwhile included. O(storages).
   *
   * @throws IllegalStateException if the registry is not locked by {@code lockAll}
   */
  public void unlockAll() {
    if (null == groups.lockNewBy) {
      throw new IllegalStateException("cannot unlock every storage: lockAll() holds none");
    }
    groups.lockNewBy = null;
    groups.lockNewOf = null;
    for (int s = 0; s < storageCount; s++) {
      storages[s].unlock();
    }
  }

  /**
   * Has every parallel chunk pass of this registry's groups count its tasks per thread into what
   * {@code source} returns for the thread that starts the pass (or not count, where it returns
   * {@code null}); {@code null} stops counting. A schedule counts per system to show how a pass
   * spread over the pool. Costs one read per pass while unset, one increment per task while set.
   *
   * @param source where passes count, or {@code null}
   */
  public void countChunks(final ChunkCounts.Source source) {
    groups.chunkCounts = source;
  }

  /**
   * Takes tasks of this registry's parallel chunk passes that other threads started and that still
   * have tasks left, until none is left: for a thread that would otherwise wait while they run (a
   * schedule's thread whose own system of a wave ended before the others). A task runs the pass's
   * body, as a pool thread would. Returns at once, allocating nothing, when no pass is under way.
   *
   * @return whether it ran any task
   */
  public boolean helpParallelPasses() {
    if (groups.openPasses.isEmpty()) {
      return false;
    }
    boolean ran = false;
    for (final ChunkPass pass : groups.openPasses) {
      ran |= pass.takeTasks() > 0;
    }
    return ran;
  }

  /**
   * Creates an entity without publishing {@link #onCreate()}: a feature that must not be stopped
   * half-way by a listener creates first and publishes {@link #onCreate()} once its own state is
   * consistent.
   */
  long createUnannounced() {
    checkNotClearing("create an entity");
    return entities.create();
  }

  /**
   * Creates {@code out[offset, offset + count)}, all or none, publishing nothing: a {@link
   * ChangeSet}'s apply step, which publishes {@link #onCreate()} once its changes are in place.
   */
  void createUnannounced(final long[] out, final int offset, final int count) {
    checkNotClearing("create entities");
    entities.create(out, offset, count);
  }

  /**
   * Refuses a {@link ChangeSet} commit that the registry's state forbids as a whole: one while the
   * registry is being cleared.
   */
  void checkChangeable(final ChangeSet changes) {
    if (clearing) {
      // The message is built only when refused: a warm commit allocates nothing.
      checkNotClearing("commit " + changes);
    }
  }

  /**
   * Refuses a staged destruction of the live {@code entity} that its state forbids: while it is
   * being destroyed (its destroy listeners run), or the registry cleared.
   */
  void checkDestroyable(final long entity) {
    if (0 != destroyingDepth && isBeingDestroyed(entity)) {
      throw RegistryRefusals.destroyingAlready(entity);
    }
  }

  /**
   * {@return the signal published after an entity is created} Its listeners run with the new entity
   * valid and without components (a bulk creation publishes once every entity exists, in order).
   * Creations by a {@link dev.phalanx.ecs.command.CommandBuffer CommandBuffer}'s apply and by the
   * continuous and delta loaders publish it too; a whole load by {@link
   * dev.phalanx.ecs.snapshot.SnapshotLoader SnapshotLoader} does not (it restores a saved state;
   * see that class). EnTT's {@code on_construct} of the entity storage.
   */
  public Signal onCreate() {
    return onCreate;
  }

  /**
   * {@return the signal published when an entity is destroyed} Its listeners run once every
   * component has been removed (each storage's {@link Storage#onDestroy()} ran before), while the
   * entity is still valid: they may read its identifier and destroy other entities, but components
   * added to it are refused and destroying it again is a no-op. {@link #clear()} publishes it for
   * every live entity. Publishing it makes a batch {@link #destroy(long[], int, int)} take the
   * entity-by-entity path. EnTT's {@code on_destroy} of the entity storage.
   */
  public Signal onDestroy() {
    return onDestroy;
  }

  /**
   * {@return whether {@code entity} is live}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public boolean valid(final long entity) {
    return entities.valid(entity);
  }

  /** {@return the number of live entities} */
  public int alive() {
    return entities.alive();
  }

  /**
   * Destroys {@code entity}: removes each of its components (publishing destroy signals, last
   * created storage first), then releases its identifier with a bumped version.
   *
   * <p>Every removal is checked before the first one is made, so a destroy refused by a lock or an
   * iteration guard changes nothing. The locks are checked first, reading only: a destroy of an
   * entity that a locked storage holds (one a parallel pass reads, say) is refused before the
   * registry's bookkeeping is touched, so bodies of a parallel pass refused on several threads at
   * once leave the registry as it was. Once started it always completes: components added to the
   * entity while it is being destroyed are refused ({@link IllegalStateException} in the listener
   * that tried), destroying it again from its own listeners is a no-op, and the first exception a
   * listener threw is rethrown after the identifier is released, later ones attached as suppressed.
   * Called from a listener while the registry is being {@linkplain #clear() cleared}, it is a no-op
   * too: the clear is destroying every entity, and announces each once.
   *
   * <p>Costs: O(storages), a lookup in each. When nothing can observe or refuse the removals (no
   * destroy or removal listener, no group, nothing iterated or locked) the destroy skips that
   * protection's bookkeeping: about 20 ns for an entity with two components among a million.
   *
   * @param entity the entity to destroy
   * @throws IllegalArgumentException if the entity is not valid
   * @throws java.util.ConcurrentModificationException if a removal would break an iteration or
   *     touch a locked storage; nothing is changed
   */
  public void destroy(final long entity) {
    if (plainDestroy && !groups.guards.any() && 0 == destroyingDepth && !clearing) {
      // Nothing can refuse, observe or interrupt it: the same removals, without the bookkeeping
      // that protects them from user code.
      checkValid(entity, "destroy");
      final Storage<?>[] all = storages;
      for (int i = storageCount - 1; i >= 0; i--) {
        all[i].removeIfPresent(entity);
      }
      entities.releaseLive(entity, NEXT_VERSION);
      return;
    }
    destroy(entity, NEXT_VERSION, "destroy");
  }

  /**
   * Destroys {@code entity} and releases it with {@code version} ({@link #NEXT_VERSION}: the next
   * one); see {@link #destroy(long)}.
   */
  private void destroy(final long entity, final int version, final String operation) {
    checkValid(entity, operation);
    if (clearing || isBeingDestroyed(entity)) {
      return;
    }
    destruction.destroy(entity, version);
  }

  /**
   * As {@link #destroy(long)}, and the identifier is recycled with {@code version} instead of the
   * next version: EnTT's {@code destroy(entity, version)}, for users who manage versions themselves
   * (mirroring another world's identifiers, say).
   *
   * <p>Unlike EnTT, the entity's own version is refused: reusing it would make every stale handle
   * to the destroyed entity valid again once its identifier is recycled, which is what versions
   * exist to prevent. Called from a listener of the entity's own destroy, it is a no-op, as {@link
   * #destroy(long)} is; the version is set as the identifier is released, before listeners'
   * exceptions are rethrown.
   *
   * @param entity the entity to destroy
   * @param version the version the identifier's next incarnation will have: any value but {@link
   *     Entity#TOMBSTONE_VERSION} and the entity's own version
   * @throws IllegalArgumentException if the entity is not valid or the version is refused; nothing
   *     is changed
   * @throws java.util.ConcurrentModificationException as {@link #destroy(long)}
   */
  public void destroy(final long entity, final int version) {
    checkValid(entity, "destroy with a chosen version");
    if (Entity.TOMBSTONE_VERSION == version || Entity.version(entity) == version) {
      throw RegistryRefusals.refusedVersion(entity, version);
    }
    destroy(entity, version, "destroy");
  }

  /**
   * Destroys every entity of {@code batch[from, to)}; an entity listed twice is destroyed once.
   * Everything is checked first (every entity valid, then no entity held by a locked storage, then
   * every removal allowed): a refused batch changes nothing. The locks are checked for the whole
   * batch before the registry's bookkeeping is touched, as {@link #destroy(long)} does, so a batch
   * refused on several threads at once (from the bodies of a parallel pass) leaves the registry as
   * it was. Listeners' exceptions are collected; the first is rethrown once the whole batch is
   * done.
   *
   * <p>When nothing can observe the batch (no destroy or removal listener, no iteration, and no
   * group but owning groups that span their owned storages alone) it is removed storage by storage,
   * one loop per storage, about twice as fast per entity as destroying one by one, with the same
   * result.
   *
   * @param batch the entities to destroy
   * @param from the first index of the range, inclusive
   * @param to the end of the range, exclusive
   * @throws IndexOutOfBoundsException if the range does not fit {@code batch}
   * @throws IllegalArgumentException if an entity is not valid; none is destroyed
   * @throws java.util.ConcurrentModificationException if an entity is held by a locked storage, or
   *     a removal would break an iteration; none is destroyed
   */
  public void destroy(final long[] batch, final int from, final int to) {
    Objects.checkFromToIndex(from, to, batch.length);
    for (int i = from; i < to; i++) {
      checkValid(batch[i], "destroy");
    }
    if (clearing) {
      return; // as one by one: the clear destroys them all
    }
    destruction.destroy(batch, from, to);
  }

  /**
   * {@return whether a batch {@link #destroy(long[], int, int)} called now would take its bulk
   * path, removing the entities storage by storage: nothing can observe or refuse the destroys}
   * That is so while no storage has a destroy or removal listener, {@link #onDestroy()} has none,
   * every group is an owning group that spans its owned storages alone, nothing is iterated or
   * locked, and no destroy or clear is in progress. No user code runs during such a batch, and its
   * result is the one of destroying its entities one by one; otherwise the batch checks every
   * entity first and destroys them one by one, running their listeners (see there). The answer
   * holds until a listener, group, iteration or lock is added or taken away. O(storages).
   */
  public boolean destroysInBulk() {
    if (groups.guards.any() || 0 != destroyingDepth || clearing || !onDestroy.isEmpty()) {
      return false;
    }
    return destruction.storagesRemovableInBulk();
  }

  /** Returns the number of destroys in progress (nested ones from listeners included). */
  int destroysInProgress() {
    return destroyingDepth;
  }

  /**
   * {@return whether {@code entity}'s destroy is under way} Its components are being removed or its
   * destroy listeners run: it is still valid, but it will not stay. Code that keeps references to
   * entities (a relationship naming a target) may refuse it. O(nested destroys); one field read
   * when no destroy runs.
   *
   * @param entity any handle
   */
  public boolean isBeingDestroyed(final long entity) {
    for (int i = destroyingDepth - 1; i >= 0; i--) {
      if (destroying[i] == entity) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@return whether {@link #clear()} is in progress} A listener that runs during a clear may ask,
   * to skip work the clear makes moot.
   */
  public boolean isClearing() {
    return clearing;
  }

  /** Returns whether a one-entity destroy may take its short path (see {@link #plainDestroy}). */
  boolean destroysPlainly() {
    return plainDestroy;
  }

  /** Returns whether groups must not let {@code entity} enter: it is being destroyed or cleared. */
  boolean suppressesEntry(final long entity) {
    return clearing || (0 != destroyingDepth && isBeingDestroyed(entity));
  }

  /**
   * Checks that {@code entity} may receive a component of {@code type} now.
   *
   * @throws IllegalArgumentException if it is not valid
   * @throws IllegalStateException if it is being destroyed or the registry cleared
   */
  void checkInsertion(final long entity, final ComponentType<?, ?> type) {
    if (!entities.valid(entity)) {
      checkValid(entity, "emplace " + type.name() + " on");
    }
    checkInsertionState(entity, type);
  }

  /**
   * Checks, for an entity known to be live, that it may receive a component of {@code type} now.
   *
   * @throws IllegalStateException if it is being destroyed or the registry cleared
   */
  void checkInsertionState(final long entity, final ComponentType<?, ?> type) {
    if (clearing) {
      throw RegistryRefusals.insertWhileClearing(entity, type);
    }
    if (0 != destroyingDepth && isBeingDestroyed(entity)) {
      throw RegistryRefusals.insertWhileDestroying(entity, type);
    }
  }

  /** Puts {@code entity} on the destroying stack: its components are about to be removed. */
  void pushDestroying(final long entity) {
    if (destroyingDepth == destroying.length) {
      destroying = Arrays.copyOf(destroying, destroyingDepth * 2);
    }
    destroying[destroyingDepth++] = entity;
  }

  /** Takes the innermost entity off the destroying stack: its destroy is complete. */
  void popDestroying() {
    destroyingDepth--;
  }

  private void checkNotClearing(final String operation) {
    if (clearing) {
      throw RegistryRefusals.clearing(operation);
    }
  }

  /**
   * {@return a view of every live entity, with or without components} Chain {@link
   * EntityView#exclude} to leave out the holders of some components: EnTT's {@code
   * view<entity>(exclude<T>)}. O(1); the view owns nothing.
   */
  public EntityView entityView() {
    return new EntityView(this, NO_STORAGES);
  }

  /**
   * {@return a handle on {@code entity} and this registry} (see {@link EntityHandle}) A small
   * object, for tools and tests; any handle is accepted, its validity is checked by each call.
   *
   * @param entity the entity, possibly stale
   */
  public EntityHandle handle(final long entity) {
    return new EntityHandle(this, entity);
  }

  /**
   * {@return whether {@code entity} is valid and has no component}
   *
   * @param entity the entity to inspect
   * @throws IllegalArgumentException if the entity is not valid
   */
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
   * {@return the storage of {@code type}, creating it on first use} The result is typed with the
   * type's storage class: {@code registry.storage(Position_Traits.TYPE)} is a {@code
   * Position_Storage}.
   *
   * @param <T> the component type
   * @param <S> the storage class generated for it
   * @param type the component type's key
   */
  public <T, S extends Storage<T>> S storage(final ComponentType<T, S> type) {
    final S existing = existing(type);
    return null != existing ? existing : createStorage(type);
  }

  /**
   * {@return the storage of {@code type} if it exists, else {@code null}; never creates one}
   *
   * @param type the component type's key
   */
  public Storage<?> findStorage(final ComponentType<?, ?> type) {
    final int id = type.id();
    return id < byId.length ? byId[id] : null;
  }

  /**
   * {@return the named void storage {@code name}, creating it on first use}
   *
   * @param name the void storage's name
   */
  public VoidStorage storage(final String name) {
    return storage(ComponentType.named(name));
  }

  /**
   * {@return the storage of {@code javaClass}'s type (see {@link ComponentType#of}); not for hot
   * paths}
   *
   * @param <T> the component type
   * @param javaClass a {@code @Component} class, whose generated traits are loaded reflectively
   */
  public <T> Storage<T> storage(final Class<T> javaClass) {
    return storage(ComponentType.of(javaClass));
  }

  /** {@return the number of storages created so far} */
  public int storageCount() {
    return storageCount;
  }

  /**
   * {@return the storage created {@code n}-th, {@code [0, storageCount())}}
   *
   * @param n the index, in creation order
   * @throws IndexOutOfBoundsException if {@code n} is outside {@code [0, storageCount())}
   */
  public Storage<?> storageAt(final int n) {
    if (n < 0 || n >= storageCount) {
      throw new IndexOutOfBoundsException(n + " outside [0, " + storageCount + ")");
    }
    return storages[n];
  }

  /**
   * {@return the storages in creation order, valid at {@code [0, storageCount())}} The registry's
   * own array, for loops of its package that read it; it is replaced as storages are added.
   */
  Storage<?>[] storageTable() {
    return storages;
  }

  private <T, S extends Storage<T>> S createStorage(final ComponentType<T, S> type) {
    final S storage = type.createStorage();
    storage.bind(this, groups);
    final int id = type.id();
    if (id >= byId.length) {
      byId = Arrays.copyOf(byId, Math.max(id + 1, byId.length * 2));
    }
    byId[id] = storage;
    if (storageCount == storages.length) {
      storages = Arrays.copyOf(storages, storageCount * 2);
    }
    storages[storageCount++] = storage;
    refreshDirectUpkeep();
    storage.bound();
    return storage;
  }

  /**
   * Makes every storage's group upkeep decisions again; see {@link Storage#refreshDirectUpkeep}.
   */
  void refreshDirectUpkeep() {
    boolean plain = onDestroy.isEmpty() && 0 == destroyChecks.length;
    for (int i = 0; i < storageCount; i++) {
      final Storage<?> storage = storages[i];
      storage.upkeep().decide();
      plain &= storage.removesPlainly();
    }
    plainDestroy = plain;
  }

  // ---------------------------------------------------------------------------------------------
  // Components.
  // ---------------------------------------------------------------------------------------------

  /**
   * Adds a component to {@code entity}.
   *
   * @param <T> the component type
   * @param entity the entity that receives the component
   * @param type the component type's key
   * @param value the component
   * @return {@code value}
   * @throws IllegalArgumentException if the entity is not valid or already has one
   * @throws IllegalStateException if the entity is being destroyed or the registry cleared
   * @throws java.util.ConcurrentModificationException if the change would break an iteration
   */
  public <T> T emplace(final long entity, final ComponentType<T, ?> type, final T value) {
    storageFor(entity, type, "emplace", "on").emplace(entity, value);
    return value;
  }

  /**
   * Adds the component, or replaces the one {@code entity} has.
   *
   * @param <T> the component type
   * @param entity the entity that receives the component
   * @param type the component type's key
   * @param value the new component
   * @return {@code value}
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T emplaceOrReplace(final long entity, final ComponentType<T, ?> type, final T value) {
    checkValid(entity, "emplace or replace", type, "on");
    storage(type).emplaceOrReplace(entity, value);
    return value;
  }

  /**
   * Replaces the component of {@code entity}.
   *
   * @param <T> the component type
   * @param entity the entity whose component is replaced
   * @param type the component type's key
   * @param value the new component
   * @return {@code value}
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> T replace(final long entity, final ComponentType<T, ?> type, final T value) {
    storageFor(entity, type, "replace", "of").replace(entity, value);
    return value;
  }

  /**
   * Passes the component of {@code entity} to {@code patcher} and publishes an update.
   *
   * @param <T> the component type
   * @param entity the entity whose component is patched
   * @param type the component type's key
   * @param patcher changes the component in place
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> void patch(
      final long entity, final ComponentType<T, ?> type, final Consumer<? super T> patcher) {
    storageFor(entity, type, "patch", "of").patch(entity, patcher);
  }

  /**
   * {@return the component of {@code entity}}
   *
   * @param <T> the component type
   * @param entity the entity to read
   * @param type the component type's key
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> T get(final long entity, final ComponentType<T, ?> type) {
    return storageFor(entity, type, "get", "of").get(entity);
  }

  /**
   * {@return the component of {@code entity}, or {@code null} if it has none}
   *
   * @param <T> the component type
   * @param entity the entity to read
   * @param type the component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T tryGet(final long entity, final ComponentType<T, ?> type) {
    checkValid(entity, "get", type, "of");
    final Storage<?> storage = findStorage(type);
    return null == storage ? null : storage(type).tryGet(entity);
  }

  /**
   * {@return the component of {@code entity}, adding {@code supplier.get()} first if it has none}
   * If the supplier throws, nothing is added.
   *
   * @param <T> the component type
   * @param entity the entity to read, or to add the component to
   * @param type the component type's key
   * @param supplier makes the component to add; called only if the entity has none
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T getOrEmplace(
      final long entity, final ComponentType<T, ?> type, final Supplier<? extends T> supplier) {
    checkValid(entity, "get or emplace", type, "on");
    final Storage<?> existing = findStorage(type);
    if (null != existing && existing.contains(entity)) {
      return storage(type).get(entity);
    }
    // The supplier runs before the storage is created: if it throws, nothing changed.
    final T value = supplier.get();
    storage(type).emplace(entity, value);
    return value;
  }

  /**
   * Removes the component of {@code entity} if it has one (tolerant).
   *
   * @param entity the entity to remove the component from
   * @param type the component type's key
   * @return whether one was removed
   * @throws IllegalArgumentException if the entity is not valid
   * @throws java.util.ConcurrentModificationException if the removal would break an iteration
   */
  public boolean remove(final long entity, final ComponentType<?, ?> type) {
    checkValid(entity, "remove", type, "from");
    final Storage<?> storage = findStorage(type);
    return null != storage && storage.remove(entity);
  }

  /**
   * Removes the component of {@code entity} (strict).
   *
   * @param entity the entity to remove the component from
   * @param type the component type's key
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public void erase(final long entity, final ComponentType<?, ?> type) {
    storageFor(entity, type, "erase", "from").erase(entity);
  }

  /**
   * {@return whether {@code entity} has a component of {@code type}}
   *
   * @param entity the entity to inspect
   * @param type the component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean has(final long entity, final ComponentType<?, ?> type) {
    checkValid(entity, "inspect", type, "of");
    final Storage<?> storage = findStorage(type);
    return null != storage && storage.contains(entity);
  }

  /**
   * {@return whether {@code entity} has both components}
   *
   * @param entity the entity to inspect
   * @param first a component type's key
   * @param second another component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean allOf(
      final long entity, final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return has(entity, first) && has(entity, second);
  }

  /**
   * {@return whether {@code entity} has every component of {@code types}}
   *
   * @param entity the entity to inspect
   * @param types the component types' keys; an empty array matches every valid entity
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean allOf(final long entity, final ComponentType<?, ?>[] types) {
    checkValid(entity, "inspect");
    for (final ComponentType<?, ?> type : types) {
      if (!has(entity, type)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@return whether {@code entity} has at least one of the two components}
   *
   * @param entity the entity to inspect
   * @param first a component type's key
   * @param second another component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean anyOf(
      final long entity, final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return has(entity, first) || has(entity, second);
  }

  /**
   * {@return whether {@code entity} has at least one component of {@code types}}
   *
   * @param entity the entity to inspect
   * @param types the component types' keys; an empty array matches no entity
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean anyOf(final long entity, final ComponentType<?, ?>[] types) {
    checkValid(entity, "inspect");
    for (final ComponentType<?, ?> type : types) {
      if (has(entity, type)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Removes every component of {@code type}, publishing destroy for each; see {@link
   * Storage#clear()}.
   *
   * @param type the component type's key; nothing happens if its storage was never created
   */
  public void clear(final ComponentType<?, ?> type) {
    final Storage<?> storage = findStorage(type);
    if (null != storage) {
      storage.clear();
    }
  }

  /**
   * Destroys every entity and clears every storage (last created first), publishing destroy for
   * each component, then {@link #onDestroy()} for each live entity. Everything is checked first: if
   * a storage is locked or iterated, nothing changes. Once started it completes: creating entities
   * or adding components meanwhile (from a listener) is refused, destroying one is a no-op (each
   * live entity is announced once, by the clear, and released with the rest), and the first
   * exception a listener threw is rethrown at the end. Calling it from a listener of the clear
   * itself is a no-op.
   *
   * @throws java.util.ConcurrentModificationException if a storage is locked or iterated
   */
  public void clear() {
    if (clearing) {
      return;
    }
    destruction.checkClear();
    clearing = true;
    Throwable failure;
    try {
      failure = destruction.clearAll();
    } finally {
      clearing = false;
    }
    entities.releaseAll();
    Failures.rethrow(failure);
  }

  // ---------------------------------------------------------------------------------------------
  // Views and groups.
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return a view of the entities that have {@code type}}
   *
   * @param type the component type's key
   */
  public View view(final ComponentType<?, ?> type) {
    return View.of(new SparseSet[] {storage(type)}, NO_SETS);
  }

  /**
   * {@return a view of the entities that have both types}
   *
   * @param first a component type's key
   * @param second another component type's key
   */
  public View view(final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return View.of(new SparseSet[] {storage(first), storage(second)}, NO_SETS);
  }

  /**
   * {@return a view of the entities that have all three types}
   *
   * @param first a component type's key
   * @param second another component type's key
   * @param third a third component type's key
   */
  public View view(
      final ComponentType<?, ?> first,
      final ComponentType<?, ?> second,
      final ComponentType<?, ?> third) {
    return View.of(new SparseSet[] {storage(first), storage(second), storage(third)}, NO_SETS);
  }

  /**
   * {@return a view of the entities that have all four types}
   *
   * @param first a component type's key
   * @param second another component type's key
   * @param third a third component type's key
   * @param fourth a fourth component type's key
   */
  public View view(
      final ComponentType<?, ?> first,
      final ComponentType<?, ?> second,
      final ComponentType<?, ?> third,
      final ComponentType<?, ?> fourth) {
    return View.of(
        new SparseSet[] {storage(first), storage(second), storage(third), storage(fourth)},
        NO_SETS);
  }

  /**
   * {@return a typed view of the entities that have the type, handing a cursor per type to its
   * {@code each}}
   *
   * <p>A typed view needs every type to have a generated cursor (an {@code @Component} with
   * fields); for tags, object storages or mixed lists use {@link #view(ComponentType)} and its
   * siblings, which hand out entity ids only. (The name differs from {@code view} because both
   * would take a {@code ComponentType}: Java cannot overload on type arguments.) Keep the view: its
   * cursors are made once, so its {@code each} allocates nothing.
   *
   * @param <T1> the first component class
   * @param <S1> its generated storage class
   * @param <K1> its generated cursor class
   * @param first the first type's key ({@code Foo_Traits.TYPE})
   */
  public <T1, S1 extends Storage<T1> & CursorSource<K1>, K1 extends Cursor> View1<K1> typedView(
      final ComponentType<T1, S1> first) {
    final S1 storage1 = storage(first);
    return new View1<>(View.of(new SparseSet[] {storage1}, NO_SETS), storage1);
  }

  /**
   * {@return a typed view of the entities that have both types, handing a cursor per type to its
   * {@code each}}
   *
   * <p>See {@link #typedView(ComponentType)}; the cursors follow the order of the arguments.
   *
   * @param <T1> the first component class
   * @param <S1> its generated storage class
   * @param <K1> its generated cursor class
   * @param <T2> the second component class
   * @param <S2> its generated storage class
   * @param <K2> its generated cursor class
   * @param first the first type's key ({@code Foo_Traits.TYPE})
   * @param second the second type's key ({@code Foo_Traits.TYPE})
   */
  public <
          T1,
          S1 extends Storage<T1> & CursorSource<K1>,
          K1 extends Cursor,
          T2,
          S2 extends Storage<T2> & CursorSource<K2>,
          K2 extends Cursor>
      View2<K1, K2> typedView(
          final ComponentType<T1, S1> first, final ComponentType<T2, S2> second) {
    final S1 storage1 = storage(first);
    final S2 storage2 = storage(second);
    return new View2<>(View.of(new SparseSet[] {storage1, storage2}, NO_SETS), storage1, storage2);
  }

  /**
   * {@return a typed view of the entities that have all three types, handing a cursor per type to
   * its {@code each}}
   *
   * <p>See {@link #typedView(ComponentType)}; the cursors follow the order of the arguments.
   *
   * @param <T1> the first component class
   * @param <S1> its generated storage class
   * @param <K1> its generated cursor class
   * @param <T2> the second component class
   * @param <S2> its generated storage class
   * @param <K2> its generated cursor class
   * @param <T3> the third component class
   * @param <S3> its generated storage class
   * @param <K3> its generated cursor class
   * @param first the first type's key ({@code Foo_Traits.TYPE})
   * @param second the second type's key ({@code Foo_Traits.TYPE})
   * @param third the third type's key ({@code Foo_Traits.TYPE})
   */
  public <
          T1,
          S1 extends Storage<T1> & CursorSource<K1>,
          K1 extends Cursor,
          T2,
          S2 extends Storage<T2> & CursorSource<K2>,
          K2 extends Cursor,
          T3,
          S3 extends Storage<T3> & CursorSource<K3>,
          K3 extends Cursor>
      View3<K1, K2, K3> typedView(
          final ComponentType<T1, S1> first,
          final ComponentType<T2, S2> second,
          final ComponentType<T3, S3> third) {
    final S1 storage1 = storage(first);
    final S2 storage2 = storage(second);
    final S3 storage3 = storage(third);
    return new View3<>(
        View.of(new SparseSet[] {storage1, storage2, storage3}, NO_SETS),
        storage1,
        storage2,
        storage3);
  }

  /**
   * {@return a typed view of the entities that have all four types, handing a cursor per type to
   * its {@code each}}
   *
   * <p>See {@link #typedView(ComponentType)}; the cursors follow the order of the arguments.
   *
   * @param <T1> the first component class
   * @param <S1> its generated storage class
   * @param <K1> its generated cursor class
   * @param <T2> the second component class
   * @param <S2> its generated storage class
   * @param <K2> its generated cursor class
   * @param <T3> the third component class
   * @param <S3> its generated storage class
   * @param <K3> its generated cursor class
   * @param <T4> the fourth component class
   * @param <S4> its generated storage class
   * @param <K4> its generated cursor class
   * @param first the first type's key ({@code Foo_Traits.TYPE})
   * @param second the second type's key ({@code Foo_Traits.TYPE})
   * @param third the third type's key ({@code Foo_Traits.TYPE})
   * @param fourth the fourth type's key ({@code Foo_Traits.TYPE})
   */
  public <
          T1,
          S1 extends Storage<T1> & CursorSource<K1>,
          K1 extends Cursor,
          T2,
          S2 extends Storage<T2> & CursorSource<K2>,
          K2 extends Cursor,
          T3,
          S3 extends Storage<T3> & CursorSource<K3>,
          K3 extends Cursor,
          T4,
          S4 extends Storage<T4> & CursorSource<K4>,
          K4 extends Cursor>
      View4<K1, K2, K3, K4> typedView(
          final ComponentType<T1, S1> first,
          final ComponentType<T2, S2> second,
          final ComponentType<T3, S3> third,
          final ComponentType<T4, S4> fourth) {
    final S1 storage1 = storage(first);
    final S2 storage2 = storage(second);
    final S3 storage3 = storage(third);
    final S4 storage4 = storage(fourth);
    return new View4<>(
        View.of(new SparseSet[] {storage1, storage2, storage3, storage4}, NO_SETS),
        storage1,
        storage2,
        storage3,
        storage4);
  }

  /**
   * {@return a view of the entities that have every type of {@code include} and none of {@code
   * exclude}}
   *
   * @param include the types every visited entity has
   * @param exclude the types no visited entity has
   */
  public View view(final ComponentType<?, ?>[] include, final ComponentType<?, ?>[] exclude) {
    return View.of(storages(include), storages(exclude));
  }

  /**
   * Returns the group with these lists, creating it on first request (O(n) to arrange the existing
   * entities). With {@code owned} empty the group is non-owning. See {@link Groups} for the rules
   * (nesting, conflicts, in-place storages). A refused request changes nothing.
   *
   * @param owned the types whose storages the group owns (arranges), possibly none
   * @param get the other types every member has
   * @param exclude the types no member has
   * @return the group: an {@link OwningGroup}, or a {@link NonOwningGroup} if {@code owned} is
   *     empty
   * @throws IllegalArgumentException if a type is listed twice or nothing is included
   * @throws IllegalStateException if the group conflicts with an existing one or would own an
   *     in-place storage
   * @throws java.util.ConcurrentModificationException if creating it would rearrange a storage that
   *     is locked or iterated
   */
  public Group group(
      final ComponentType<?, ?>[] owned,
      final ComponentType<?, ?>[] get,
      final ComponentType<?, ?>[] exclude) {
    checkDistinct(owned, get, exclude);
    return groups.group(storages(owned), storages(get), storages(exclude));
  }

  /**
   * {@return the owning group with these lists; see {@link #group}}
   *
   * @param owned the types whose storages the group owns; at least one
   * @param get the other types every member has
   * @param exclude the types no member has
   * @throws IllegalArgumentException if {@code owned} is empty, or as {@link #group}
   */
  public OwningGroup owningGroup(
      final ComponentType<?, ?>[] owned,
      final ComponentType<?, ?>[] get,
      final ComponentType<?, ?>[] exclude) {
    if (0 == owned.length) {
      throw new IllegalArgumentException("an owning group needs at least one owned type");
    }
    return (OwningGroup) group(owned, get, exclude);
  }

  /**
   * {@return the full-owning group of {@code owned}, with no get or excluded type}
   *
   * @param owned the types whose storages the group owns; at least one
   */
  public OwningGroup owningGroup(final ComponentType<?, ?>... owned) {
    return owningGroup(owned, NO_TYPES, NO_TYPES);
  }

  /**
   * {@return the non-owning group with these lists; see {@link #group}}
   *
   * @param get the types every member has
   * @param exclude the types no member has
   */
  public NonOwningGroup nonOwningGroup(
      final ComponentType<?, ?>[] get, final ComponentType<?, ?>[] exclude) {
    return (NonOwningGroup) group(NO_TYPES, get, exclude);
  }

  /** {@return the groups of this registry} */
  public Groups groups() {
    return groups;
  }

  /** {@return the context variables (world-wide singletons)} */
  public Context context() {
    return context;
  }

  // ---------------------------------------------------------------------------------------------
  // Change ticks.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the current change tick: the stamp that tracked storages ({@code @Component(tracked =
   * true)}) give a write made now. Starts at 1.
   *
   * @return the current change tick
   */
  public long changeTick() {
    return groups.guards.changeTick;
  }

  /**
   * Sets the current change tick, for tests that need a registry whose tick is far along (past
   * 2^31, say) without advancing it that often.
   */
  void changeTick(final long tick) {
    groups.guards.changeTick = tick;
  }

  /**
   * Advances the change tick and returns the tick before it: writes made from now on are stamped
   * later than the returned tick. A system that reacts to changes keeps the value it got last time:
   *
   * <pre>{@code
   * final long since = seen;             // what this system has already seen
   * seen = registry.advanceChangeTick(); // later writes count as new next time
   * query.eachChangedSince(since, visitor);
   * }</pre>
   *
   * Ticks are 64-bit and compare plainly: they do not wrap in practice (a million advances a second
   * would take 292,000 years), so a reader may look as seldom as it likes.
   *
   * @return the tick before the advance: every write stamped later is newer than it
   */
  public long advanceChangeTick() {
    return groups.guards.changeTick++;
  }

  // ---------------------------------------------------------------------------------------------
  // Parallel passes.
  // ---------------------------------------------------------------------------------------------

  /**
   * {@return the number of parallel passes over the registry's groups that have ended} A parallel
   * pass is one call of {@link OwningGroup#parallelEachChunk} (any of its forms); the count grows
   * by one as the pass ends, once every task has joined and the group's storages are unlocked,
   * whether the body threw or not. Nothing else changes it.
   *
   * <p>Code that hands work to threads per pass can tell passes apart with it: a value read during
   * a pass (by any of its tasks, no pass nested in it having ended) equals the value read before
   * the pass began, and differs from the value read after it ended; so a per-thread resource
   * claimed during one pass can be known free again once the count has moved on. Compare values for
   * equality only: the count wraps after 2^32 passes. Read it from the thread that runs the passes
   * or from their tasks; it is one plain field read.
   */
  public int parallelPasses() {
    return groups.guards.parallelPasses;
  }

  // ---------------------------------------------------------------------------------------------
  // Consistency.
  // ---------------------------------------------------------------------------------------------

  /**
   * Checks every invariant of the registry and returns the broken ones, in words; an empty list
   * means the registry is consistent. Call it when no iteration is running. O(total number of
   * elements): a debugging and testing aid, not for every frame.
   *
   * <p>It checks: the entity storage's index; every storage's sparse and packed arrays and free
   * list of holes; that no component belongs to a dead entity; that every group holds exactly the
   * matching entities, that owned storages are aligned, that nested groups are nested; that no
   * lock, iteration or destroy is left registered. Then it runs every check a feature registered
   * with {@link #addCheck}, in the order they were added: the {@link
   * dev.phalanx.ecs.hierarchy.Hierarchy Hierarchy}'s (symmetric links, child counts, no cycles,
   * every link naming a live entity with a node) once the registry has one. A check that throws is
   * reported as a broken invariant, with its exception.
   *
   * @return the broken invariants, each described in words; empty if the registry is consistent
   */
  public List<String> verify() {
    return verifier.verify();
  }

  /**
   * Adds a rule that may refuse a destroy before anything changes; see {@link DestroyCheck}. Every
   * destroy then takes the checked path (no destroy skips the protection's bookkeeping). Rules stay
   * for the registry's life and run in the order they were added.
   *
   * @param check the rule
   */
  public void addDestroyCheck(final DestroyCheck check) {
    Objects.requireNonNull(check, "check");
    destroyChecks = Arrays.copyOf(destroyChecks, destroyChecks.length + 1);
    destroyChecks[destroyChecks.length - 1] = check;
    refreshDirectUpkeep();
  }

  /**
   * {@return whether a storage or group of this registry is iterated or locked now} While one is,
   * structural changes are checked against the iterations and locks before they are made, and may
   * be refused ({@link #checkDestroy}, {@link Storage#checkRemove}).
   */
  public boolean isIteratedOrLocked() {
    return groups.guards.any();
  }

  /**
   * Checks, changing nothing, that {@link #destroy(long)} of {@code entity} would not be refused
   * now by a lock or an iteration of a storage that holds it; does nothing for an entity that is
   * not valid. For a {@link DestroyCheck} whose destroy takes other entities along (a
   * relationship's linked destroys), so that it can refuse the first destroy rather than stop
   * midway. O(storages) while something is iterated or locked, O(1) otherwise; it runs no {@link
   * DestroyCheck}.
   *
   * @param entity the entity that would be destroyed
   * @throws java.util.ConcurrentModificationException naming the entity and the storage, if a lock
   *     or an iteration would refuse the destroy
   */
  public void checkDestroy(final long entity) {
    if (groups.guards.any() && entities.valid(entity)) {
      destruction.checkDestroyable(entity);
    }
  }

  /** Runs every {@link DestroyCheck} on {@code batch[from, to)}; see {@link #addDestroyCheck}. */
  void checkDestroyRules(final long[] batch, final int from, final int to) {
    final DestroyCheck[] checks = destroyChecks;
    for (final DestroyCheck check : checks) {
      check.check(this, batch, from, to);
    }
  }

  /** Runs every {@link DestroyCheck} on the one {@code entity}. */
  void checkDestroyRules(final long entity) {
    if (0 != destroyChecks.length) {
      oneDestroyed[0] = entity;
      checkDestroyRules(oneDestroyed, 0, 1);
    }
  }

  /**
   * Registers a check of a feature's own invariants, which {@link #verify()} runs after the core's
   * on every call: a feature that keeps state of its own next to the storages (the {@link
   * dev.phalanx.ecs.hierarchy.Hierarchy Hierarchy}'s links) adds one when it attaches to the
   * registry, so that {@code verify()} covers it. The check appends each broken invariant, in
   * words, to the list it is handed, and must not change the registry. Checks stay registered for
   * the registry's life.
   *
   * @param name what the check covers, in words ("hierarchy"); a check that throws is reported as
   *     {@code the <name> check failed: <exception>}
   * @param check appends the broken invariants it finds to the list it is given
   */
  public void addCheck(final String name, final Consumer<List<String>> check) {
    verifier.addCheck(name, check);
  }

  /**
   * Returns, in words, every entity reference held by a component (a field marked
   * {@code @EntityRef}, a {@link dev.phalanx.ecs.hierarchy.Hierarchy Hierarchy} link) that names
   * neither {@link Entity#NULL} nor a live entity: references left dangling when their target was
   * destroyed. A debugging aid built from generated code: it walks every reference of every
   * storage, without reflection. O(references).
   *
   * @return the dangling references, each described in words; empty if there is none
   */
  public List<String> danglingReferences() {
    return verifier.danglingReferences();
  }

  // ---------------------------------------------------------------------------------------------
  // Internals.
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the storage of {@code type} for an operation on {@code entity}. An existing storage is
   * returned at once (its own checks name an invalid entity); a storage is created only for a valid
   * entity, so that a refused call on a stale handle leaves the registry as it was.
   */
  private <T, S extends Storage<T>> S storageFor(
      final long entity,
      final ComponentType<T, S> type,
      final String verb,
      final String preposition) {
    final S existing = existing(type);
    if (null != existing) {
      return existing;
    }
    checkValid(entity, verb, type, preposition);
    return createStorage(type);
  }

  /** Returns the storage of {@code type}, or {@code null}: one array read. */
  private <T, S extends Storage<T>> S existing(final ComponentType<T, S> type) {
    final int id = type.id();
    final Storage<?>[] table = byId;
    if (id < table.length) {
      @SuppressWarnings("unchecked") // byId[id] was created by type.createStorage()
      final S found = (S) table[id];
      return found;
    }
    return null;
  }

  private Storage<?>[] storages(final ComponentType<?, ?>[] types) {
    final Storage<?>[] result = new Storage<?>[types.length];
    for (int i = 0; i < types.length; i++) {
      result[i] = storage(types[i]);
    }
    return result;
  }

  private static void checkDistinct(final ComponentType<?, ?>[]... lists) {
    for (int a = 0; a < lists.length; a++) {
      for (int i = 0; i < lists[a].length; i++) {
        for (int b = a; b < lists.length; b++) {
          for (int j = b == a ? i + 1 : 0; j < lists[b].length; j++) {
            if (lists[a][i] == lists[b][j]) {
              throw RegistryRefusals.listedTwice(lists[a][i]);
            }
          }
        }
      }
    }
  }

  // The message is built only on failure: these checks run on hot paths, which must not allocate.
  private void checkValid(
      final long entity,
      final String verb,
      final ComponentType<?, ?> type,
      final String preposition) {
    if (!entities.valid(entity)) {
      checkValid(entity, verb + " " + type.name() + " " + preposition);
    }
  }

  private void checkValid(final long entity, final String operation) {
    if (!entities.valid(entity)) {
      throw RegistryRefusals.invalid(entity, operation);
    }
  }
}
