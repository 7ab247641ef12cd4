package dev.phalanx.benchmarks.relation;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.components.Lock;
import dev.phalanx.benchmarks.components.Lock_Storage;
import dev.phalanx.benchmarks.components.Lock_Traits;
import dev.phalanx.benchmarks.components.PlainLock_Storage;
import dev.phalanx.benchmarks.components.PlainLock_Traits;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.Relation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a relationship costs against a plain component of the same fields, in ns per entity: {@code
 * relationship} adds a {@link Lock} to {@value #SOURCES} entities (spread over {@value #TARGETS}
 * targets) and removes it again; {@code plain} does the same with {@code PlainLock} (target: the
 * relationship at most 1.5x the plain component). {@code destroyTarget} links {@code sources} new
 * sources to a fresh target and destroys it (the relationship removed from each), next to {@code
 * background} relationships to other targets: its time per source stays flat as {@code background}
 * grows (no scan of the kind's storage).
 */
public class RelationshipChurn extends IterationBenchmark {

  static final int SOURCES = 4_096;
  static final int TARGETS = 64;

  /** Sources and targets, both storages created. */
  @State(Scope.Benchmark)
  public static class Churn {
    final Registry registry = new Registry();
    Lock_Storage locks;
    PlainLock_Storage plain;
    long[] sources;
    long[] targets;

    @Setup(Level.Trial)
    public void setup() {
      locks = registry.storage(Lock_Traits.TYPE);
      plain = registry.storage(PlainLock_Traits.TYPE);
      sources = new long[SOURCES];
      targets = new long[TARGETS];
      registry.create(sources, 0, SOURCES);
      registry.create(targets, 0, TARGETS);
    }
  }

  @Benchmark
  @OperationsPerInvocation(SOURCES)
  public int relationship(final Churn churn) {
    final Lock_Storage locks = churn.locks;
    final long[] sources = churn.sources;
    final long[] targets = churn.targets;
    for (int i = 0; i < SOURCES; i++) {
      locks.emplace(sources[i], targets[i & (TARGETS - 1)], i);
    }
    final int size = locks.size();
    for (int i = 0; i < SOURCES; i++) {
      locks.remove(sources[i]);
    }
    return size;
  }

  @Benchmark
  @OperationsPerInvocation(SOURCES)
  public int plain(final Churn churn) {
    final PlainLock_Storage plain = churn.plain;
    final long[] sources = churn.sources;
    final long[] targets = churn.targets;
    for (int i = 0; i < SOURCES; i++) {
      plain.emplace(sources[i], targets[i & (TARGETS - 1)], i);
    }
    final int size = plain.size();
    for (int i = 0; i < SOURCES; i++) {
      plain.remove(sources[i]);
    }
    return size;
  }

  /**
   * A fresh target's sources, next to {@code background} relationships to other targets. The figure
   * is per source: {@code sources} stays at 1,000, the operations per invocation.
   */
  @State(Scope.Benchmark)
  public static class Targets {
    @Param({"1000"})
    int sources;

    @Param({"0", "100000"})
    int background;

    final Registry registry = new Registry();
    Lock_Storage locks;
    Relation<Lock> relation;
    long[] linked;

    @Setup(Level.Trial)
    public void setup() {
      locks = registry.storage(Lock_Traits.TYPE);
      relation = Relation.of(registry, Lock_Traits.TYPE);
      final long[] others = new long[background];
      registry.create(others, 0, background);
      final long[] owners = new long[64];
      registry.create(owners, 0, owners.length);
      for (int i = 0; i < background; i++) {
        locks.emplace(others[i], owners[i & 63], i);
      }
      linked = new long[sources];
      registry.create(linked, 0, sources);
    }
  }

  @Benchmark
  @OperationsPerInvocation(1000)
  public int destroyTarget(final Targets state) {
    final long target = state.registry.create();
    state.locks.insert(state.linked, 0, state.sources, target, 1);
    final int count = state.relation.sourceCount(target);
    state.registry.destroy(target);
    return count;
  }
}
