package dev.phalanx.ecs.command;

import dev.phalanx.ecs.EntityRangeConsumer;
import dev.phalanx.ecs.OwningGroup;

/**
 * Receives a run of contiguous positions {@code [from, to)} of an owning group, the group's
 * entities (as {@link EntityRangeConsumer}), and the run's own {@link CommandBuffer}: the body of
 * {@link CommandBuffers#parallelEachChunk(OwningGroup, java.util.concurrent.ForkJoinPool,
 * CommandRangeConsumer)}. The buffer is the {@link CommandBuffers}' buffer of the run's first
 * position, so that no two runs share one and the set's apply order does not depend on the number
 * of threads.
 */
@FunctionalInterface
public interface CommandRangeConsumer {
  /**
   * Called once per run.
   *
   * @param commands the run's buffer: record the run's changes into it, from this call only
   * @param entities the entities by position: the run's entities are {@code entities[from]} to
   *     {@code entities[to - 1]}; read only
   * @param from the first position, inclusive
   * @param to the last position, exclusive; {@code from < to}
   */
  void accept(CommandBuffer commands, long[] entities, int from, int to);
}
