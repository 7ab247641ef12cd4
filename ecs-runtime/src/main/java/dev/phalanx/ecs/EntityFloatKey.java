package dev.phalanx.ecs;

/**
 * The sort key of an entity, a {@code float} (a depth, a distance): key-based sorts ({@link
 * NonOwningGroup#sortByFloatKey}, {@link SparseSet#sortByFloatKey}) call it once per element, then
 * sort the keys. Keys compare as {@link Float#compare} does: {@code -0.0f} before {@code 0.0f},
 * every NaN after positive infinity.
 */
@FunctionalInterface
public interface EntityFloatKey {
  /**
   * Computes the key of one entity. Called once per element per sort, while the sorted set and the
   * storages it depends on are locked (a structural change throws {@link
   * java.util.ConcurrentModificationException}); if it throws, the sort stops and nothing has
   * moved.
   *
   * @param entity an element of the set being sorted
   * @return its key; elements sort by ascending key, equal keys keeping their current order
   */
  float key(long entity);
}
