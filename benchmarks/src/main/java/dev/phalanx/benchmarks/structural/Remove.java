package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Remove {@code arity} components from every entity that has a Position and a Velocity: Velocity
 * (arity 1), then Position too (arity 2). The components are given back before each shot (Phalanx
 * writes the fields again, Dominion reuses the same objects). Phalanx removes through the generated
 * storages ({@code velocities.remove(e)}), as artemis through its mappers (artemis applies removals
 * at {@code world.process()}, included). Dominion removes one type with a prepared modifier, the
 * form its API documentation gives for changing entities, and two through {@code
 * Entity.removeType}, one type at a time: Dominion 0.9.0's prepared modifier that removes both
 * types at once fails with an ArrayIndexOutOfBoundsException inside its ChunkedPool when the entity
 * is left without components.
 *
 * <p>{@code clearPool}: Phalanx's world of {@code lib=phalanx}, Velocity removed from every entity
 * at once ({@code velocities.clear()}); compare with arity 1 (one entity at a time). None of the
 * peers has this operation.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Remove extends StructuralBenchmark {

  public static class Shot extends WorldStates.Shot {
    @Param({"1", "2"})
    public int arity;

    @Override
    Runnable phalanx(final Worlds2.Phalanx w) {
      if (1 == arity) {
        return () -> {
          final var velocities = w.velocities;
          for (final long e : w.entities) {
            velocities.remove(e);
          }
        };
      }
      return () -> {
        final var positions = w.positions;
        final var velocities = w.velocities;
        for (final long e : w.entities) {
          velocities.remove(e);
          positions.remove(e);
        }
      };
    }

    @Override
    Runnable artemis(final Worlds2.Artemis w) {
      if (1 == arity) {
        return () -> {
          final var velocities = w.velocities;
          for (final int e : w.entities) {
            velocities.remove(e);
          }
          w.world.process();
        };
      }
      return () -> {
        final var velocities = w.velocities;
        final var positions = w.positions;
        for (final int e : w.entities) {
          velocities.remove(e);
          positions.remove(e);
        }
        w.world.process();
      };
    }

    @Override
    Runnable dominion(final Worlds2.Dominion2 w) {
      if (1 == arity) {
        return () -> {
          final var dominion = w.dominion;
          final var remove = dominion.composition().byRemoving(Velocity.class);
          for (final var e : w.entities) {
            dominion.modifyEntity(remove.withValue(e));
          }
        };
      }
      return () -> {
        for (final var e : w.entities) {
          e.removeType(Velocity.class);
          e.removeType(Position.class);
        }
      };
    }

    @Override
    Runnable ashley(final Worlds2.Ashley w) {
      if (1 == arity) {
        return () -> {
          for (final var e : w.entities) {
            e.remove(AshleyComponents.Velocity.class);
          }
        };
      }
      return () -> {
        for (final var e : w.entities) {
          e.remove(AshleyComponents.Velocity.class);
          e.remove(AshleyComponents.Position.class);
        }
      };
    }
  }

  @Benchmark
  public void run(final Shot s) {
    s.shot.run();
  }

  @Benchmark
  public void clearPool(final WorldStates.PhalanxState s) {
    s.w.velocities.clear();
  }
}
