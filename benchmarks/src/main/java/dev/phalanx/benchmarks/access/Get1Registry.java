package dev.phalanx.benchmarks.access;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.Registry;
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
 * get1 through the registry: {@code registry.get(e, Position_Traits.TYPE).x()} checks the entity's
 * validity, finds the storage by type id and builds a {@code Position} record from the storage's
 * fields (which escape analysis may remove: see the allocation column).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Get1Registry {

  @Benchmark
  public float phalanx(final PhalanxWorld.With1 w) {
    final Registry registry = w.registry;
    float sum = 0;
    for (final long e : w.entities) {
      sum += registry.get(e, Position_Traits.TYPE).x();
    }
    return sum;
  }
}
