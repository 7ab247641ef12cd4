package dev.phalanx.benchmarks.relation;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.components.Heat_Storage;
import dev.phalanx.benchmarks.components.Heat_Traits;
import dev.phalanx.benchmarks.components.Lock;
import dev.phalanx.benchmarks.components.Lock_Storage;
import dev.phalanx.benchmarks.components.Lock_Traits;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Cascade;
import dev.phalanx.ecs.relation.Relation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Propagating a value down a relationship forest, in ns per entity, over {@value #ENTITIES}
 * entities in chains {@value #DEPTH} deep: {@code propagate} orders the sources breadth first
 * ({@code Relation.breadthFirst}) and gives each the value of its target plus one, a lookup of the
 * target and of its value per source; {@code flat} adds one to every value in a chunk pass over the
 * same storage, the floor (target: propagation at most 2x {@code flat}); {@code cascade} propagates
 * through a {@link Cascade}'s runs.
 */
@OperationsPerInvocation(Propagation.ENTITIES)
public class Propagation extends IterationBenchmark {

  static final int ENTITIES = 1 << 20;
  static final int DEPTH = 8;

  /** The forest: every entity has a {@code Heat}, all but the chains' roots a {@link Lock}. */
  @State(Scope.Benchmark)
  public static class Forest {
    final Registry registry = new Registry();
    Heat_Storage heat;
    Lock_Storage locks;
    Relation<Lock> relation;
    long[] order;
    Cascade cascade;

    @Setup(Level.Trial)
    public void setup() {
      heat = registry.storage(Heat_Traits.TYPE);
      locks = registry.storage(Lock_Traits.TYPE);
      relation = Relation.of(registry, Lock_Traits.TYPE);
      final long[] entities = new long[ENTITIES];
      registry.create(entities, 0, ENTITIES);
      for (int i = 0; i < ENTITIES; i++) {
        heat.emplace(entities[i], 0f);
        if (0 != i % DEPTH) {
          locks.emplace(entities[i], entities[i - 1], i);
        }
      }
      order = new long[relation.size()];
      cascade = Cascade.of(relation, heat); // arranged by its first pass, in the warm-up
    }
  }

  @Benchmark
  public float propagate(final Forest forest) {
    final Heat_Storage heat = forest.heat;
    final Relation<Lock> relation = forest.relation;
    final long[] order = forest.order;
    final int count = relation.breadthFirst(order);
    for (int i = 0; i < count; i++) {
      final long source = order[i];
      heat.setValue(source, heat.value(relation.target(source)) + 1f);
    }
    return heat.value(order[count - 1]);
  }

  /**
   * The same propagation through a {@link Cascade}: the heat storage arranged breadth first once
   * (by the first pass, in the warm-up), then runs whose targets are one element or a run of the
   * same length, each a loop over two page arrays.
   */
  @Benchmark
  public float cascade(final Forest forest) {
    final float[][] pages = forest.heat.valuePages();
    final int shift = forest.heat.pageShift();
    final int mask = forest.heat.pageSize() - 1;
    forest.cascade.each(
        (from, to, parentFrom, oneParent) -> {
          final float[] page = pages[from >>> shift];
          final float[] parents = pages[parentFrom >>> shift];
          final int start = from & mask;
          final int end = start + (to - from);
          final int parent = parentFrom & mask;
          if (oneParent) {
            final float value = parents[parent] + 1f;
            for (int i = start; i < end; i++) {
              page[i] = value;
            }
          } else {
            final int shiftToParent = parent - start;
            for (int i = start; i < end; i++) {
              page[i] = parents[i + shiftToParent] + 1f;
            }
          }
        });
    return pages[0][0];
  }

  @Benchmark
  public float flat(final Forest forest) {
    final float[][] pages = forest.heat.valuePages();
    final int size = forest.heat.size();
    final int pageSize = forest.heat.pageSize();
    for (int start = 0; start < size; start += pageSize) {
      final float[] page = pages[start / pageSize];
      final int end = Math.min(pageSize, size - start);
      for (int i = 0; i < end; i++) {
        page[i] += 1f;
      }
    }
    return pages[0][0];
  }
}
