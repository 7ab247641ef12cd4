package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.ecs.PositionComparator;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Almost-sorted data with insertion sort (EnTT's sort with its insertion-sort algorithm): 150k
 * Positions sorted by x, then before each shot 1 in 100 elements gets a new random x (outside the
 * measured time); the shot sorts again with {@code insertionSortByPosition}. Fixed size.
 */
@OperationsPerInvocation(Work.SORT_ENTITIES)
public class SortInsertion extends StructuralBenchmark {

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Position_Storage storage;
    PositionComparator byX;
    SplittableRandom random;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Position_Storage s = storage = Sort.positions();
        for (int p = 0; p < s.size(); p++) {
          s.setXAt(p, p);
        }
        byX = (a, b) -> Float.compare(s.xAt(a), s.xAt(b));
        random = new SplittableRandom(42);
      }
      // Re-number in order (the storage is sorted), then move 1 in 100 a little out of place.
      for (int p = 0; p < storage.size(); p++) {
        storage.setXAt(p, p);
      }
      for (int p = 0; p < storage.size(); p += 100) {
        storage.setXAt(p, p + random.nextInt(-50, 50) + 0.5f);
      }
    }
  }

  @Benchmark
  public Position_Storage phalanx(final PhalanxState s) {
    s.storage.insertionSortByPosition(s.byX);
    return s.storage;
  }
}
