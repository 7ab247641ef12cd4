package dev.phalanx.ecs.event;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The key of a user-defined event: its name, the class of its payload, and whether it propagates
 * from the entity it is triggered on to that entity's parents. Define each event type once, as a
 * constant, and pass it to {@link Observers#observe} and {@link Observers#trigger}.
 *
 * <pre>{@code
 * static final EventType<Hit> HIT = EventType.define("hit", Hit.class);
 * static final EventType<Damage> DAMAGE = EventType.propagating("damage", Damage.class);
 * }</pre>
 *
 * <p>Event types are compared by identity: two definitions with the same name are two types.
 *
 * @param <E> the class of the payload an event of this type carries
 */
public final class EventType<E> {

  private static final AtomicInteger IDS = new AtomicInteger();

  /** Not a lifecycle event: triggered by users. */
  static final int USER = 0;

  /** The lifecycle event of a component added (its storage's construct signal). */
  static final int CONSTRUCT = 1;

  /** The lifecycle event of a component replaced or patched (its storage's update signal). */
  static final int UPDATE = 2;

  /** The lifecycle event of a component about to be removed (its storage's destroy signal). */
  static final int DESTROY = 3;

  /**
   * A component was added to the entity (flecs's {@code OnAdd}, Bevy's {@code OnAdd}): observed per
   * component, with {@link Observers#observe(EventType, dev.phalanx.ecs.ComponentType, Observer)},
   * and run by the component's storage when it publishes its construct signal, after the insertion.
   */
  public static final EventType<Void> ADDED =
      new EventType<>("added", Void.class, false, CONSTRUCT);

  /**
   * A component of the entity was replaced or patched (flecs's {@code OnSet}): observed per
   * component, run by the storage's update signal, after the write.
   */
  public static final EventType<Void> CHANGED =
      new EventType<>("changed", Void.class, false, UPDATE);

  /**
   * A component is about to be removed from the entity, or the entity destroyed (flecs's {@code
   * OnRemove}, Bevy's {@code OnRemove}): observed per component, run by the storage's destroy
   * signal, while the component can still be read.
   */
  public static final EventType<Void> REMOVED =
      new EventType<>("removed", Void.class, false, DESTROY);

  private final String name;
  private final Class<E> payload;
  private final boolean propagates;
  private final int lifecycle;
  private final int id;

  private EventType(
      final String name, final Class<E> payload, final boolean propagates, final int lifecycle) {
    this.name = Objects.requireNonNull(name, "name");
    this.payload = Objects.requireNonNull(payload, "payload");
    this.propagates = propagates;
    this.lifecycle = lifecycle;
    this.id = IDS.getAndIncrement();
  }

  /**
   * Defines an event type that reaches only the entity it is triggered on.
   *
   * @param <E> the payload class
   * @param name the name messages use
   * @param payload the class of the payload; {@code Void.class} for an event without one
   * @return a new event type
   */
  public static <E> EventType<E> define(final String name, final Class<E> payload) {
    return new EventType<>(name, payload, false, USER);
  }

  /**
   * Defines an event type that propagates: after the observers of the entity it is triggered on,
   * those of its parent in the registry's {@link dev.phalanx.ecs.hierarchy.Hierarchy} run, then
   * those of the parent's parent, up to a root, unless an observer {@linkplain
   * Trigger#stopPropagation() stops} it (Bevy's {@code auto_propagate}, flecs's {@code up}).
   *
   * @param <E> the payload class
   * @param name the name messages use
   * @param payload the class of the payload; {@code Void.class} for an event without one
   * @return a new event type
   */
  public static <E> EventType<E> propagating(final String name, final Class<E> payload) {
    return new EventType<>(name, payload, true, USER);
  }

  /** {@return the name messages use} */
  public String name() {
    return name;
  }

  /** {@return the class of the payload} */
  public Class<E> payload() {
    return payload;
  }

  /** {@return whether an event of this type goes on to the parents of the entity it is on} */
  public boolean propagates() {
    return propagates;
  }

  /**
   * {@return whether this is one of the registry's lifecycle events, {@link #ADDED}, {@link
   * #CHANGED} or {@link #REMOVED}, which storages trigger and users observe per component}
   */
  public boolean isLifecycle() {
    return USER != lifecycle;
  }

  /** {@return {@link #USER}, or the storage signal that triggers this lifecycle event} */
  int lifecycle() {
    return lifecycle;
  }

  /** {@return a small number unique to this type, the index of its observers} */
  int id() {
    return id;
  }

  /** {@return "event name"} */
  @Override
  public String toString() {
    return "event " + name;
  }
}
