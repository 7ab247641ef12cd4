package dev.phalanx.benchmarks.access;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.storage.ObjectStorage;
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
 * get1 through the storage held by the caller (what a view's callback does; Phalanx has no
 * {@code view.get} yet): no registry validity check, one sparse lookup.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Get1Storage {

  @Benchmark
  public float phalanx(final PhalanxWorld.With1 w) {
    final ObjectStorage<Position> positions = w.positions;
    float sum = 0;
    for (final long e : w.entities) {
      sum += positions.get(e).x;
    }
    return sum;
  }
}
