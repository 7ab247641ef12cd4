package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EntityComparator;
import dev.phalanx.ecs.EntityFloatKey;
import dev.phalanx.ecs.NonOwningGroup;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.PositionComparator;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sort 150k entities by their Position's x, through a group: a non-owning group sorted by a float
 * key computed once per member ({@code sortByFloatKey}, keys read by entity), next to an owning
 * group of the same storage sorted with {@code sortByPosition} (the comparator reads the owned
 * array by position), and the non-owning group's comparator sort (a lookup per comparison), in one
 * run. The x values are shuffled again before each shot. Fixed size.
 */
@OperationsPerInvocation(Work.SORT_ENTITIES)
public class KeySort extends StructuralBenchmark {

  /** A non-owning group over {@link Sort#positions}'s 150k Positions. */
  static NonOwningGroup nonOwningGroup(final Position_Storage storage) {
    return storage
        .registry()
        .nonOwningGroup(
            new ComponentType<?, ?>[] {Position_Traits.TYPE}, new ComponentType<?, ?>[0]);
  }

  /** A non-owning group over Position: only its member set moves. */
  @State(Scope.Benchmark)
  public static class NonOwning {
    Position_Storage storage;
    NonOwningGroup group;
    EntityFloatKey byX;
    EntityComparator compareX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Position_Storage s = storage = Sort.positions();
        group = nonOwningGroup(s);
        byX = s::x;
        compareX = (a, b) -> Float.compare(s.x(a), s.x(b));
      }
      Sort.shuffle(storage, ++seed);
    }
  }

  /** A full-owning group of Position: the storage itself moves. */
  @State(Scope.Benchmark)
  public static class Owning {
    Position_Storage storage;
    OwningGroup group;
    PositionComparator byX;
    long seed;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Position_Storage s = storage = Sort.positions();
        group = s.registry().owningGroup(Position_Traits.TYPE);
        byX = (a, b) -> Float.compare(s.xAt(a), s.xAt(b));
      }
      Sort.shuffle(storage, ++seed);
    }
  }

  /** A non-owning group, float key per member: n key calls, radix passes, n swaps at most. */
  @Benchmark
  public NonOwningGroup nonOwningSortByFloatKey(final NonOwning s) {
    s.group.sortByFloatKey(s.byX);
    return s.group;
  }

  /** The same group with a comparator: two lookups per comparison. */
  @Benchmark
  public NonOwningGroup nonOwningSortComparator(final NonOwning s) {
    s.group.sort(s.compareX);
    return s.group;
  }

  /** An owning group, {@code sortByPosition}: the baseline of the target (within 1.5x). */
  @Benchmark
  public OwningGroup owningSortByPosition(final Owning s) {
    s.group.sortByPosition(s.byX);
    return s.group;
  }

  /** Almost sorted: 1 in 100 members gets a new key, then an insertion sort by key. */
  @State(Scope.Benchmark)
  public static class Almost {
    Position_Storage storage;
    NonOwningGroup group;
    EntityFloatKey byX;
    SplittableRandom random;

    @Setup(Level.Iteration)
    public void setup() {
      if (null == storage) {
        final Position_Storage s = storage = Sort.positions();
        group = nonOwningGroup(s);
        byX = s::x;
        random = new SplittableRandom(42);
      }
      for (int p = 0; p < group.size(); p++) {
        storage.setX(group.entityAt(p), p);
      }
      for (int p = 0; p < group.size(); p += 100) {
        storage.setX(group.entityAt(p), p + random.nextInt(-50, 50) + 0.5f);
      }
    }
  }

  /** Almost sorted members, {@code insertionSortByFloatKey}. */
  @Benchmark
  public NonOwningGroup nonOwningInsertionSortByFloatKey(final Almost s) {
    s.group.insertionSortByFloatKey(s.byX);
    return s.group;
  }
}
