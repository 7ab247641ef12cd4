package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Velocity_Storage;
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
 * iterate2 as a view written by hand over the storages' page arrays: walk Position's packed
 * entities, find each one's Velocity position ({@code indexOf}), and read and write the {@code
 * float[]} pages ({@code xPages()}...) at both positions. What {@code View2Query.each} does,
 * without the cursors and the per-entity visitor call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate2Pages {

  @Benchmark
  public void phalanx(final PhalanxWorld.With2 w) {
    final Position_Storage positions = w.positions;
    final Velocity_Storage velocities = w.velocities;
    final long[] packed = positions.packed();
    final float[][] px = positions.xPages();
    final float[][] py = positions.yPages();
    final float[][] vx = velocities.xPages();
    final float[][] vy = velocities.yPages();
    final int shift = positions.pageShift();
    final int mask = positions.pageSize() - 1;
    for (int p = positions.size() - 1; p >= 0; p--) {
      final int q = velocities.indexOf(packed[p]);
      if (q < 0) {
        continue;
      }
      final float[] vxPage = vx[q >>> shift];
      final float[] vyPage = vy[q >>> shift];
      final float[] pxPage = px[p >>> shift];
      final float[] pyPage = py[p >>> shift];
      pxPage[p & mask] += vxPage[q & mask] * Work.DT;
      pyPage[p & mask] += vyPage[q & mask] * Work.DT;
    }
  }
}
