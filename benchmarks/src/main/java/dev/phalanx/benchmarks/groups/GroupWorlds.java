package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.worlds.PartialWorlds;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Builds the world a folded group benchmark's parameter asks for, in its {@code @Setup}: only that
 * world is built in the fork (the unfolded classes took it as a JMH state).
 */
final class GroupWorlds {

  private GroupWorlds() {}

  /** Returns {@code w} set up with the benchmark's entity count. */
  static <W extends PhalanxWorld> W built(final W w, final BenchmarkParams params) {
    w.setup(params);
    return w;
  }

  /** Returns {@code w} set up with the benchmark's entity count. */
  static <W extends PartialWorlds.OwnsPosition> W built(final W w, final BenchmarkParams params) {
    w.setup(params);
    return w;
  }
}
