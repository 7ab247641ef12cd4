package dev.phalanx.benchmarks.structural;

import com.artemis.Archetype;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.PooledEngine;
import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
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

/**
 * Create entities with a Position and a Velocity, one by one, into a fresh world. Phalanx writes
 * the fields into its generated struct-of-arrays storages ({@code positions.emplace(e, x, y)}, no
 * component object; it allocates only as its pages and sparse arrays grow); the peers allocate two
 * component objects per entity (artemis's archetype creates them); the allocation column shows it.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class CreateWith2 extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    int n;
    Registry registry;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      registry = new Registry();
    }
  }

  @Benchmark
  public Registry phalanx(final PhalanxState s) {
    final Registry registry = s.registry;
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    for (int i = 0; i < s.n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
    }
    return registry;
  }

  @State(Scope.Benchmark)
  public static class PhalanxBulkState {
    int n;
    Registry registry;
    long[] entities;
    float[] x;
    float[] y;
    float[] vx;
    float[] vy;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      registry = new Registry();
      if (null == entities || entities.length != n) {
        entities = new long[n];
        x = new float[n];
        y = new float[n];
        vx = new float[n];
        vy = new float[n];
      }
    }
  }

  /**
   * The bulk path, EnTT's {@code registry.create(first, last)} then {@code storage.insert(first,
   * last, values)}: {@code registry.create(long[])}, the field columns filled, then one {@code
   * insertColumns} per type; same fresh world and same values as {@link #phalanx}. The column
   * arrays are reused from shot to shot (the caller's buffers); filling them is measured.
   */
  @Benchmark
  public Registry phalanxBulk(final PhalanxBulkState s) {
    final Registry registry = s.registry;
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final int n = s.n;
    final long[] entities = s.entities;
    final float[] x = s.x;
    final float[] y = s.y;
    final float[] vx = s.vx;
    final float[] vy = s.vy;
    registry.create(entities);
    for (int i = 0; i < n; i++) {
      x[i] = Work.x(i);
      y[i] = Work.x(i);
      vx[i] = Work.v(i);
      vy[i] = Work.v(i);
    }
    positions.insertColumns(entities, 0, n, x, y);
    velocities.insertColumns(entities, 0, n, vx, vy);
    return registry;
  }

  /**
   * As {@link #phalanx}, one entity at a time, after reserving room in the shot itself ({@code
   * registry.reserve(n)}, {@code storage.reserve(n)}): what the one-by-one path costs without the
   * packed arrays' growth.
   */
  @Benchmark
  public Registry phalanxReserved(final PhalanxState s) {
    final Registry registry = s.registry;
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    registry.reserve(s.n);
    positions.reserve(s.n);
    velocities.reserve(s.n);
    for (int i = 0; i < s.n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
    }
    return registry;
  }

  @State(Scope.Benchmark)
  public static class ArtemisState {
    int n;
    World world;
    Archetype archetype;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      world = new World(new WorldConfigurationBuilder().build());
      archetype = ArtemisWorld.archetype(world, 2);
    }
  }

  /** From an archetype (artemis's recommended creation path), which creates the components. */
  @Benchmark
  public World artemis(final ArtemisState s) {
    final World world = s.world;
    final var positions =
        world.getMapper(dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Position.class);
    final var velocities =
        world.getMapper(dev.phalanx.benchmarks.peers.artemis.ArtemisComponents.Velocity.class);
    for (int i = 0; i < s.n; i++) {
      final int e = world.create(s.archetype);
      positions.get(e).x = Work.x(i);
      velocities.get(e).x = Work.v(i);
    }
    world.process();
    return world;
  }

  @State(Scope.Benchmark)
  public static class DominionState {
    int n;
    Dominion dominion;
    Composition.Of2<Position, Velocity> shape;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      n = Sizes.entities(params);
      dominion = Dominion.create();
      shape = dominion.composition().of(Position.class, Velocity.class);
    }

    @TearDown(Level.Iteration)
    public void tearDown() {
      dominion.close();
    }
  }

  /** With a prepared composition, Dominion's documented path for many entities of one shape. */
  @Benchmark
  public void dominion(final DominionState s, final Blackhole bh) {
    final Dominion dominion = s.dominion;
    for (int i = 0; i < s.n; i++) {
      final Position p = new Position();
      p.x = Work.x(i);
      final Velocity v = new Velocity();
      v.x = Work.v(i);
      bh.consume(dominion.createPreparedEntity(s.shape.withValue(p, v)));
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

  /** Pooled entities and components, as Ashley recommends. */
  @Benchmark
  public PooledEngine ashley(final AshleyState s) {
    final PooledEngine engine = s.engine;
    for (int i = 0; i < s.n; i++) {
      final Entity e = engine.createEntity();
      final AshleyComponents.Position p = engine.createComponent(AshleyComponents.Position.class);
      p.x = Work.x(i);
      e.add(p);
      final AshleyComponents.Velocity v = engine.createComponent(AshleyComponents.Velocity.class);
      v.x = Work.v(i);
      e.add(v);
      engine.addEntity(e);
    }
    return engine;
  }
}
