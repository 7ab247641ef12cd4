package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Work;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Destroy the entities of {@link Destroy}'s world with the batch form, {@code
 * registry.destroy(batch, from, to)}: every entity checked first, then (no listener, group or
 * iteration) removed storage by storage. Compare with artemis-odb's row in {@link Destroy}, which
 * also applies its deletions in bulk.
 */
@OperationsPerInvocation(Work.ENTITIES)
public class DestroyBatch extends StructuralBenchmark {

  @Benchmark
  public void phalanx(final WorldStates.PhalanxState s) {
    s.w.registry.destroy(s.w.entities, 0, s.w.entities.length);
  }
}
