package dev.phalanx.benchmarks.access;

import com.artemis.ComponentMapper;
import com.badlogic.ashley.core.Entity;
import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import dev.phalanx.benchmarks.peers.ashley.AshleyWorld;
import dev.phalanx.benchmarks.peers.dominion.DominionWorld;
import dev.phalanx.benchmarks.worlds.ObjectArrays;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Get {@code arity} components (Position; Position and Velocity) of every entity by its handle, in
 * creation order, and sum their x (returned, so nothing is dropped). Phalanx through the generated
 * storages' field accessors ({@code positions.x(e)}: one sparse lookup, no object); peers through
 * their documented random-access path (artemis and Ashley mappers, Dominion's {@code Entity.get});
 * {@code phalanxRegistry} through {@code registry.get(e, type)}, which builds a record; {@code
 * objects} reads the arrays of component objects. The worlds are those of {@link
 * dev.phalanx.benchmarks.iteration.Iterate} at the same arity; the measured method is one {@code
 * loop.run()}, monomorphic per fork (see {@link Folded}).
 */
public class Get extends IterationBenchmark {

  private static final com.badlogic.ashley.core.ComponentMapper<AshleyComponents.Position>
      ASHLEY_POSITION =
          com.badlogic.ashley.core.ComponentMapper.getFor(AshleyComponents.Position.class);

  private static final com.badlogic.ashley.core.ComponentMapper<AshleyComponents.Velocity>
      ASHLEY_VELOCITY =
          com.badlogic.ashley.core.ComponentMapper.getFor(AshleyComponents.Velocity.class);

  @State(Scope.Benchmark)
  public static class Loop {
    @Param({"1", "2"})
    public int arity;

    @Param({"objects", "phalanx", "phalanxRegistry", "artemis", "dominion", "ashley"})
    public String lib;

    Folded.FloatLoop loop;
    Runnable close = () -> {};

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      Folded.checkForked(params);
      loop =
          switch (lib) {
            case "objects" -> objects(new ObjectArrays(params), arity);
            case "phalanx" -> phalanx(new PhalanxWorld(arity, params), arity);
            case "phalanxRegistry" -> phalanxRegistry(new PhalanxWorld(arity, params), arity);
            case "artemis" -> {
              final ArtemisWorld w = new ArtemisWorld(arity, params);
              close = w::dispose;
              yield artemis(w, arity);
            }
            case "dominion" -> {
              final DominionWorld w = new DominionWorld(arity, params);
              close = w::close;
              yield dominion(w, arity);
            }
            case "ashley" -> ashley(new AshleyWorld(arity, params), arity);
            default -> throw new IllegalArgumentException("unknown lib " + lib);
          };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      close.run();
    }
  }

  @Benchmark
  public float run(final Loop l) {
    return l.loop.run();
  }

  private static Folded.FloatLoop objects(final ObjectArrays w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            float sum = 0;
            for (final Position p : w.positions) {
              sum += p.x;
            }
            return sum;
          };
      case 2 ->
          () -> {
            final Position[] positions = w.positions;
            final Velocity[] velocities = w.velocities;
            float sum = 0;
            for (int i = 0; i < w.n; i++) {
              sum += positions[i].x + velocities[i].x;
            }
            return sum;
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  private static Folded.FloatLoop phalanx(final PhalanxWorld w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            final Position_Storage positions = w.positions;
            float sum = 0;
            for (final long e : w.entities) {
              sum += positions.x(e);
            }
            return sum;
          };
      case 2 ->
          () -> {
            final Position_Storage positions = w.positions;
            final Velocity_Storage velocities = w.velocities;
            float sum = 0;
            for (final long e : w.entities) {
              sum += positions.x(e) + velocities.x(e);
            }
            return sum;
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  /**
   * Through the registry: {@code registry.get(e, Position_Traits.TYPE).x()} checks the entity's
   * validity, finds the storage by type id and builds a record from the storage's fields (which
   * escape analysis may remove: see the allocation column).
   */
  private static Folded.FloatLoop phalanxRegistry(final PhalanxWorld w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            final Registry registry = w.registry;
            float sum = 0;
            for (final long e : w.entities) {
              sum += registry.get(e, Position_Traits.TYPE).x();
            }
            return sum;
          };
      case 2 ->
          () -> {
            final Registry registry = w.registry;
            float sum = 0;
            for (final long e : w.entities) {
              sum +=
                  registry.get(e, Position_Traits.TYPE).x()
                      + registry.get(e, Velocity_Traits.TYPE).x();
            }
            return sum;
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  private static Folded.FloatLoop artemis(final ArtemisWorld w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            final ComponentMapper<ArtemisComponents.Position> positions =
                w.world.getMapper(ArtemisComponents.Position.class);
            float sum = 0;
            for (final int e : w.entities) {
              sum += positions.get(e).x;
            }
            return sum;
          };
      case 2 ->
          () -> {
            final var positions = w.world.getMapper(ArtemisComponents.Position.class);
            final var velocities = w.world.getMapper(ArtemisComponents.Velocity.class);
            float sum = 0;
            for (final int e : w.entities) {
              sum += positions.get(e).x + velocities.get(e).x;
            }
            return sum;
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  private static Folded.FloatLoop dominion(final DominionWorld w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            float sum = 0;
            for (final dev.dominion.ecs.api.Entity e : w.entities) {
              sum += e.get(Position.class).x;
            }
            return sum;
          };
      case 2 ->
          () -> {
            float sum = 0;
            for (final dev.dominion.ecs.api.Entity e : w.entities) {
              sum += e.get(Position.class).x + e.get(Velocity.class).x;
            }
            return sum;
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }

  private static Folded.FloatLoop ashley(final AshleyWorld w, final int arity) {
    return switch (arity) {
      case 1 ->
          () -> {
            float sum = 0;
            for (final Entity e : w.entities) {
              sum += ASHLEY_POSITION.get(e).x;
            }
            return sum;
          };
      case 2 ->
          () -> {
            float sum = 0;
            for (final Entity e : w.entities) {
              sum += ASHLEY_POSITION.get(e).x + ASHLEY_VELOCITY.get(e).x;
            }
            return sum;
          };
      default -> throw new IllegalArgumentException("unknown arity " + arity);
    };
  }
}
