package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.worlds.ObjectStorageWorld;
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
 * "Phalanx, object storage": iterate2 with the runtime view over object storages (one {@code
 * Position} / {@code Velocity} object per entity, as the peers store them), the callback reading
 * the components with {@code storage.get(e)}. Shows what the generated struct-of-arrays storages of
 * the main row buy.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2ObjectStorage {

  @Benchmark
  public void phalanx(final ObjectStorageWorld.With2 w) {
    w.view.each(w.move);
  }
}
