package dev.phalanx.ecs.event;

/**
 * One event on its way through the observers: what an {@link Observer} receives. The object is
 * reused (one per depth of nested triggers), so an observer must not keep it past its call.
 *
 * @param <E> the payload class of the event type
 */
public final class Trigger<E> {

  private EventType<E> type;
  private E event;
  private long target;
  private long entity;
  private boolean stopped;

  Trigger() {}

  /** Starts a dispatch of {@code payload} triggered on {@code on}. */
  void begin(final EventType<E> eventType, final E payload, final long on) {
    type = eventType;
    event = payload;
    target = on;
    entity = on;
    stopped = false;
  }

  /** Moves the dispatch to {@code next}, a parent of the current entity. */
  void reach(final long next) {
    entity = next;
  }

  /** Lets go of the payload, so that a finished dispatch keeps nothing alive. */
  void end() {
    event = null;
    type = null;
  }

  /** {@return the event's type} */
  public EventType<E> type() {
    return type;
  }

  /** {@return the event's payload; {@code null} for an event without one} */
  public E event() {
    return event;
  }

  /** {@return the entity the event was triggered on} */
  public long target() {
    return target;
  }

  /**
   * {@return the entity whose observers run now: the {@link #target()}, or one of its ancestors
   * while a {@linkplain EventType#propagating propagating} event goes up}
   */
  public long entity() {
    return entity;
  }

  /**
   * Stops a propagating event after the observers of the current entity: its parent's observers
   * will not run. The current entity's remaining observers still do.
   */
  public void stopPropagation() {
    stopped = true;
  }

  /** {@return whether an observer stopped the propagation} */
  public boolean isPropagationStopped() {
    return stopped;
  }
}
