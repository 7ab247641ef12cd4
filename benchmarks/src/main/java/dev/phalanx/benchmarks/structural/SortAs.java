package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.ecs.PositionComparator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sort one pool as another (EnTT's sort "as"): 150k entities with a Position and a Velocity; before
 * each shot the Position storage gets new random x values and is sorted by x (outside the measured
 * time); the shot arranges the Velocity storage in the Position storage's order ({@code
 * velocities.sortAs(positions)}). Fixed size: {@code -opi} does not apply.
 */
@OperationsPerInvocation(Work.SORT_ENTITIES)
public class SortAs extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Position_Storage positions;
    Velocity_Storage velocities;
    PositionComparator byX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == positions) {
        final Position_Storage p = positions = Sort.positions();
        velocities = p.registry().storage(Velocity_Traits.TYPE);
        final long[] packed = p.packed();
        for (int i = 0; i < p.size(); i++) {
          velocities.emplace(packed[i], Work.v(i), Work.v(i));
        }
        byX = (a, b) -> Float.compare(p.xAt(a), p.xAt(b));
      }
      Sort.shuffle(positions, ++seed);
      positions.sortByPosition(byX);
    }
  }

  @Benchmark
  public Velocity_Storage phalanx(final PhalanxState s) {
    s.velocities.sortAs(s.positions);
    return s.velocities;
  }
}
