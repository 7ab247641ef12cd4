package dev.phalanx.benchmarks.worlds;

import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Where a world's entity count comes from: the benchmark's operations per invocation. Every
 * workload measures one operation per entity, so JMH's score is already per entity, and the count
 * can be changed per run with JMH's {@code -opi} option (run.sh does so for 10k and 10M). A
 * {@code @Param} could not feed {@code @OperationsPerInvocation}, which must be a constant.
 */
public final class Sizes {

  private Sizes() {}

  /** Returns the entity count of a benchmark: its operations per invocation. */
  public static int entities(final BenchmarkParams params) {
    return params.getOpsPerInvocation();
  }
}
