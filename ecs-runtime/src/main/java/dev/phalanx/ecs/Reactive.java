package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * A reactive storage: a tag storage filled by rules ("every entity whose Position was updated",
 * "every entity that gained or lost a Velocity"), iterated like any storage, and emptied by the
 * user after processing (EnTT's reactive mixin, flecs' monitors).
 *
 * <p>The target is any tag type: a named void type ({@code ComponentType.named("moved")}) for
 * runtime views, or an {@code @Component} tag class, so that generated queries can include it
 * ({@code @ViewQuery(include = {Position.class, Moved.class})}: "entities with a Position that
 * moved"). Rules add an entity to the target when a source storage publishes the chosen signal:
 * construction, update ({@code replace}, {@code patch}, generated {@code replace}), or destruction
 * of the component while the entity lives on. An entity already collected stays once; destroying an
 * entity removes it from the target like any component; {@link #clear()} empties it after
 * processing.
 *
 * <h2>Filters and removing rules</h2>
 *
 * <p>A rule may carry a filter, EnTT's {@code where}: {@code onUpdate(POSITION, e ->
 * registry.has(e, VELOCITY) && !registry.has(e, FROZEN))} collects only the entities that pass it
 * when the signal is published. {@link #remove(ComponentType)} removes every rule on a type and
 * {@link #disconnect()} every rule; what was collected stays until {@link #clear()}.
 *
 * <h2>Costs</h2>
 *
 * <p>One listener per rule on the source storage: a membership test (and the filter, if any) and,
 * the first time, one insertion into the target per signal. Writes that publish no signal
 * (generated setters, cursors, chunk loops) are not seen: use change tracking
 * ({@code @Component(tracked = true)}) for those.
 *
 * <h2>Rules and failures</h2>
 *
 * <p>Collection follows the signal rules: it runs after the change (before it, for destruction) and
 * never while the entity is being destroyed or the registry cleared. If the target cannot take the
 * entity (its storage is locked by a chunk iteration), the rule's exception reaches the caller
 * after the change completed, as any listener's; so does a filter's exception, and the entity is
 * then not collected.
 */
public final class Reactive {

  private final Registry registry;
  private final EmptyStorage<?> target;
  private final ComponentListener collect;
  // Every rule connected, in order: the signal and the listener connected to it, and the type.
  private final List<Rule> rules = new ArrayList<>();

  /** A rule: {@code listener} connected to {@code signal}, a signal of {@code type}'s storage. */
  private record Rule(ComponentType<?, ?> type, Signal signal, ComponentListener listener) {}

  private Reactive(final Registry registry, final EmptyStorage<?> target) {
    this.registry = registry;
    this.target = target;
    this.collect = (r, entity) -> add(entity);
  }

  /**
   * Returns a reactive storage that collects into the storage of {@code type}, a tag type (no
   * payload). Add rules with {@link #onConstruct}, {@link #onUpdate} and {@link #onDestroy}.
   *
   * @param registry the registry whose changes are collected
   * @param type the tag type to collect into
   * @return the reactive storage, with no rule yet
   * @throws IllegalArgumentException if {@code type} stores instances
   */
  public static Reactive collect(final Registry registry, final ComponentType<?, ?> type) {
    final Storage<?> storage = registry.storage(type);
    if (!(storage instanceof EmptyStorage)) {
      throw new IllegalArgumentException(
          "a reactive storage collects into a tag type, but "
              + type.name()
              + " stores instances; use"
              + " ComponentType.named(...) or a field-less @Component");
    }
    return new Reactive(registry, (EmptyStorage<?>) storage);
  }

  /**
   * Collects every entity that receives a component of {@code type}.
   *
   * @param type the watched type
   * @return this
   */
  public Reactive onConstruct(final ComponentType<?, ?> type) {
    return connect(type, registry.storage(type).onConstruct(), collect);
  }

  /**
   * Collects every entity that receives a component of {@code type} and passes {@code where} then.
   *
   * @param type the watched type
   * @param where decides, when the component is constructed, whether the entity is collected
   * @return this
   */
  public Reactive onConstruct(final ComponentType<?, ?> type, final LongPredicate where) {
    return connect(type, registry.storage(type).onConstruct(), filtered(where));
  }

  /**
   * Collects every entity whose component of {@code type} is replaced or patched.
   *
   * @param type the watched type
   * @return this
   */
  public Reactive onUpdate(final ComponentType<?, ?> type) {
    return connect(type, registry.storage(type).onUpdate(), collect);
  }

  /**
   * Collects every entity whose component of {@code type} is replaced or patched and that passes
   * {@code where} then.
   *
   * @param type the watched type
   * @param where decides, at the update, whether the entity is collected
   * @return this
   */
  public Reactive onUpdate(final ComponentType<?, ?> type, final LongPredicate where) {
    return connect(type, registry.storage(type).onUpdate(), filtered(where));
  }

  /**
   * Collects every entity that loses its component of {@code type} and lives on (an entity being
   * destroyed is not collected).
   *
   * @param type the watched type
   * @return this
   */
  public Reactive onDestroy(final ComponentType<?, ?> type) {
    return connect(type, registry.storage(type).onDestroy(), collect);
  }

  /**
   * Collects every entity that loses its component of {@code type}, lives on, and passes {@code
   * where} then (the component is still there when it runs).
   *
   * @param type the watched type
   * @param where decides, before the removal, whether the entity is collected
   * @return this
   */
  public Reactive onDestroy(final ComponentType<?, ?> type, final LongPredicate where) {
    return connect(type, registry.storage(type).onDestroy(), filtered(where));
  }

  /**
   * Removes every rule on {@code type}; the entities collected so far stay collected.
   *
   * @param type the watched type
   * @return whether a rule was removed
   */
  public boolean remove(final ComponentType<?, ?> type) {
    boolean removed = false;
    for (int i = rules.size() - 1; i >= 0; i--) {
      final Rule rule = rules.get(i);
      if (rule.type() == type) {
        rule.signal().disconnect(rule.listener());
        rules.remove(i);
        removed = true;
      }
    }
    return removed;
  }

  /**
   * Removes every rule: nothing more is collected (EnTT's {@code observer::disconnect}). The
   * entities collected so far stay collected; rules may be added again.
   */
  public void disconnect() {
    for (int i = rules.size() - 1; i >= 0; i--) {
      rules.get(i).signal().disconnect(rules.get(i).listener());
    }
    rules.clear();
  }

  /** {@return the number of rules connected} */
  public int ruleCount() {
    return rules.size();
  }

  private Reactive connect(
      final ComponentType<?, ?> type, final Signal signal, final ComponentListener listener) {
    signal.connect(listener);
    rules.add(new Rule(type, signal, listener));
    return this;
  }

  private ComponentListener filtered(final LongPredicate where) {
    if (null == where) {
      throw new NullPointerException("where");
    }
    // The cheap tests first: the filter (user code) runs only for an entity that could be added.
    return (r, entity) -> {
      if (!target.contains(entity) && !registry.suppressesEntry(entity) && where.test(entity)) {
        add(entity);
      }
    };
  }

  /** {@return the target storage: include it in views and queries} */
  public EmptyStorage<?> storage() {
    return target;
  }

  /** {@return the number of entities collected} */
  public int size() {
    return target.size();
  }

  /**
   * {@return whether {@code entity} is collected}
   *
   * @param entity any handle
   */
  public boolean contains(final long entity) {
    return target.contains(entity);
  }

  /**
   * Calls {@code action} for every collected entity (the rules of {@link View} apply).
   *
   * @param action the loop body
   */
  public void each(final LongConsumer action) {
    View.of(target).each(action);
  }

  /** Forgets every collected entity: call it once they are processed. */
  public void clear() {
    target.clear();
  }

  private void add(final long entity) {
    if (registry.suppressesEntry(entity) || target.contains(entity) || !registry.valid(entity)) {
      return;
    }
    target.commitInsert(entity, target.prepareInsert(entity));
  }
}
