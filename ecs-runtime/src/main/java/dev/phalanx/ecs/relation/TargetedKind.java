package dev.phalanx.ecs.relation;

/**
 * What {@link Relations} needs of a relationship kind, exclusive ({@link Relation}) or not ({@link
 * Pairs}), to apply the kind's destroy policy to the sources of a target.
 */
abstract class TargetedKind {

  /** {@return the kind's name, for messages} */
  abstract String name();

  /** {@return what happens to the sources when a target is destroyed} */
  abstract OnTargetDestroyed onTargetDestroyed();

  /** {@return whether some source names {@code target}} */
  abstract boolean hasSources(long target);

  /** {@return whether the kind holds any relationship} */
  abstract boolean anyLinked();

  /** Appends the sources naming {@code target} to {@code queue}, in link order. */
  abstract void appendSources(long target, EntityQueue queue);

  /**
   * Checks, changing nothing, that every removal {@link #removeSources} would make for {@code
   * target} is allowed now (no lock or iteration refuses it).
   */
  abstract void checkRemoveSources(long target);

  /**
   * Removes every relationship naming {@code target}; returns {@code failure} or the first
   * exception a listener threw, added to it. A refused removal ends the loop and is returned.
   */
  abstract Throwable removeSources(long target, Throwable failure);

  /** Brings derived state back in step after raw writes of the kind's storage. */
  abstract void rebuild();
}
