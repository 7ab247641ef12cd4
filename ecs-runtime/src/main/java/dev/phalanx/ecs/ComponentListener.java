package dev.phalanx.ecs;

/**
 * Receives a storage's lifecycle events: construction (after insertion), update (after replace or
 * patch) and destruction (before removal).
 */
@FunctionalInterface
public interface ComponentListener {
  /**
   * Called for one entity.
   *
   * @param registry the registry that owns the storage, or {@code null} for a standalone storage
   * @param entity the entity whose component is constructed, updated or about to be destroyed
   */
  void onEvent(Registry registry, long entity);
}
