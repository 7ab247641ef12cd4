package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Scale_Storage;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.RuntimeView;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
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

/**
 * iterate3 through a runtime view (storages chosen at run time, no generated query), as {@link
 * Iterate2RuntimeView} with a third storage: EnTT's runtime view row at three components.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate3RuntimeView {

  @State(Scope.Benchmark)
  public static class View {
    RuntimeView view;
    LongConsumer move;
    RuntimeView.PositionVisitor moveAt;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With3 w) {
      final Position_Storage positions = w.positions;
      final Velocity_Storage velocities = w.velocities;
      final Scale_Storage scales = w.scales;
      view = new RuntimeView().iterate(positions).iterate(velocities).iterate(scales);
      move =
          e -> {
            final int p = positions.index(e);
            final int v = velocities.index(e);
            final float f = scales.sAt(scales.index(e)) * Work.DT;
            positions.setXAt(p, positions.xAt(p) + velocities.xAt(v) * f);
            positions.setYAt(p, positions.yAt(p) + velocities.yAt(v) * f);
          };
      moveAt =
          (e, at) -> {
            final int p = at[0];
            final int v = at[1];
            final float f = scales.sAt(at[2]) * Work.DT;
            positions.setXAt(p, positions.xAt(p) + velocities.xAt(v) * f);
            positions.setYAt(p, positions.yAt(p) + velocities.yAt(v) * f);
          };
    }
  }

  @Benchmark
  public void phalanx(final View v) {
    v.view.each(v.move);
  }

  /**
   * The same body taking each entity's positions from the view ({@code
   * each(RuntimeView.PositionVisitor)}) instead of looking every storage up again.
   */
  @Benchmark
  public void phalanxPositions(final View v) {
    v.view.each(v.moveAt);
  }
}
