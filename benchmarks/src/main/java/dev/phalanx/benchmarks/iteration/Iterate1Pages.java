package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
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
 * iterate1 without a view: the loop walks the Position storage's {@code x} pages directly ({@code
 * xPages()}, {@code pageSize()}, {@code size()}), the fastest form for one component, where every
 * element of the storage is visited.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate1Pages {

  @Benchmark
  public void phalanx(final PhalanxWorld.With1 w) {
    final Position_Storage positions = w.positions;
    final float[][] pages = positions.xPages();
    final int size = positions.size();
    final int pageSize = positions.pageSize();
    for (int page = 0, from = 0; from < size; page++, from += pageSize) {
      final float[] x = pages[page];
      final int end = Math.min(pageSize, size - from);
      for (int i = 0; i < end; i++) {
        x[i] += 1f;
      }
    }
  }
}
