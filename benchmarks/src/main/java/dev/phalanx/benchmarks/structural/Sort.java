package dev.phalanx.benchmarks.structural;

import static dev.phalanx.benchmarks.worlds.PhalanxTypes.POSITION;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.storage.ObjectStorage;
import dev.phalanx.ecs.storage.PositionComparator;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sort 150k entities by their Position's x, in place (EnTT's sort benchmark). The x values are
 * shuffled again before each shot. The objects baseline sorts an array of the same objects with
 * {@link Arrays#sort(Object[], Comparator)}. Fixed size: {@code -opi} does not apply.
 */
@OperationsPerInvocation(Work.SORT_ENTITIES)
public class Sort extends StructuralBenchmark {

  static void shuffle(final Position[] positions, final long seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    for (final Position p : positions) {
      p.x = (float) random.nextDouble();
    }
  }

  @State(Scope.Benchmark)
  public static class PhalanxState {
    ObjectStorage<Position> storage;
    Position[] values;
    PositionComparator byX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Registry registry = new Registry();
        storage = registry.storage(POSITION);
        values = new Position[Work.SORT_ENTITIES];
        for (int i = 0; i < values.length; i++) {
          values[i] = new Position();
          registry.emplace(registry.create(), POSITION, values[i]);
        }
        final ObjectStorage<Position> s = storage;
        byX = (a, b) -> Float.compare(s.valueAt(a).x, s.valueAt(b).x);
      }
      shuffle(values, ++seed);
    }
  }

  @Benchmark
  public ObjectStorage<Position> phalanx(final PhalanxState s) {
    s.storage.sortByPosition(s.byX);
    return s.storage;
  }

  @State(Scope.Benchmark)
  public static class ObjectsState {
    Position[] values;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == values) {
        values = new Position[Work.SORT_ENTITIES];
        for (int i = 0; i < values.length; i++) {
          values[i] = new Position();
        }
      }
      shuffle(values, ++seed);
    }
  }

  private static final Comparator<Position> BY_X = (a, b) -> Float.compare(a.x, b.x);

  @Benchmark
  public Position[] objects(final ObjectsState s) {
    Arrays.sort(s.values, BY_X);
    return s.values;
  }
}
