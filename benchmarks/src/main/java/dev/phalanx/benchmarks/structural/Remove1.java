package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Remove one component (Velocity) from every entity that has a Position and a Velocity. The
 * components are given back before each shot (Phalanx writes the fields again, Dominion reuses the
 * same objects). Phalanx removes through the generated storage ({@code velocities.remove(e)}), as
 * artemis does through its mapper.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Remove1 extends StructuralBenchmark {

  @Benchmark
  public void phalanx(final WorldStates.PhalanxState s) {
    final var velocities = s.w.velocities;
    for (final long e : s.w.entities) {
      velocities.remove(e);
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
    }
    s.w.world.process();
  }

  /**
   * With a prepared modifier, the form Dominion's API documentation gives for changing entities.
   */
  @Benchmark
  public void dominion(final WorldStates.DominionState s) {
    final var dominion = s.w.dominion;
    final var remove = dominion.composition().byRemoving(Velocity.class);
    for (final var e : s.w.entities) {
      dominion.modifyEntity(remove.withValue(e));
    }
  }

  @Benchmark
  public void ashley(final WorldStates.AshleyState s) {
    for (final var e : s.w.entities) {
      e.remove(AshleyComponents.Velocity.class);
    }
  }
}
