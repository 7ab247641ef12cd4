package dev.phalanx.ecs;

/** Orders two entities; the primitive counterpart of {@code Comparator<Long>}, without boxing. */
@FunctionalInterface
public interface EntityComparator {
  /**
   * Compares two entity handles.
   *
   * @param left an entity
   * @param right another entity
   * @return negative, zero or positive as {@code left} sorts before, with or after {@code right}
   */
  int compare(long left, long right);
}
