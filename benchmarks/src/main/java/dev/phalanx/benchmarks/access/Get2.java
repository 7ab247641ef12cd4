package dev.phalanx.benchmarks.access;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisComponents;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.dominion.DominionWorld;
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

/** Get two components (Position, Velocity) of every entity by handle and sum {@code p.x + v.x}. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Get2 {

  @Benchmark
  public float phalanx(final PhalanxWorld.With2 w) {
    final Position_Storage positions = w.positions;
    final Velocity_Storage velocities = w.velocities;
    float sum = 0;
    for (final long e : w.entities) {
      sum += positions.x(e) + velocities.x(e);
    }
    return sum;
  }

  @Benchmark
  public float artemis(final ArtemisWorld.With2 w) {
    final var positions = w.world.getMapper(ArtemisComponents.Position.class);
    final var velocities = w.world.getMapper(ArtemisComponents.Velocity.class);
    float sum = 0;
    for (final int e : w.entities) {
      sum += positions.get(e).x + velocities.get(e).x;
    }
    return sum;
  }

  @Benchmark
  public float dominion(final DominionWorld.With2 w) {
    float sum = 0;
    for (final dev.dominion.ecs.api.Entity e : w.entities) {
      sum += e.get(Position.class).x + e.get(Velocity.class).x;
    }
    return sum;
  }
}
