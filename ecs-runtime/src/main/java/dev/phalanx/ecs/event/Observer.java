package dev.phalanx.ecs.event;

/**
 * Code that runs when an event is triggered on an entity it observes: see {@link Observers}.
 *
 * @param <E> the payload class of the observed event type
 */
@FunctionalInterface
public interface Observer<E> {

  /**
   * Reacts to one event at one entity.
   *
   * @param trigger the event, the entity it reached and the one it was triggered on; valid only
   *     during this call (the object is reused for the next event)
   */
  void observe(Trigger<E> trigger);
}
