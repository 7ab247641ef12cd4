package dev.phalanx.ecs.event;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Signal;
import dev.phalanx.ecs.Storage;

/**
 * One observer registered with {@link Observers}: what it observes, and the means to stop it.
 * Closing it (or, for an observation of one entity, destroying that entity) removes the observer; a
 * dispatch already under way still runs it, as a {@link dev.phalanx.ecs.Signal} does.
 */
public final class Observation {

  private final Observers owner;
  final EventType<?> type;
  final Observer<Object> observer;
  // The storage the current entity must be in, or null for every entity.
  final Storage<?> with;
  // The one entity observed, or Entity.NULL for every entity.
  final long entity;
  // For a lifecycle event: the storage signal it listens to, and its listener there.
  Signal signal;
  ComponentListener listener;
  private boolean open = true;

  Observation(
      final Observers owner,
      final EventType<?> type,
      final Observer<Object> observer,
      final Storage<?> with,
      final long entity) {
    this.owner = owner;
    this.type = type;
    this.observer = observer;
    this.with = with;
    this.entity = entity;
  }

  /** {@return the observed event type} */
  public EventType<?> type() {
    return type;
  }

  /** {@return the one entity observed, or {@link Entity#NULL} if every entity is} */
  public long entity() {
    return entity;
  }

  /** {@return whether the observer is still registered} */
  public boolean isOpen() {
    return open;
  }

  /** Removes the observer; closing it again does nothing. */
  public void close() {
    if (open) {
      open = false;
      owner.remove(this);
    }
  }

  /** Marks the observation closed without telling its owner (its entity was destroyed). */
  void closedByOwner() {
    open = false;
  }

  /** {@return "observer of event name [on entity] [with component]"} */
  @Override
  public String toString() {
    return "observer of "
        + type.name()
        + (Entity.isNull(entity) ? "" : " on " + Entity.toString(entity))
        + (null == with ? "" : " with " + with.type().name());
  }
}
