package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Every live entity of a registry, less those that hold any of a few excluded components: EnTT's
 * {@code view<entity>(exclude<T...>)}. Like a {@link View} it owns nothing and is computed while
 * iterating; unlike a view it needs no included component, so it also sees entities with none.
 *
 * <pre>{@code
 * registry.entityView().exclude(Frozen_Traits.TYPE).each(entity -> ...);
 * }</pre>
 *
 * <h2>Order and what may change during an iteration</h2>
 *
 * <p>{@link #each} walks the registry's live entities as {@link EntityStorage#each} does: from the
 * most recently created position to the first, visiting each entity live at the start once. The
 * action may create and destroy entities, any of them: entities created meanwhile are never
 * visited, and an entity destroyed before its turn is not visited; every other entity is visited
 * exactly once, neither skipped nor repeated. (EnTT allows only the visited entity to be
 * destroyed.) Destroying an entity still to come may change the order in which the rest come (the
 * entity storage keeps them below the walk's position; see its class comment). Components added or
 * removed meanwhile decide whether entities still to come are excluded.
 *
 * <h2>Costs</h2>
 *
 * <table>
 *   <caption>n = live entities, k = excluded components</caption>
 *   <tr><th>operation</th><th>cost</th></tr>
 *   <tr><td>{@code each}, {@code count}</td><td>O(n * k), no allocation</td></tr>
 *   <tr><td>{@code contains}</td><td>O(k)</td></tr>
 *   <tr><td>{@code exclude}</td><td>O(k): a new view, the receiver unchanged</td></tr>
 * </table>
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; several threads may iterate at once only while nothing changes the registry.
 */
public final class EntityView {

  private final EntityStorage entities;
  private final Registry registry;
  private final Storage<?>[] excluded;

  EntityView(final Registry registry, final Storage<?>[] excluded) {
    this.registry = registry;
    this.entities = registry.entities();
    this.excluded = excluded;
  }

  /**
   * {@return a view that also leaves out the entities holding {@code type}} The receiver is
   * unchanged. Creates the type's storage if the registry has none yet, as {@link
   * Registry#view(ComponentType)} does.
   *
   * @param type the component type whose holders are left out
   * @throws IllegalArgumentException if {@code type} is excluded already
   */
  public EntityView exclude(final ComponentType<?, ?> type) {
    final Storage<?> set = registry.storage(type);
    for (final Storage<?> present : excluded) {
      if (present == set) {
        throw new IllegalArgumentException(
            "cannot exclude " + type.name() + " from the entity view: it is excluded already");
      }
    }
    final Storage<?>[] next = Arrays.copyOf(excluded, excluded.length + 1);
    next[excluded.length] = set;
    return new EntityView(registry, next);
  }

  /** {@return the number of excluded components} */
  public int excludeCount() {
    return excluded.length;
  }

  /**
   * {@return whether {@code entity} is live and holds none of the excluded components}
   *
   * @param entity any handle, possibly stale or {@link Entity#NULL}
   */
  public boolean contains(final long entity) {
    return entities.valid(entity) && !excludedHolds(entity);
  }

  /** {@return an upper bound of the number of entities in the view: the live entities} */
  public int sizeHint() {
    return entities.alive();
  }

  /** {@return the number of entities in the view now} O(n * k). */
  public int count() {
    final long[] packed = entities.packed();
    int count = 0;
    for (int at = entities.alive() - 1; at >= 0; at--) {
      if (!excludedHolds(packed[at])) {
        count++;
      }
    }
    return count;
  }

  /**
   * Calls {@code action} with every entity of the view, most recently created position first: each
   * entity live at the start once, less those destroyed before their turn, never one created
   * meanwhile (see the class comment for what may change meanwhile). No allocation.
   *
   * @param action called with each entity
   */
  public void each(final LongConsumer action) {
    final EntityStorage entities = this.entities;
    int seen = entities.beginWalk();
    try {
      for (int at = entities.alive() - 1; at >= 0; at = Math.min(at - 1, entities.alive() - 1)) {
        // Read at each step: an action that creates entities may grow the array.
        final long entity = entities.visit(at);
        if (!excludedHolds(entity)) {
          action.accept(entity);
          if (seen != entities.floorMoves()) {
            // The action destroyed an entity still to come: continue below the walk's floor.
            seen = entities.floorMoves();
            at = entities.floor();
          }
        }
      }
    } finally {
      entities.endWalk();
    }
  }

  private boolean excludedHolds(final long entity) {
    for (final Storage<?> set : excluded) {
      if (set.contains(entity)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    final StringBuilder out = new StringBuilder("EntityView[all live entities");
    for (final Storage<?> set : excluded) {
      out.append(", without ").append(set.type().name());
    }
    return out.append(']').toString();
  }
}
