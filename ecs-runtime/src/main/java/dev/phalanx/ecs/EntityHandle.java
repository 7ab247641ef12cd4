package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An entity together with its registry, for tools, tests and scripting: EnTT's {@code handle},
 * Bevy's {@code EntityRef}/{@code EntityWorldMut}, flecs's {@code entity}. Every method forwards to
 * the {@link Registry} method of the same name, with the same checks, exceptions and costs.
 *
 * <pre>{@code
 * EntityHandle wolf = registry.handle(registry.create());
 * wolf.emplace(Position_Traits.TYPE, new Position(1, 2)).emplace(Velocity_Traits.TYPE, new Velocity(0, 1));
 * }</pre>
 *
 * <h2>Invariants and costs</h2>
 *
 * <p>A handle is a value: it holds the registry and the {@code long} entity and nothing else, and
 * it stays the same handle when the entity is destroyed ({@link #valid()} then returns false and
 * the other methods throw as the registry's do). Two handles are equal when they name the same
 * entity of the same registry. A handle is an object: hot loops keep to the {@code long} and typed
 * storages; {@link #components()} and {@link #toString()} walk every storage of the registry and
 * allocate.
 *
 * <h2>Threading</h2>
 *
 * <p>As the registry's.
 */
public final class EntityHandle {

  private final Registry registry;
  private final long entity;

  EntityHandle(final Registry registry, final long entity) {
    this.registry = registry;
    this.entity = entity;
  }

  /** {@return the registry the entity belongs to} */
  public Registry registry() {
    return registry;
  }

  /** {@return the entity} */
  public long entity() {
    return entity;
  }

  /**
   * {@return the target the entity names by relationship kind {@code kind}, or {@link Entity#NULL}
   * if it has none} O(1), through the kind's {@link Storage#entityLinks() links}.
   *
   * @param kind a relationship kind (a component declared with {@code @Relationship})
   * @throws IllegalArgumentException if {@code kind} is not a relationship kind
   */
  public long target(final ComponentType<?, ?> kind) {
    return linksOf(kind).target(entity);
  }

  /**
   * {@return how many sources name the entity by relationship kind {@code kind}} O(1).
   *
   * @param kind a relationship kind
   * @throws IllegalArgumentException if {@code kind} is not a relationship kind
   */
  public int sourceCount(final ComponentType<?, ?> kind) {
    return linksOf(kind).sourceCount(entity);
  }

  /**
   * {@return the sources naming the entity by relationship kind {@code kind}, in the order they
   * were linked, in a new array} O(sources).
   *
   * @param kind a relationship kind
   * @throws IllegalArgumentException if {@code kind} is not a relationship kind
   */
  public long[] sources(final ComponentType<?, ?> kind) {
    final EntityLinks links = linksOf(kind);
    final long[] out = new long[links.sourceCount(entity)];
    long source = links.firstSource(entity);
    for (int at = 0; at < out.length; at++) {
      out[at] = source;
      source = links.nextSource(source);
    }
    return out;
  }

  private EntityLinks linksOf(final ComponentType<?, ?> kind) {
    final EntityLinks links = registry.storage(kind).entityLinks();
    if (null == links) {
      throw new IllegalArgumentException(
          kind.name()
              + " is not a relationship kind (a component declared with @Relationship): "
              + Entity.toString(entity)
              + " has no target or sources of it");
    }
    return links;
  }

  /** {@return whether the entity is live} */
  public boolean valid() {
    return registry.valid(entity);
  }

  /**
   * {@return whether the entity holds {@code type}}
   *
   * @param type the component type's key
   */
  public boolean has(final ComponentType<?, ?> type) {
    return registry.has(entity, type);
  }

  /**
   * {@return the component of {@code type}} (see {@link Registry#get})
   *
   * @param <T> the component type
   * @param type the component type's key
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> T get(final ComponentType<T, ?> type) {
    return registry.get(entity, type);
  }

  /**
   * {@return the component of {@code type}, or {@code null} if the entity lacks it}
   *
   * @param <T> the component type
   * @param type the component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T tryGet(final ComponentType<T, ?> type) {
    return registry.tryGet(entity, type);
  }

  /**
   * {@return the component of {@code type}, adding {@code supplier.get()} first if the entity has
   * none} (see {@link Registry#getOrEmplace}) If the supplier throws, nothing is added.
   *
   * @param <T> the component type
   * @param type the component type's key
   * @param supplier makes the component to add; called only if the entity has none
   * @throws IllegalArgumentException if the entity is not valid
   */
  public <T> T getOrEmplace(final ComponentType<T, ?> type, final Supplier<? extends T> supplier) {
    return registry.getOrEmplace(entity, type, supplier);
  }

  /**
   * {@return whether the entity has both components} (see {@link Registry#allOf(long,
   * ComponentType, ComponentType)})
   *
   * @param first a component type's key
   * @param second another component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean allOf(final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return registry.allOf(entity, first, second);
  }

  /**
   * {@return whether the entity has every component of {@code types}} (see {@link
   * Registry#allOf(long, ComponentType[])})
   *
   * @param types the component types' keys; an empty array matches every valid entity
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean allOf(final ComponentType<?, ?>[] types) {
    return registry.allOf(entity, types);
  }

  /**
   * {@return whether the entity has at least one of the two components} (see {@link
   * Registry#anyOf(long, ComponentType, ComponentType)})
   *
   * @param first a component type's key
   * @param second another component type's key
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean anyOf(final ComponentType<?, ?> first, final ComponentType<?, ?> second) {
    return registry.anyOf(entity, first, second);
  }

  /**
   * {@return whether the entity has at least one component of {@code types}} (see {@link
   * Registry#anyOf(long, ComponentType[])})
   *
   * @param types the component types' keys; an empty array matches no entity
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean anyOf(final ComponentType<?, ?>[] types) {
    return registry.anyOf(entity, types);
  }

  /**
   * Adds a component (see {@link Registry#emplace}).
   *
   * @param <T> the component type
   * @param type the component type's key
   * @param value the component
   * @return this handle, to chain calls
   */
  public <T> EntityHandle emplace(final ComponentType<T, ?> type, final T value) {
    registry.emplace(entity, type, value);
    return this;
  }

  /**
   * Adds or replaces a component (see {@link Registry#emplaceOrReplace}).
   *
   * @param <T> the component type
   * @param type the component type's key
   * @param value the component
   * @return this handle, to chain calls
   */
  public <T> EntityHandle emplaceOrReplace(final ComponentType<T, ?> type, final T value) {
    registry.emplaceOrReplace(entity, type, value);
    return this;
  }

  /**
   * Replaces a component (see {@link Registry#replace}).
   *
   * @param <T> the component type
   * @param type the component type's key
   * @param value the new component
   * @return this handle, to chain calls
   */
  public <T> EntityHandle replace(final ComponentType<T, ?> type, final T value) {
    registry.replace(entity, type, value);
    return this;
  }

  /**
   * Passes the component of {@code type} to {@code patcher} and publishes an update (see {@link
   * Registry#patch}).
   *
   * @param <T> the component type
   * @param type the component type's key
   * @param patcher changes the component in place
   * @return this handle, to chain calls
   * @throws IllegalArgumentException if the entity is not valid or lacks the component
   */
  public <T> EntityHandle patch(final ComponentType<T, ?> type, final Consumer<? super T> patcher) {
    registry.patch(entity, type, patcher);
    return this;
  }

  /**
   * Removes a component if the entity has it (tolerant; see {@link Registry#remove}): the
   * counterpart of {@link #erase}, for a component that may be absent.
   *
   * @param type the component type's key
   * @return whether a component was removed
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean remove(final ComponentType<?, ?> type) {
    return registry.remove(entity, type);
  }

  /**
   * Removes a component the entity must have (strict; see {@link Registry#erase}): the counterpart
   * of {@link #remove}, which tolerates an absent one.
   *
   * @param type the component type's key
   * @return this handle, to chain calls
   * @throws IllegalArgumentException if the entity is not valid or lacks the component; nothing is
   *     removed then
   */
  public EntityHandle erase(final ComponentType<?, ?> type) {
    registry.erase(entity, type);
    return this;
  }

  /**
   * {@return whether the entity holds no component} (see {@link Registry#orphan})
   *
   * @throws IllegalArgumentException if the entity is not valid
   */
  public boolean orphan() {
    return registry.orphan(entity);
  }

  /** Destroys the entity (see {@link Registry#destroy(long)}). */
  public void destroy() {
    registry.destroy(entity);
  }

  /**
   * Calls {@code action} with every storage that holds the entity, in the registry's storage order
   * (the order the storages were created). O(storages).
   *
   * @param action called with each storage holding the entity
   */
  public void eachStorage(final Consumer<? super Storage<?>> action) {
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (storage.contains(entity)) {
        action.accept(storage);
      }
    }
  }

  /**
   * {@return the types of the entity's components, in the registry's storage order} Empty for an
   * entity that is not valid. O(storages); allocates the list.
   */
  public List<ComponentType<?, ?>> components() {
    final List<ComponentType<?, ?>> types = new ArrayList<>();
    eachStorage(storage -> types.add(storage.type()));
    return types;
  }

  @Override
  public boolean equals(final Object other) {
    return other instanceof EntityHandle handle
        && handle.registry == registry
        && handle.entity == entity;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(registry) * 31 + Long.hashCode(entity);
  }

  /**
   * {@return the entity and the names of its components, as {@code Entity(index=3,
   * version=1)[Position, Velocity]}; a destroyed entity's ends in {@code [not valid]}}
   */
  @Override
  public String toString() {
    final StringBuilder out = new StringBuilder(Entity.toString(entity)).append('[');
    if (!valid()) {
      return out.append("not valid]").toString();
    }
    final List<ComponentType<?, ?>> types = components();
    for (int i = 0; i < types.size(); i++) {
      out.append(i == 0 ? "" : ", ").append(types.get(i).name());
    }
    return out.append(']').toString();
  }
}
