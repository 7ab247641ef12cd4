package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Remove two components (Velocity, then Position) from every entity. The components are given back
 * before each shot. Phalanx removes through the generated storages, as artemis through its mappers.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Remove2 extends StructuralBenchmark {

  @Benchmark
  public void phalanx(final WorldStates.PhalanxState s) {
    final var positions = s.w.positions;
    final var velocities = s.w.velocities;
    for (final long e : s.w.entities) {
      velocities.remove(e);
      positions.remove(e);
    }
  }

  /**
   * Through the component mappers; artemis applies removals at {@code world.process()}, included.
   */
  @Benchmark
  public void artemis(final WorldStates.ArtemisState s) {
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
   * removes both types at once fails with an ArrayIndexOutOfBoundsException inside its ChunkedPool
   * when the entity is left without components.
   */
  @Benchmark
  public void dominion(final WorldStates.DominionState s) {
    for (final var e : s.w.entities) {
      e.removeType(Velocity.class);
      e.removeType(Position.class);
    }
  }

  @Benchmark
  public void ashley(final WorldStates.AshleyState s) {
    for (final var e : s.w.entities) {
      e.remove(AshleyComponents.Velocity.class);
      e.remove(AshleyComponents.Position.class);
    }
  }
}
