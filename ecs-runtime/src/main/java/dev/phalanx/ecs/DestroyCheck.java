package dev.phalanx.ecs;

/**
 * A rule that may refuse a destroy before anything changes: a feature whose state would be broken
 * by a destroy (a relationship whose targets must outlive their sources) adds one with {@link
 * Registry#addDestroyCheck}. The registry runs every check before the first removal of {@link
 * Registry#destroy(long)} and of a batch {@link Registry#destroy(long[], int, int)}, with the whole
 * batch at once, so that a rule can allow entities that go together.
 *
 * <p>A check reads only: it throws to refuse (an exception naming the entity and the rule broken)
 * and must not change the registry. It runs on every checked destroy, so it should cost O(what it
 * looks at), not O(entities).
 */
@FunctionalInterface
public interface DestroyCheck {

  /**
   * Throws if destroying every entity of {@code batch[from, to)} (each valid) would break this
   * rule; returns normally to allow it.
   *
   * @param registry the registry destroying them
   * @param batch the entities about to be destroyed; not to be kept or changed
   * @param from the first index, inclusive
   * @param to the end, exclusive
   */
  void check(Registry registry, long[] batch, int from, int to);
}
