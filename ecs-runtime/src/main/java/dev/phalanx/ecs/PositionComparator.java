package dev.phalanx.ecs;

/**
 * Orders two elements of one storage given their current positions in the packed array. It lets a
 * sort compare component fields read straight from primitive pages, for example {@code (a, b) ->
 * Float.compare(positions.xAt(a), positions.xAt(b))}, with no object materialized.
 */
@FunctionalInterface
public interface PositionComparator {
  /**
   * Compares the elements currently at two positions.
   *
   * @param left a position
   * @param right another position
   * @return negative, zero or positive as the element at {@code left} sorts before, with or after
   *     the one at {@code right}
   */
  int compare(int left, int right);
}
