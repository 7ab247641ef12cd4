package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.ecs.PositionComparator;
import dev.phalanx.ecs.Registry;
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
 * Sort 150k entities by their Position's x, in place (EnTT's sort benchmark): Phalanx sorts the
 * generated struct-of-arrays storage with {@code sortByPosition}, comparing {@code xAt}. The x
 * values are shuffled again before each shot. The objects baseline sorts an array of the same
 * objects with {@link Arrays#sort(Object[], Comparator)}. Fixed size: {@code -opi} does not apply.
 */
@OperationsPerInvocation(Work.SORT_ENTITIES)
public class Sort extends StructuralBenchmark {

  static void shuffle(final Position[] positions, final long seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    for (final Position p : positions) {
      p.x = (float) random.nextDouble();
    }
  }

  /** Gives every element of {@code storage} a new random x, position after position. */
  static void shuffle(final Position_Storage storage, final long seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    for (int p = 0; p < storage.size(); p++) {
      storage.setXAt(p, (float) random.nextDouble());
    }
  }

  /** A storage of 150k Positions in a registry of its own. */
  static Position_Storage positions() {
    final Registry registry = new Registry();
    final Position_Storage storage = registry.storage(Position_Traits.TYPE);
    for (int i = 0; i < Work.SORT_ENTITIES; i++) {
      storage.emplace(registry.create(), 0f, 0f);
    }
    return storage;
  }

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Position_Storage storage;
    PositionComparator byX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Position_Storage s = storage = positions();
        byX = (a, b) -> Float.compare(s.xAt(a), s.xAt(b));
      }
      shuffle(storage, ++seed);
    }
  }

  /**
   * {@code sortByPosition} on the generated storage, comparing the {@code float} x field by
   * position.
   */
  @Benchmark
  public Position_Storage phalanx(final PhalanxState s) {
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
