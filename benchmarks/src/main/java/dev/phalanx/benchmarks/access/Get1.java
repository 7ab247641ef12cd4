package dev.phalanx.benchmarks.access;

import com.artemis.ComponentMapper;
import com.badlogic.ashley.core.Entity;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyComponents;
import dev.phalanx.benchmarks.peers.ashley.AshleyWorld;
import dev.phalanx.benchmarks.peers.dominion.DominionWorld;
import dev.phalanx.benchmarks.worlds.ObjectArrays;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Get one component of every entity by its handle, in creation order, and sum its x (returned, so
 * nothing is dropped). Phalanx through the generated storage's field accessor ({@code
 * positions.x(e)}: one sparse lookup, no object); peers through their documented random-access path
 * (artemis and Ashley mappers, Dominion's {@code Entity.get}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Get1 {

  @Benchmark
  public float objects(final ObjectArrays w) {
    float sum = 0;
    for (final Position p : w.positions) {
      sum += p.x;
    }
    return sum;
  }

  @Benchmark
  public float phalanx(final PhalanxWorld.With1 w) {
    final Position_Storage positions = w.positions;
    float sum = 0;
    for (final long e : w.entities) {
      sum += positions.x(e);
    }
    return sum;
  }

  @Benchmark
  public float artemis(final ArtemisWorld.With1 w) {
    final ComponentMapper<ArtemisComponents.Position> positions =
        w.world.getMapper(ArtemisComponents.Position.class);
    float sum = 0;
    for (final int e : w.entities) {
      sum += positions.get(e).x;
    }
    return sum;
  }

  @Benchmark
  public float dominion(final DominionWorld.With1 w) {
    float sum = 0;
    for (final dev.dominion.ecs.api.Entity e : w.entities) {
      sum += e.get(Position.class).x;
    }
    return sum;
  }

  private static final com.badlogic.ashley.core.ComponentMapper<AshleyComponents.Position>
      ASHLEY_POSITION =
          com.badlogic.ashley.core.ComponentMapper.getFor(AshleyComponents.Position.class);

  @Benchmark
  public float ashley(final AshleyWorld.With1 w) {
    float sum = 0;
    for (final Entity e : w.entities) {
      sum += ASHLEY_POSITION.get(e).x;
    }
    return sum;
  }
}
