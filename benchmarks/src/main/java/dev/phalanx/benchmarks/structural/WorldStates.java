package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The JMH states of the structural benchmarks that change a world of n entities with a Position and
 * a Velocity (destroy, remove one or two components, clear a pool): each keeps one world per trial
 * and readies it before every shot ({@code ready()}: recreate what was destroyed, give back what
 * was removed), outside the measured time.
 */
public final class WorldStates {

  private WorldStates() {}

  /** Phalanx's world. */
  @State(Scope.Benchmark)
  public static class PhalanxState {
    Worlds2.Phalanx w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Phalanx(Sizes.entities(params));
      } else {
        w.ready();
      }
    }
  }

  /** artemis-odb's world. */
  @State(Scope.Benchmark)
  public static class ArtemisState {
    Worlds2.Artemis w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Artemis(Sizes.entities(params));
      } else {
        w.ready();
      }
    }
  }

  /** Dominion's world, closed at the end of the trial. */
  @State(Scope.Benchmark)
  public static class DominionState {
    Worlds2.Dominion2 w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Dominion2(Sizes.entities(params));
      } else {
        w.ready();
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      w.dominion.close();
    }
  }

  /** Ashley's world. */
  @State(Scope.Benchmark)
  public static class AshleyState {
    Worlds2.Ashley w;

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null == w) {
        w = new Worlds2.Ashley(Sizes.entities(params));
      } else {
        w.ready();
      }
    }
  }
}
