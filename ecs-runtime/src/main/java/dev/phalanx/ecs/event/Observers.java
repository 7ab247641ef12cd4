package dev.phalanx.ecs.event;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;
import java.util.Objects;

/**
 * The observers of one registry's user-defined events: code registered for an {@link EventType},
 * run when an event of that type is {@linkplain #trigger triggered} on an entity.
 *
 * <h2>Model</h2>
 *
 * <p>An observer watches one event type, on every entity, on the entities that have a component, or
 * on one entity (Bevy's entity observers; the observation ends when the entity is destroyed). A
 * trigger names the event, the entity and the payload, and runs, in this order:
 *
 * <ol>
 *   <li>the observers of that one entity, in the order they were registered;
 *   <li>the observers of every entity and of a component the entity has, in the order they were
 *       registered;
 *   <li>for a {@linkplain EventType#propagating propagating} type, the same two steps at the
 *       entity's parent in the registry's {@link Hierarchy}, then its parent's parent, up to a
 *       root, until an observer {@linkplain Trigger#stopPropagation() stops} it.
 * </ol>
 *
 * <p>The lifecycle events {@link EventType#ADDED}, {@link EventType#CHANGED} and {@link
 * EventType#REMOVED} are observed per component and triggered by the component's storage: such an
 * observer is a listener of the storage's construct, update or destroy signal, and follows the
 * rules of {@link dev.phalanx.ecs.Signal}.
 *
 * <p>Observers run on the triggering thread, at once, before {@code trigger} returns. They may
 * change the world under the rules that hold where the event was triggered: inside an iteration,
 * structural changes go through a {@link dev.phalanx.ecs.ChangeSet ChangeSet} or a {@link
 * dev.phalanx.ecs.command.CommandBuffer CommandBuffer}, as they would in the loop's body.
 *
 * <h2>Re-entrancy and failures</h2>
 *
 * <ul>
 *   <li>An observer may trigger events (they are dispatched at once, nested, up to {@value
 *       #MAX_DEPTH} deep), and register or close observers: a change of the observers takes effect
 *       from the next trigger; a dispatch runs the observers registered when it began.
 *   <li>An observer may destroy entities: observers of an entity run only while it is live, so the
 *       rest of a destroyed entity's observers are skipped and the event goes no further up.
 *   <li>An observer that throws stops nothing: every other observer still runs, and the first
 *       exception is rethrown when the dispatch is complete, later ones attached as {@linkplain
 *       Throwable#getSuppressed() suppressed} (the rule of {@link dev.phalanx.ecs.Signal}).
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>A trigger with no observer of its type checks the entity and returns: no lookup, no
 * allocation. Otherwise it costs one call per observer plus a {@code contains} per component
 * filter, and for a propagating type one parent lookup per level; nothing is allocated once the
 * dispatch depth has been reached before. Registering or closing an observer copies its list.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe: trigger and register from one thread at a time.
 */
public final class Observers {

  /** How deep triggers from observers may nest before one is refused. */
  public static final int MAX_DEPTH = 64;

  private static final Observation[] NONE = {};

  private final Registry registry;
  // The observers of every entity, and of entities with a component, by event type id.
  private Observation[][] byType = {};
  // How many observers of one entity each event type has, by type id.
  private int[] entityObservers = {};
  // The observers of one entity: its handle maps to a slot of entityLists.
  private final LongLongMap entitySlots = new LongLongMap(16);
  private Observation[][] entityLists = {};
  private int[] freeSlots = new int[0];
  private int freeCount;
  private boolean destroyWatched;
  // Open observations of lifecycle events: listeners on storage signals.
  private int lifecycleObservers;
  // The registry's hierarchy, for propagation; null until one exists.
  private Hierarchy hierarchy;
  // One reused trigger per nesting depth.
  private Trigger<?>[] triggers = new Trigger<?>[4];
  private int depth;

  private Observers(final Registry registry) {
    this.registry = registry;
  }

  /**
   * {@return the observers of {@code registry}, created on first call}
   *
   * @param registry the registry whose entities events are triggered on; it keeps its observers in
   *     its context
   */
  public static Observers of(final Registry registry) {
    final Observers existing = registry.context().find(Observers.class);
    return null != existing
        ? existing
        : registry.context().emplace(Observers.class, new Observers(registry));
  }

  // ---------------------------------------------------------------------------------------------
  // Registering.
  // ---------------------------------------------------------------------------------------------

  /**
   * Runs {@code observer} for every event of {@code type}, on any entity.
   *
   * @param <E> the payload class
   * @param type the event type
   * @param observer the code to run
   * @return the observation, to close it
   */
  public <E> Observation observe(final EventType<E> type, final Observer<? super E> observer) {
    refuseLifecycle(type, "on every entity");
    return add(new Observation(this, type, erased(observer), null, Entity.NULL));
  }

  /**
   * Runs {@code observer} for every event of {@code type} on an entity that has a component of
   * {@code with} when the event reaches it (flecs's observer with a term). For a lifecycle type
   * ({@link EventType#ADDED}, {@link EventType#CHANGED}, {@link EventType#REMOVED}), it runs when
   * {@code with} is added to, changed on or removed from an entity: as a listener of the storage's
   * signal, under the signals' rules (an exception is rethrown once the change is complete).
   *
   * @param <E> the payload class
   * @param type the event type
   * @param with the component the entity must have
   * @param observer the code to run
   * @return the observation, to close it
   */
  public <E> Observation observe(
      final EventType<E> type, final ComponentType<?, ?> with, final Observer<? super E> observer) {
    Objects.requireNonNull(type, "type");
    final Storage<?> storage = registry.storage(Objects.requireNonNull(with, "with"));
    final Observation observation =
        new Observation(this, type, erased(observer), storage, Entity.NULL);
    if (type.isLifecycle()) {
      observation.signal =
          switch (type.lifecycle()) {
            case EventType.CONSTRUCT -> storage.onConstruct();
            case EventType.UPDATE -> storage.onUpdate();
            default -> storage.onDestroy();
          };
      observation.listener = new LifecycleListener(observation);
      observation.signal.connect(observation.listener);
      lifecycleObservers++;
      return observation;
    }
    return add(observation);
  }

  /**
   * Runs {@code observer} for every event of {@code type} that reaches {@code entity}, until the
   * observation is closed or the entity destroyed (Bevy's entity observer).
   *
   * @param <E> the payload class
   * @param type the event type
   * @param entity a live entity
   * @param observer the code to run
   * @return the observation, to close it
   * @throws IllegalArgumentException if {@code entity} is not live; nothing is registered
   */
  public <E> Observation observe(
      final EventType<E> type, final long entity, final Observer<? super E> observer) {
    refuseLifecycle(type, "on one entity");
    Objects.requireNonNull(observer, "observer");
    if (!registry.valid(entity)) {
      throw new IllegalArgumentException(
          "cannot observe "
              + type
              + " on "
              + Entity.toString(entity)
              + ": it is not a live entity of this registry");
    }
    watchDestroys();
    final Observation observation = new Observation(this, type, erased(observer), null, entity);
    // The id first: the array is read before the call that may grow it.
    final int id = cover(type);
    entityObservers[id]++;
    final long slot = entitySlots.get(entity, -1);
    if (-1 == slot) {
      final int free = takeSlot();
      entityLists[free] = new Observation[] {observation};
      entitySlots.put(entity, free);
    } else {
      entityLists[(int) slot] = appended(entityLists[(int) slot], observation);
    }
    return observation;
  }

  /** {@return how many observations are open: of every entity, of components, of one entity} */
  public int size() {
    int open = lifecycleObservers;
    for (final Observation[] list : byType) {
      open += list.length;
    }
    for (int slot = 0; slot < entitySlots.capacity(); slot++) {
      if (-1 != entitySlots.keyAt(slot)) {
        open += entityLists[(int) entitySlots.valueAt(slot)].length;
      }
    }
    return open;
  }

  @SuppressWarnings("unchecked") // an Observer<? super E> accepts every E the type's trigger has
  private static <E> Observer<Object> erased(final Observer<? super E> observer) {
    return (Observer<Object>) Objects.requireNonNull(observer, "observer");
  }

  private Observation add(final Observation observation) {
    final int id = cover(observation.type);
    byType[id] = appended(byType[id], observation);
    return observation;
  }

  /** Grows the tables indexed by type id to hold {@code type}'s; returns its id. */
  private int cover(final EventType<?> type) {
    final int id = Objects.requireNonNull(type, "type").id();
    if (id >= byType.length) {
      final int old = byType.length;
      final int length = Math.max(id + 1, 2 * old);
      byType = Arrays.copyOf(byType, length);
      Arrays.fill(byType, old, length, NONE);
      entityObservers = Arrays.copyOf(entityObservers, length);
    }
    return id;
  }

  private static void refuseLifecycle(final EventType<?> type, final String where) {
    if (Objects.requireNonNull(type, "type").isLifecycle()) {
      throw new IllegalArgumentException(
          "cannot observe "
              + type
              + " "
              + where
              + ": a lifecycle event is observed per component, with observe(type, component,"
              + " observer)");
    }
  }

  /** Removes a closed observation from its list (a copy: dispatches under way keep theirs). */
  void remove(final Observation observation) {
    if (null != observation.signal) {
      observation.signal.disconnect(observation.listener);
      lifecycleObservers--;
      return;
    }
    if (Entity.isNull(observation.entity)) {
      final int id = observation.type.id();
      byType[id] = without(byType[id], observation);
      return;
    }
    entityObservers[observation.type.id()]--;
    final long slot = entitySlots.get(observation.entity, -1);
    if (-1 != slot) {
      final Observation[] left = without(entityLists[(int) slot], observation);
      if (0 == left.length) {
        releaseSlot(observation.entity, (int) slot);
      } else {
        entityLists[(int) slot] = left;
      }
    }
  }

  private static Observation[] appended(final Observation[] list, final Observation added) {
    final Observation[] next = Arrays.copyOf(list, list.length + 1);
    next[list.length] = added;
    return next;
  }

  private static Observation[] without(final Observation[] list, final Observation removed) {
    for (int i = 0; i < list.length; i++) {
      if (list[i] == removed) {
        final Observation[] next = new Observation[list.length - 1];
        System.arraycopy(list, 0, next, 0, i);
        System.arraycopy(list, i + 1, next, i, list.length - i - 1);
        return 0 == next.length ? NONE : next;
      }
    }
    return list;
  }

  private int takeSlot() {
    if (0 != freeCount) {
      return freeSlots[--freeCount];
    }
    final int slot = entityLists.length;
    entityLists = Arrays.copyOf(entityLists, Math.max(4, 2 * slot));
    for (int i = entityLists.length - 1; i > slot; i--) {
      pushFree(i);
    }
    return slot;
  }

  private void pushFree(final int slot) {
    if (freeCount == freeSlots.length) {
      freeSlots = Arrays.copyOf(freeSlots, Math.max(4, 2 * freeCount));
    }
    freeSlots[freeCount++] = slot;
  }

  private void releaseSlot(final long entity, final int slot) {
    entitySlots.remove(entity);
    entityLists[slot] = null;
    pushFree(slot);
  }

  /** Ends the observations of an entity when it is destroyed: its handle is never live again. */
  private void watchDestroys() {
    if (!destroyWatched) {
      destroyWatched = true;
      registry.onDestroy().connect((owner, entity) -> forget(entity));
    }
  }

  private void forget(final long entity) {
    final long slot = entitySlots.get(entity, -1);
    if (-1 != slot) {
      for (final Observation observation : entityLists[(int) slot]) {
        observation.closedByOwner();
        entityObservers[observation.type.id()]--;
      }
      releaseSlot(entity, (int) slot);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Triggering.
  // ---------------------------------------------------------------------------------------------

  /**
   * Triggers an event of {@code type} on {@code entity}: runs its observers, as the class comment
   * orders them, before returning.
   *
   * @param <E> the payload class
   * @param type the event type
   * @param entity a live entity
   * @param event the payload; may be {@code null}
   * @throws IllegalArgumentException if {@code entity} is not live; no observer runs
   * @throws IllegalStateException if triggers nest deeper than {@link #MAX_DEPTH}; no observer of
   *     this trigger runs
   */
  public <E> void trigger(final EventType<E> type, final long entity, final E event) {
    checkLive(type, entity);
    if (unobserved(type)) {
      return;
    }
    Failures.rethrow(dispatch(type, entity, event, null));
  }

  /**
   * Triggers an event of {@code type} on each entity of {@code entities[from, to)}, in order, with
   * the same payload. Every entity is checked first: a refused batch runs no observer. Every
   * dispatch runs even if an observer throws; the first exception is rethrown at the end.
   *
   * @param <E> the payload class
   * @param type the event type
   * @param entities the entities, live
   * @param from the first index, inclusive
   * @param to the last index, exclusive
   * @param event the payload; may be {@code null}
   * @throws IllegalArgumentException if an entity is not live (named in the message), or the range
   *     is not within the array; no observer runs
   * @throws IllegalStateException if triggers nest deeper than {@link #MAX_DEPTH}
   */
  public <E> void trigger(
      final EventType<E> type, final long[] entities, final int from, final int to, final E event) {
    Objects.checkFromToIndex(from, to, entities.length);
    for (int i = from; i < to; i++) {
      checkLive(type, entities[i]);
    }
    if (unobserved(type)) {
      return;
    }
    Throwable failure = null;
    for (int i = from; i < to; i++) {
      // An observer may have destroyed a later entity of the batch: it has no observer to run.
      if (registry.valid(entities[i])) {
        failure = dispatch(type, entities[i], event, failure);
      }
    }
    Failures.rethrow(failure);
  }

  private void checkLive(final EventType<?> type, final long entity) {
    if (Objects.requireNonNull(type, "type").isLifecycle()) {
      throw new IllegalArgumentException(
          "cannot trigger " + type + ": storages trigger lifecycle events when components change");
    }
    if (!registry.valid(entity)) {
      throw new IllegalArgumentException(
          type
              + " triggered on "
              + Entity.toString(entity)
              + ": it is not a live entity of this registry");
    }
  }

  /** {@return whether no observer could see an event of {@code type}} */
  private boolean unobserved(final EventType<?> type) {
    final int id = type.id();
    return id >= byType.length || (0 == byType[id].length && 0 == entityObservers[id]);
  }

  /** Runs the observers of one trigger; returns {@code failure} or the first exception thrown. */
  @SuppressWarnings("unchecked") // the trigger at each depth is reused for every payload class
  private <E> Throwable dispatch(
      final EventType<E> type, final long entity, final E event, Throwable failure) {
    final Trigger<E> trigger = (Trigger<E>) enter(type, entity);
    trigger.begin(type, event, entity);
    final int id = type.id();
    final Observation[] everyEntity = id < byType.length ? byType[id] : NONE;
    try {
      long current = entity;
      while (true) {
        failure = runAt((Trigger<Object>) (Trigger<?>) trigger, current, everyEntity, failure);
        if (!type.propagates() || trigger.isPropagationStopped() || !registry.valid(current)) {
          break;
        }
        current = parentOf(current);
        if (Entity.isNull(current)) {
          break;
        }
        trigger.reach(current);
      }
    } finally {
      trigger.end();
      depth--;
    }
    return failure;
  }

  /**
   * Goes one dispatch deeper and returns the reused trigger of that depth; refuses, changing
   * nothing, when dispatches already nest {@link #MAX_DEPTH} deep. {@code what} (an event type or
   * an observation) and {@code entity} name the refused dispatch.
   */
  private Trigger<?> enter(final Object what, final long entity) {
    if (MAX_DEPTH == depth) {
      throw new IllegalStateException(
          what
              + " on "
              + Entity.toString(entity)
              + " from observers nested "
              + MAX_DEPTH
              + " deep: an observer that causes what it observes loops forever");
    }
    if (depth == triggers.length) {
      triggers = Arrays.copyOf(triggers, 2 * depth);
    }
    Trigger<?> trigger = triggers[depth];
    if (null == trigger) {
      trigger = new Trigger<>();
      triggers[depth] = trigger;
    }
    depth++;
    return trigger;
  }

  /** Runs the observers of {@code current}: its own, then those of every entity that match. */
  private Throwable runAt(
      final Trigger<Object> trigger,
      final long current,
      final Observation[] everyEntity,
      Throwable failure) {
    if (0 != entitySlots.size()) {
      final long slot = entitySlots.get(current, -1);
      if (-1 != slot) {
        final Observation[] own = entityLists[(int) slot];
        for (final Observation observation : own) {
          if (observation.type == trigger.type()) {
            if (!registry.valid(current)) {
              return failure;
            }
            failure = run(observation, trigger, failure);
          }
        }
      }
    }
    for (final Observation observation : everyEntity) {
      if (!registry.valid(current)) {
        return failure;
      }
      if (null == observation.with || observation.with.contains(current)) {
        failure = run(observation, trigger, failure);
      }
    }
    return failure;
  }

  private static Throwable run(
      final Observation observation, final Trigger<Object> trigger, final Throwable failure) {
    try {
      observation.observer.observe(trigger);
      return failure;
    } catch (final RuntimeException | Error thrown) {
      return Failures.add(failure, thrown);
    }
  }

  /** Runs one lifecycle observer for {@code entity}; what it throws goes to the signal. */
  @SuppressWarnings("unchecked") // the trigger at each depth is reused for every payload class
  private void runLifecycle(final Observation observation, final long entity) {
    final Trigger<Object> trigger = (Trigger<Object>) enter(observation, entity);
    trigger.begin((EventType<Object>) observation.type, null, entity);
    try {
      observation.observer.observe(trigger);
    } finally {
      trigger.end();
      depth--;
    }
  }

  /** The storage listener of one lifecycle observation. */
  private final class LifecycleListener implements ComponentListener {
    private final Observation observation;

    LifecycleListener(final Observation observation) {
      this.observation = observation;
    }

    @Override
    public void onEvent(final Registry owner, final long entity) {
      runLifecycle(observation, entity);
    }
  }

  private long parentOf(final long entity) {
    if (null == hierarchy) {
      // Looked up once it exists (a context lookup per level is a hash lookup per level); a
      // registry keeps its hierarchy for good, with its links upkept by its own listeners.
      hierarchy = registry.context().find(Hierarchy.class);
      if (null == hierarchy) {
        return Entity.NULL;
      }
    }
    return hierarchy.parent(entity);
  }
}
