package dev.phalanx.ecs;

/**
 * Receives a run of contiguous positions {@code [from, to)} of an owning group together with the
 * entities of the group: {@code entities[p]} is the entity at position {@code p}, for every {@code
 * p} of the run. The same runs as {@link RangeConsumer}, for bodies that act on the entities they
 * find (record a destruction into a {@link dev.phalanx.ecs.command.CommandBuffer CommandBuffer},
 * collect them) in the same pass.
 *
 * <p>{@code entities} is the packed array of the group's first owned storage, not a copy: it is
 * valid for the duration of the call (the storages are locked, so it cannot be replaced) and must
 * not be written. Positions outside {@code [from, to)} may hold entities of other runs or of no
 * group member.
 */
@FunctionalInterface
public interface EntityRangeConsumer {
  /**
   * Called once per run.
   *
   * @param entities the entities by position: the run's entities are {@code entities[from]} to
   *     {@code entities[to - 1]}; read only
   * @param from the first position, inclusive
   * @param to the last position, exclusive; {@code from < to}
   */
  void accept(long[] entities, int from, int to);
}
