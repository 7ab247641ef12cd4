package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
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
 * EnTT's sort benchmarks over 150k entities, by their Position's x, in place. Fixed size: {@code
 * -opi} does not apply.
 *
 * <ul>
 *   <li>{@code phalanx}: Phalanx sorts the generated struct-of-arrays storage with {@code
 *       sortByPosition}, comparing {@code xAt}; the x values are shuffled again before each shot.
 *   <li>{@code objects}: the baseline, an array of the same objects sorted with {@link
 *       Arrays#sort(Object[], Comparator)}.
 *   <li>{@code as}: one pool as another (EnTT's sort "as"): 150k entities with a Position and a
 *       Velocity; before each shot the Position storage gets new random x values and is sorted by x
 *       (outside the measured time); the shot arranges the Velocity storage in the Position
 *       storage's order ({@code velocities.sortAs(positions)}).
 *   <li>{@code insertion}: almost-sorted data with insertion sort (EnTT's sort with its
 *       insertion-sort algorithm): the Positions sorted by x, then before each shot 1 in 100
 *       elements gets a new random x (outside the measured time); the shot sorts again with {@code
 *       insertionSortByPosition}.
 * </ul>
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

  /** {@return a comparator of the x values of {@code storage}, by position} */
  static PositionComparator byX(final Position_Storage storage) {
    return (a, b) -> Float.compare(storage.xAt(a), storage.xAt(b));
  }

  @State(Scope.Benchmark)
  public static class PhalanxState {
    Position_Storage storage;
    PositionComparator byX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        storage = positions();
        byX = byX(storage);
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

  /** Positions sorted by new random x before each shot, and Velocities to arrange as they are. */
  @State(Scope.Benchmark)
  public static class AsState {
    Position_Storage positions;
    Velocity_Storage velocities;
    PositionComparator byX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == positions) {
        final Position_Storage p = positions = positions();
        velocities = p.registry().storage(Velocity_Traits.TYPE);
        final long[] packed = p.packed();
        for (int i = 0; i < p.size(); i++) {
          velocities.emplace(packed[i], Work.v(i), Work.v(i));
        }
        byX = byX(p);
      }
      shuffle(positions, ++seed);
      positions.sortByPosition(byX);
    }
  }

  @Benchmark
  public Velocity_Storage as(final AsState s) {
    s.velocities.sortAs(s.positions);
    return s.velocities;
  }

  /** Positions in order but for 1 in 100, moved a little out of place before each shot. */
  @State(Scope.Benchmark)
  public static class AlmostState {
    Position_Storage storage;
    PositionComparator byX;
    SplittableRandom random;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Position_Storage s = storage = positions();
        for (int p = 0; p < s.size(); p++) {
          s.setXAt(p, p);
        }
        byX = byX(s);
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
  public Position_Storage insertion(final AlmostState s) {
    s.storage.insertionSortByPosition(s.byX);
    return s.storage;
  }
}
