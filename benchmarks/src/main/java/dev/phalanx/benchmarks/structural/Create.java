package dev.phalanx.benchmarks.structural;

import com.artemis.Archetype;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import com.badlogic.ashley.core.Entity;
import com.badlogic.ashley.core.PooledEngine;
import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Create entities one by one into a fresh world (a new one per shot, made before it), with no
 * component ({@code arity} 0) or with a Position and a Velocity ({@code arity} 2). Phalanx writes
 * the fields into its generated struct-of-arrays storages ({@code positions.emplace(e, x, y)}, no
 * component object; it allocates only as its pages and sparse arrays grow); the peers allocate two
 * component objects per entity (artemis's archetype creates them); the allocation column shows it.
 *
 * <p>{@code lib}:
 *
 * <ul>
 *   <li>{@code phalanx}: {@code registry.create()} and the typed {@code emplace}s.
 *   <li>{@code phalanxBulk}: EnTT's {@code registry.create(first, last)} then {@code
 *       storage.insert(first, last, values)}: {@code registry.create(long[])}, then (arity 2) the
 *       field columns filled and one {@code insertColumns} per type; the column arrays are reused
 *       from shot to shot (the caller's buffers); filling them is measured.
 *   <li>{@code phalanxReserved}: as {@code phalanx}, after reserving room in the shot itself
 *       ({@code registry.reserve(n)}, {@code storage.reserve(n)}): what the one-by-one path costs
 *       without the packed arrays' growth.
 *   <li>{@code artemis}: {@code world.create()} (arity 2: from an archetype, artemis's recommended
 *       path, which creates the components); creations are applied at the next {@code
 *       world.process()}, which is included.
 *   <li>{@code dominion}: {@code createEntity()} (arity 2: with a prepared composition, Dominion's
 *       documented path for many entities of one shape), each handle consumed by a Blackhole.
 *   <li>{@code ashley}: pooled entities and components, as Ashley recommends.
 * </ul>
 *
 * <p>{@code recycle} (EnTT's recycle, Phalanx alone, no component): n entities were created and
 * destroyed; the shot creates n again, every identifier recycled with a bumped version. Compare
 * with arity 0 (fresh identifiers).
 */
@OperationsPerInvocation(Work.ENTITIES)
public class Create extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class Fresh {
    @Param({"0", "2"})
    public int arity;

    @Param({"phalanx", "phalanxBulk", "phalanxReserved", "artemis", "dominion", "ashley"})
    public String lib;

    Folded.Shot shot;
    Runnable close;

    // The bulk form's column buffers, kept from shot to shot.
    long[] entities;
    float[] x;
    float[] y;
    float[] vx;
    float[] vy;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == shot) {
        Folded.checkForked(params);
      }
      final int n = Sizes.entities(params);
      close = () -> {};
      shot =
          switch (lib) {
            case "phalanx" -> phalanx(n, arity, false);
            case "phalanxReserved" -> phalanx(n, arity, true);
            case "phalanxBulk" -> phalanxBulk(n);
            case "artemis" -> artemis(n, arity);
            case "dominion" -> {
              final Dominion dominion = Dominion.create();
              close = dominion::close;
              yield dominion(dominion, n, arity);
            }
            case "ashley" -> ashley(n, arity);
            default -> throw new IllegalArgumentException("unknown lib " + lib);
          };
    }

    @TearDown(Level.Iteration)
    public void tearDown() {
      close.run();
    }

    private Folded.Shot phalanxBulk(final int n) {
      final Registry registry = new Registry();
      if (0 == arity) {
        final long[] out = new long[n]; // a new array per shot, as before the fold
        return bh -> {
          registry.create(out);
          return out;
        };
      }
      if (null == entities || entities.length != n) {
        entities = new long[n];
        x = new float[n];
        y = new float[n];
        vx = new float[n];
        vy = new float[n];
      }
      final long[] entities = this.entities;
      final float[] x = this.x;
      final float[] y = this.y;
      final float[] vx = this.vx;
      final float[] vy = this.vy;
      return bh -> {
        final Position_Storage positions = registry.storage(Position_Traits.TYPE);
        final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
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
      };
    }
  }

  @Benchmark
  public Object run(final Fresh s, final Blackhole bh) {
    return s.shot.run(bh);
  }

  /** n identifiers created and destroyed again before each shot, for {@link #recycle}. */
  @State(Scope.Benchmark)
  public static class Released {
    int n;
    Registry registry;
    long[] out;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == registry) {
        n = Sizes.entities(params);
        registry = new Registry();
        out = new long[n];
        registry.create(out);
      }
      registry.destroy(out, 0, n);
    }
  }

  @Benchmark
  public long[] recycle(final Released s) {
    final Registry registry = s.registry;
    final long[] out = s.out;
    for (int i = 0; i < s.n; i++) {
      out[i] = registry.create();
    }
    return out;
  }

  private static Folded.Shot phalanx(final int n, final int arity, final boolean reserved) {
    final Registry registry = new Registry();
    if (0 == arity) {
      final long[] out = new long[n];
      if (reserved) {
        return bh -> {
          registry.reserve(n);
          for (int i = 0; i < n; i++) {
            out[i] = registry.create();
          }
          return out;
        };
      }
      return bh -> {
        for (int i = 0; i < n; i++) {
          out[i] = registry.create();
        }
        return out;
      };
    }
    if (reserved) {
      return bh -> {
        final Position_Storage positions = registry.storage(Position_Traits.TYPE);
        final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
        registry.reserve(n);
        positions.reserve(n);
        velocities.reserve(n);
        for (int i = 0; i < n; i++) {
          final long e = registry.create();
          positions.emplace(e, Work.x(i), Work.x(i));
          velocities.emplace(e, Work.v(i), Work.v(i));
        }
        return registry;
      };
    }
    return bh -> {
      final Position_Storage positions = registry.storage(Position_Traits.TYPE);
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      for (int i = 0; i < n; i++) {
        final long e = registry.create();
        positions.emplace(e, Work.x(i), Work.x(i));
        velocities.emplace(e, Work.v(i), Work.v(i));
      }
      return registry;
    };
  }

  private static Folded.Shot artemis(final int n, final int arity) {
    final World world = new World(new WorldConfigurationBuilder().build());
    if (0 == arity) {
      final int[] out = new int[n];
      return bh -> {
        for (int i = 0; i < n; i++) {
          out[i] = world.create();
        }
        world.process();
        return out;
      };
    }
    final Archetype archetype = ArtemisWorld.archetype(world, 2);
    return bh -> {
      final var positions = world.getMapper(ArtemisComponents.Position.class);
      final var velocities = world.getMapper(ArtemisComponents.Velocity.class);
      for (int i = 0; i < n; i++) {
        final int e = world.create(archetype);
        positions.get(e).x = Work.x(i);
        velocities.get(e).x = Work.v(i);
      }
      world.process();
      return world;
    };
  }

  private static Folded.Shot dominion(final Dominion dominion, final int n, final int arity) {
    if (0 == arity) {
      return bh -> {
        for (int i = 0; i < n; i++) {
          bh.consume(dominion.createEntity());
        }
        return null;
      };
    }
    final Composition.Of2<Position, Velocity> shape =
        dominion.composition().of(Position.class, Velocity.class);
    return bh -> {
      for (int i = 0; i < n; i++) {
        final Position p = new Position();
        p.x = Work.x(i);
        final Velocity v = new Velocity();
        v.x = Work.v(i);
        bh.consume(dominion.createPreparedEntity(shape.withValue(p, v)));
      }
      return null;
    };
  }

  private static Folded.Shot ashley(final int n, final int arity) {
    final PooledEngine engine = new PooledEngine();
    if (0 == arity) {
      return bh -> {
        for (int i = 0; i < n; i++) {
          final Entity e = engine.createEntity();
          engine.addEntity(e);
        }
        return engine;
      };
    }
    return bh -> {
      for (int i = 0; i < n; i++) {
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
    };
  }
}
