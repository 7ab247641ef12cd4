package dev.phalanx.benchmarks.relation;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.components.Follows;
import dev.phalanx.benchmarks.components.Follows_Traits;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.OnTargetDestroyed;
import dev.phalanx.ecs.relation.Pairs;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a non-exclusive relationship costs, in ns per pair: {@code addRemove} gives each of {@value
 * #SOURCES} sources {@value #PER_SOURCE} pairs (spread over {@value #TARGETS} targets) and removes
 * them again, the first and last pair of each source adding and removing its tag; {@code
 * sourcesOfTarget} walks the sources of every target of a world holding those pairs (O(result), no
 * allocation); {@code hasPair} asks for one pair per source.
 */
public class PairChurn extends IterationBenchmark {

  static final int SOURCES = 4_096;
  static final int TARGETS = 64;
  static final int PER_SOURCE = 4;
  static final int PAIRS = SOURCES * PER_SOURCE;

  /** Sources and targets; {@code full} holds every pair, {@code empty} none. */
  @State(Scope.Benchmark)
  public static class World {
    final Registry registry = new Registry();
    final Registry other = new Registry();
    Pairs<Follows> empty;
    Pairs<Follows> full;
    long[] sources;
    long[] targets;

    @Setup(Level.Trial)
    public void setup() {
      empty = Pairs.declare(registry, Follows_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
      full = Pairs.declare(other, Follows_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
      sources = new long[SOURCES];
      targets = new long[TARGETS];
      registry.create(sources, 0, SOURCES);
      registry.create(targets, 0, TARGETS);
      final long[] otherSources = new long[SOURCES];
      final long[] otherTargets = new long[TARGETS];
      other.create(otherSources, 0, SOURCES);
      other.create(otherTargets, 0, TARGETS);
      for (int i = 0; i < SOURCES; i++) {
        for (int k = 0; k < PER_SOURCE; k++) {
          full.add(otherSources[i], otherTargets[(i + k * 17) & (TARGETS - 1)]);
        }
      }
      // Same handles in both registries: the queries below read the full one.
      System.arraycopy(otherTargets, 0, targets, 0, TARGETS);
      System.arraycopy(otherSources, 0, sources, 0, SOURCES);
    }
  }

  @Benchmark
  @OperationsPerInvocation(PAIRS)
  public int addRemove(final World world) {
    final Pairs<Follows> pairs = world.empty;
    final long[] sources = world.sources;
    final long[] targets = world.targets;
    for (int i = 0; i < SOURCES; i++) {
      for (int k = 0; k < PER_SOURCE; k++) {
        pairs.add(sources[i], targets[(i + k * 17) & (TARGETS - 1)]);
      }
    }
    final int size = pairs.size();
    for (int i = 0; i < SOURCES; i++) {
      for (int k = 0; k < PER_SOURCE; k++) {
        pairs.remove(sources[i], targets[(i + k * 17) & (TARGETS - 1)]);
      }
    }
    return size;
  }

  @Benchmark
  @OperationsPerInvocation(PAIRS)
  public long sourcesOfTarget(final World world) {
    final Pairs<Follows> pairs = world.full;
    long sum = 0;
    for (final long target : world.targets) {
      for (int p = pairs.firstSource(target); Pairs.NONE != p; p = pairs.nextSource(p)) {
        sum += pairs.source(p);
      }
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(SOURCES)
  public int hasPair(final World world) {
    final Pairs<Follows> pairs = world.full;
    final long[] sources = world.sources;
    final long[] targets = world.targets;
    int found = 0;
    for (int i = 0; i < SOURCES; i++) {
      if (pairs.has(sources[i], targets[(i * 31) & (TARGETS - 1)])) {
        found++;
      }
    }
    return found;
  }
}
