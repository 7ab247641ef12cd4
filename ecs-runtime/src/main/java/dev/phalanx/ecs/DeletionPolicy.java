package dev.phalanx.ecs;

/**
 * How a set removes an element, which decides whether the positions (and so the references) of the
 * other elements stay stable.
 */
public enum DeletionPolicy {
  /**
   * The removed element is replaced by the last one, and the set shrinks by one. Packed arrays stay
   * dense (iteration never branches), but the last element moves. The default.
   */
  SWAP_AND_POP,

  /**
   * The removed element leaves a tombstone: no other element moves, so positions are stable until
   * {@link SparseSet#compact()}. Holes form an intrusive LIFO free list threaded through the packed
   * array; a single insertion reuses the most recent hole. Iterations skip tombstones.
   */
  IN_PLACE,

  /**
   * The removed element is swapped behind a boundary that separates the elements in use from the
   * released ones, and its version is bumped. Used by {@link dev.phalanx.ecs.EntityStorage} to
   * recycle entity identifiers; component storages do not accept it.
   */
  SWAP_ONLY
}
