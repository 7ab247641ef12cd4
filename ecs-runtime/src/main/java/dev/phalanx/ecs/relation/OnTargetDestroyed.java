package dev.phalanx.ecs.relation;

/**
 * What happens to the sources of a relationship when its target is destroyed; declared per kind
 * with {@code @Relationship(onTargetDestroyed = ...)}.
 */
public enum OnTargetDestroyed {
  /** Each source loses the relationship: its component of the kind is removed (flecs's default). */
  REMOVE,
  /**
   * Each source is destroyed too, and so on along the sources' own sources of every kind with this
   * policy (Bevy's linked despawn, flecs's {@code OnDeleteTarget, Delete}).
   */
  DESTROY_SOURCES,
  /**
   * The destroy is refused, changing nothing, while the target has a source that is not destroyed
   * with it (flecs's {@code OnDeleteTarget, Panic}, as an exception instead of an abort).
   */
  REFUSE
}
