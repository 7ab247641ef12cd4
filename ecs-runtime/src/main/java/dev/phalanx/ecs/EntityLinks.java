package dev.phalanx.ecs;

/**
 * The links of one exclusive relationship kind as the core reads them: each source's target, and
 * each target's sources in the order they were linked. A relationship kind's storage answers {@link
 * Storage#entityLinks()} with it ({@code dev.phalanx.ecs.relation.Relation} implements it); {@link
 * EntityHandle#target} and {@link EntityHandle#sources} read it, and a {@link ChangeSet}'s commit
 * checks the targets it stages against it. Every query is O(1), by entity index, and allocates
 * nothing.
 */
public interface EntityLinks {

  /**
   * {@return the target {@code source} names, or {@link Entity#NULL} if it has no relationship of
   * this kind}
   *
   * @param source any handle
   */
  long target(long source);

  /**
   * {@return how many sources name {@code target}}
   *
   * @param target any handle; 0 if it is not live
   */
  int sourceCount(long target);

  /**
   * {@return the first source naming {@code target}, in link order, or {@link Entity#NULL}}
   *
   * @param target any handle
   */
  long firstSource(long target);

  /**
   * {@return the source after {@code source} naming the same target, or {@link Entity#NULL}}
   *
   * @param source a source of this kind
   */
  long nextSource(long source);

  /** {@return whether a chain of this kind may not come back to where it started} */
  boolean acyclic();
}
