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
 * Remove one component (Velocity) from every entity that has a Position and a Velocity. The
 * components are given back before each shot (Phalanx writes the fields again, Dominion reuses the
 * same objects). Phalanx removes through the generated storage ({@code velocities.remove(e)}), as
 * artemis does through its mapper.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Remove1 extends StructuralBenchmark {

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
    final var velocities = s.w.velocities;
    for (final long e : s.w.entities) {
      velocities.remove(e);
    }
  }

  /** Through the component mappers; artemis applies removals at {@code world.process()}, included. */
  @Benchmark
  public void artemis(final ArtemisState s) {
    final var velocities = s.w.velocities;
    final var positions = s.w.positions;
    for (final int e : s.w.entities) {
      velocities.remove(e);
    }
    s.w.world.process();
  }

  /** With a prepared modifier, the form Dominion's API documentation gives for changing entities. */
  @Benchmark
  public void dominion(final DominionState s) {
    final var dominion = s.w.dominion;
    final var remove = dominion.composition().byRemoving(Velocity.class);
    for (final var e : s.w.entities) {
      dominion.modifyEntity(remove.withValue(e));
    }
  }

  @Benchmark
  public void ashley(final AshleyState s) {
    for (final var e : s.w.entities) {
      e.remove(AshleyComponents.Velocity.class);
    }
  }
}
