package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Destroy entities that have a Position and a Velocity, one by one, in creation order. The world
 * is re-created before each shot (identifiers recycled; artemis's archetype and Ashley's pools
 * allocate components again in that set-up, which the allocation figure includes).
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Destroy extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Worlds2.Phalanx w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
      } else {
        w.recreate();
      }
    }
  }

  @State(Scope.Benchmark)
  public static class ArtemisState {
    Worlds2.Artemis w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Artemis(Sizes.entities(params));
      } else {
        w.recreate();
      }
    }
  }

  @State(Scope.Benchmark)
  public static class DominionState {
    Worlds2.Dominion2 w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Dominion2(Sizes.entities(params));
      } else {
        w.recreate();
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      w.dominion.close();
    }
  }

  @State(Scope.Benchmark)
  public static class AshleyState {
    Worlds2.Ashley w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Ashley(Sizes.entities(params));
      } else {
        w.recreate();
      }
    }
  }

  @Benchmark
  public void phalanx(final PhalanxState s) {
    final var registry = s.w.registry;
    for (final long e : s.w.entities) {
      registry.destroy(e);
    }
  }

  /** artemis deletes at the next {@code world.process()}, which is included. */
  @Benchmark
  public void artemis(final ArtemisState s) {
    final var world = s.w.world;
    for (final int e : s.w.entities) {
      world.delete(e);
    }
    world.process();
  }

  @Benchmark
  public void dominion(final DominionState s) {
    final var dominion = s.w.dominion;
    for (final var e : s.w.entities) {
      dominion.deleteEntity(e);
    }
  }

  @Benchmark
  public void ashley(final AshleyState s) {
    final var engine = s.w.engine;
    for (final var e : s.w.entities) {
      engine.removeEntity(e);
    }
  }
}
