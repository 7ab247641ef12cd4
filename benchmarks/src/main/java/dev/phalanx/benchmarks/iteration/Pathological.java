package dev.phalanx.benchmarks.iteration;

import static dev.phalanx.benchmarks.worlds.PhalanxTypes.POSITION;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.SCALE;
import static dev.phalanx.benchmarks.worlds.PhalanxTypes.VELOCITY;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.PhalanxSystems;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.view.View;
import java.util.function.LongConsumer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * EnTT's pathological case: 500k entities with Position, Velocity and Scale; ten rounds of removing
 * one component from every 7th, 11th and 13th entity and destroying every 17th, then adding 50k full
 * entities; then iterate3 once over what is left. Time is per initial entity (500k), so the row
 * compares with iterate3. The fixed size ignores {@code -opi}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@OperationsPerInvocation(Work.PATHOLOGICAL_ENTITIES)
public class Pathological {

  @State(Scope.Benchmark)
  public static class World {
    View view;
    LongConsumer move;
    int survivors;

    @Setup(Level.Trial)
    public void setup() {
      final Registry registry = new Registry();
      int created = 0;
      for (; created < Work.PATHOLOGICAL_ENTITIES; created++) {
        PhalanxWorld.populate(registry, registry.create(), created, 3);
      }
      for (int round = 0; round < 10; round++) {
        final long[] alive = new long[registry.alive()];
        final int[] at = {0};
        registry.entities().each(e -> alive[at[0]++] = e);
        for (int i = 0; i < alive.length; i++) {
          final long e = alive[i];
          if (0 == i % 7) {
            registry.remove(e, POSITION);
          }
          if (0 == i % 11) {
            registry.remove(e, VELOCITY);
          }
          if (0 == i % 13) {
            registry.remove(e, SCALE);
          }
          if (0 == i % 17) {
            registry.destroy(e);
          }
        }
        for (int i = 0; i < 50_000; i++, created++) {
          PhalanxWorld.populate(registry, registry.create(), created, 3);
        }
      }
      view = registry.view(POSITION, VELOCITY, SCALE);
      move = PhalanxSystems.move3(registry.storage(POSITION), registry.storage(VELOCITY), registry.storage(SCALE));
      survivors = view.sizeHint();
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.view.each(w.move);
  }
}
