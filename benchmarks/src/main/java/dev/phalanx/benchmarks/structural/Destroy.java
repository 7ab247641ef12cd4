package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Destroy entities that have a Position and a Velocity, one by one, in creation order. The world is
 * re-created before each shot (identifiers recycled; artemis's archetype and Ashley's pools
 * allocate components again in that set-up, which the allocation figure includes). artemis deletes
 * at the next {@code world.process()}, which is included.
 *
 * <p>{@code batch} destroys Phalanx's same world with the batch form, {@code
 * registry.destroy(batch, from, to)}: every entity checked first, then (no listener, group or
 * iteration) removed storage by storage. Compare with artemis-odb's {@code run} row, which also
 * applies its deletions in bulk.
 *
 * <p>Forks differ: some run 1.3x to 2x slower throughout, after where the world's arrays landed
 * (every library here shows it), and with few warm-ups some still recompile. Run several forks with
 * 20 warm-ups and compare medians over forks; see the benchmarks README.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Destroy extends StructuralBenchmark {

  public static class Shot extends WorldStates.Shot {
    @Override
    Runnable phalanx(final Worlds2.Phalanx w) {
      return () -> {
        final var registry = w.registry;
        for (final long e : w.entities) {
          registry.destroy(e);
        }
      };
    }

    @Override
    Runnable artemis(final Worlds2.Artemis w) {
      return () -> {
        final var world = w.world;
        for (final int e : w.entities) {
          world.delete(e);
        }
        world.process();
      };
    }

    @Override
    Runnable dominion(final Worlds2.Dominion2 w) {
      return () -> {
        final var dominion = w.dominion;
        for (final var e : w.entities) {
          dominion.deleteEntity(e);
        }
      };
    }

    @Override
    Runnable ashley(final Worlds2.Ashley w) {
      return () -> {
        final var engine = w.engine;
        for (final var e : w.entities) {
          engine.removeEntity(e);
        }
      };
    }
  }

  @Benchmark
  public void run(final Shot s) {
    s.shot.run();
  }

  @Benchmark
  public void batch(final WorldStates.PhalanxState s) {
    s.w.registry.destroy(s.w.entities, 0, s.w.entities.length);
  }
}
