/**
 * User-defined events and the observers that react to them (Bevy's observers, flecs's custom
 * events).
 *
 * <p>An {@link dev.phalanx.ecs.event.EventType} names an event and the class of its payload; an
 * {@link dev.phalanx.ecs.event.Observer} registered with the registry's {@link
 * dev.phalanx.ecs.event.Observers} runs when an event of its type is triggered on an entity it
 * observes: any entity, entities with a component, or one entity. A propagating type goes on from
 * the entity to its parents in the {@link dev.phalanx.ecs.hierarchy.Hierarchy}. What runs when, and
 * what an observer may do, is stated on {@link dev.phalanx.ecs.event.Observers}.
 *
 * <p>Component lifecycle events ({@link dev.phalanx.ecs.event.EventType#ADDED}, {@code CHANGED},
 * {@code REMOVED}) are observed per component: such an observer listens to the storage's {@link
 * dev.phalanx.ecs.Storage#onConstruct()}, {@link dev.phalanx.ecs.Storage#onUpdate()} or {@link
 * dev.phalanx.ecs.Storage#onDestroy()} signal.
 *
 * <h2>Costs</h2>
 *
 * <p>Triggering an event that nothing observes checks the entity and returns. Each observer run is
 * an interface call; a component filter adds a {@code contains}; propagation adds a parent lookup
 * per level. Dispatching allocates nothing once the deepest nesting has been reached once.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code EventType}: the key of an event type.
 *   <li>{@code Observer}: the code an event runs.
 *   <li>{@code Trigger}: one event on its way, as an observer sees it.
 *   <li>{@code Observation}: one registered observer, and the means to close it.
 *   <li>{@code Observers}: registration and dispatch, per registry.
 * </ul>
 */
package dev.phalanx.ecs.event;
