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

  private final String name;
  private final Class<E> payload;
  private final boolean propagates;
  private final int id;

  private EventType(final String name, final Class<E> payload, final boolean propagates) {
    this.name = Objects.requireNonNull(name, "name");
    this.payload = Objects.requireNonNull(payload, "payload");
    this.propagates = propagates;
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
    return new EventType<>(name, payload, false);
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
    return new EventType<>(name, payload, true);
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
