package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Destroy entities that have a Position and a Velocity, one by one, in creation order. The world is
 * re-created before each shot (identifiers recycled; artemis's archetype and Ashley's pools
 * allocate components again in that set-up, which the allocation figure includes).
 *
 * <p>Forks differ: some run 1.3x to 2x slower throughout, after where the world's arrays landed
 * (every library here shows it), and with few warm-ups some still recompile. Run several forks with
 * 20 warm-ups and compare medians over forks; see the benchmarks README.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Destroy extends StructuralBenchmark {

  @Benchmark
  public void phalanx(final WorldStates.PhalanxState s) {
    final var registry = s.w.registry;
    for (final long e : s.w.entities) {
      registry.destroy(e);
    }
  }

  /** artemis deletes at the next {@code world.process()}, which is included. */
  @Benchmark
  public void artemis(final WorldStates.ArtemisState s) {
    final var world = s.w.world;
    for (final int e : s.w.entities) {
      world.delete(e);
    }
    world.process();
  }

  @Benchmark
  public void dominion(final WorldStates.DominionState s) {
    final var dominion = s.w.dominion;
    for (final var e : s.w.entities) {
      dominion.deleteEntity(e);
    }
  }

  @Benchmark
  public void ashley(final WorldStates.AshleyState s) {
    final var engine = s.w.engine;
    for (final var e : s.w.entities) {
      engine.removeEntity(e);
    }
  }
}
