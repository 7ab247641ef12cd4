package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Marker_Storage;
import dev.phalanx.benchmarks.components.Marker_Traits;
import dev.phalanx.benchmarks.model.Marker;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
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
 * Steady-state structural change: add a Marker component to every entity, then remove it from every
 * entity. The world ends as it started, so no set-up runs between shots; one operation is one
 * entity's add plus remove. Phalanx writes the Marker's field into its generated storage ({@code
 * markers.emplace(e, 1)}, no object), Dominion adds one shared Marker instance, artemis creates it
 * through its mapper and Ashley takes it from its pool.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class AddRemove extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Worlds2.Phalanx w;
    Marker_Storage markers;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
        markers = w.registry.storage(Marker_Traits.TYPE);
      } else {
        // unchanged by a shot
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
        // unchanged by a shot
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
        // unchanged by a shot
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
        // unchanged by a shot
      }
    }
  }

  @Benchmark
  public void phalanx(final PhalanxState s) {
    final Marker_Storage markers = s.markers;
    final long[] entities = s.w.entities;
    for (final long e : entities) {
      markers.emplace(e, 1);
    }
    for (final long e : entities) {
      markers.remove(e);
    }
  }

  @Benchmark
  public void artemis(final ArtemisState s) {
    final var markers = s.w.markers;
    final int[] entities = s.w.entities;
    for (final int e : entities) {
      markers.create(e);
    }
    s.w.world.process();
    for (final int e : entities) {
      markers.remove(e);
    }
    s.w.world.process();
  }

  @Benchmark
  public void dominion(final DominionState s) {
    final var dominion = s.w.dominion;
    final var add = dominion.composition().byAdding1AndRemoving(Marker.class);
    final var remove = dominion.composition().byRemoving(Marker.class);
    final Marker marker = MARK;
    for (final var e : s.w.entities) {
      dominion.modifyEntity(add.withValue(e, marker));
    }
    for (final var e : s.w.entities) {
      dominion.modifyEntity(remove.withValue(e));
    }
  }

  @Benchmark
  public void ashley(final AshleyState s) {
    final var engine = s.w.engine;
    for (final var e : s.w.entities) {
      e.add(engine.createComponent(AshleyComponents.Marker.class));
    }
    for (final var e : s.w.entities) {
      e.remove(AshleyComponents.Marker.class);
    }
  }

  private static final Marker MARK = new Marker();
}
