package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Marker_Storage;
import dev.phalanx.benchmarks.components.Marker_Traits;
import dev.phalanx.benchmarks.model.Marker;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Steady-state structural change: add a Marker component to every entity, then remove it from every
 * entity. The world ends as it started, so no set-up runs between shots; one operation is one
 * entity's add plus remove. Phalanx writes the Marker's field into its generated storage ({@code
 * markers.emplace(e, 1)}, no object), Dominion adds one shared Marker instance, artemis creates it
 * through its mapper and Ashley takes it from its pool.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class AddRemove extends StructuralBenchmark {

  private static final Marker MARK = new Marker();

  public static class Shot extends WorldStates.Shot {
    @Override
    boolean changesWorld() {
      return false;
    }

    @Override
    Runnable phalanx(final Worlds2.Phalanx w) {
      final Marker_Storage markers = w.registry.storage(Marker_Traits.TYPE);
      return () -> {
        final long[] entities = w.entities;
        for (final long e : entities) {
          markers.emplace(e, 1);
        }
        for (final long e : entities) {
          markers.remove(e);
        }
      };
    }

    @Override
    Runnable artemis(final Worlds2.Artemis w) {
      return () -> {
        final var markers = w.markers;
        final int[] entities = w.entities;
        for (final int e : entities) {
          markers.create(e);
        }
        w.world.process();
        for (final int e : entities) {
          markers.remove(e);
        }
        w.world.process();
      };
    }

    @Override
    Runnable dominion(final Worlds2.Dominion2 w) {
      return () -> {
        final var dominion = w.dominion;
        final var add = dominion.composition().byAdding1AndRemoving(Marker.class);
        final var remove = dominion.composition().byRemoving(Marker.class);
        final Marker marker = MARK;
        for (final var e : w.entities) {
          dominion.modifyEntity(add.withValue(e, marker));
        }
        for (final var e : w.entities) {
          dominion.modifyEntity(remove.withValue(e));
        }
      };
    }

    @Override
    Runnable ashley(final Worlds2.Ashley w) {
      return () -> {
        final var engine = w.engine;
        for (final var e : w.entities) {
          e.add(engine.createComponent(AshleyComponents.Marker.class));
        }
        for (final var e : w.entities) {
          e.remove(AshleyComponents.Marker.class);
        }
      };
    }
  }

  @Benchmark
  public void run(final Shot s) {
    s.shot.run();
  }
}
