package dev.phalanx.benchmarks.structural;

import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.PooledEngine;
import dev.dominion.ecs.api.Dominion;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/** Create entities with no component, one by one, into a fresh world (a new one per shot). */
@OperationsPerInvocation(Work.ENTITIES)
public class Create extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    int n;
    Registry registry;
    long[] out;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      registry = new Registry();
      out = new long[n];
    }
  }

  @Benchmark
  public long[] phalanx(final PhalanxState s) {
    final Registry registry = s.registry;
    final long[] out = s.out;
    for (int i = 0; i < s.n; i++) {
      out[i] = registry.create();
    }
    return out;
  }

  @State(Scope.Benchmark)
  public static class ArtemisState {
    int n;
    World world;
    int[] out;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      world = new World(new WorldConfigurationBuilder().build());
      out = new int[n];
    }
  }

  /** artemis applies creations at the next {@code world.process()}, which is included. */
  @Benchmark
  public int[] artemis(final ArtemisState s) {
    final World world = s.world;
    final int[] out = s.out;
    for (int i = 0; i < s.n; i++) {
      out[i] = world.create();
    }
    world.process();
    return out;
  }

  @State(Scope.Benchmark)
  public static class DominionState {
    int n;
    Dominion dominion;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      dominion = Dominion.create();
    }

    @TearDown(Level.Iteration)
    public void tearDown() {
      dominion.close();
    }
  }

  @Benchmark
  public void dominion(final DominionState s, final Blackhole bh) {
    final Dominion dominion = s.dominion;
    for (int i = 0; i < s.n; i++) {
      bh.consume(dominion.createEntity());
    }
  }

  @State(Scope.Benchmark)
  public static class AshleyState {
    int n;
    PooledEngine engine;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      engine = new PooledEngine();
    }
  }

  @Benchmark
  public void ashley(final AshleyState s) {
    final PooledEngine engine = s.engine;
    for (int i = 0; i < s.n; i++) {
      final Entity e = engine.createEntity();
      engine.addEntity(e);
    }
  }
}
