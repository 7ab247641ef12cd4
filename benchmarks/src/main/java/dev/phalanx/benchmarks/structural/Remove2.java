package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
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
 * Remove two components (Velocity, then Position) from every entity. The components are given back
 * before each shot. Phalanx removes through the generated storages, as artemis through its mappers.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Remove2 extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Worlds2.Phalanx w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
      } else {
        w.restore();
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
        w.restore();
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
        w.restore();
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
        w.restore();
      }
    }
  }

  @Benchmark
  public void phalanx(final PhalanxState s) {
    final var positions = s.w.positions;
    final var velocities = s.w.velocities;
    for (final long e : s.w.entities) {
      velocities.remove(e);
      positions.remove(e);
    }
  }

  /** Through the component mappers; artemis applies removals at {@code world.process()}, included. */
  @Benchmark
  public void artemis(final ArtemisState s) {
    final var velocities = s.w.velocities;
    final var positions = s.w.positions;
    for (final int e : s.w.entities) {
      velocities.remove(e);
      positions.remove(e);
    }
    s.w.world.process();
  }

  /**
   * Through {@code Entity.removeType}, one type at a time: Dominion 0.9.0's prepared modifier that
   * removes both types at once fails with an ArrayIndexOutOfBoundsException inside its
   * ChunkedPool when the entity is left without components.
   */
  @Benchmark
  public void dominion(final DominionState s) {
    for (final var e : s.w.entities) {
      e.removeType(Velocity.class);
      e.removeType(Position.class);
    }
  }

  @Benchmark
  public void ashley(final AshleyState s) {
    for (final var e : s.w.entities) {
      e.remove(AshleyComponents.Velocity.class);
      e.remove(AshleyComponents.Position.class);
    }
  }
}
