package dev.phalanx.ecs;

/**
 * The sort key of an entity, a {@code long}: key-based sorts ({@link NonOwningGroup#sortByLongKey},
 * {@link SparseSet#sortByLongKey}) call it once per element, then sort the keys, instead of calling
 * a comparator O(n log n) times. Keys compare as signed {@code long}s; an {@code int} key widens
 * without loss.
 */
@FunctionalInterface
public interface EntityLongKey {
  /**
   * Computes the key of one entity. Called once per element per sort, while the sorted set and the
   * storages it depends on are locked (a structural change throws {@link
   * java.util.ConcurrentModificationException}); if it throws, the sort stops and nothing has
   * moved.
   *
   * @param entity an element of the set being sorted
   * @return its key; elements sort by ascending key, equal keys keeping their current order
   */
  long key(long entity);
}
