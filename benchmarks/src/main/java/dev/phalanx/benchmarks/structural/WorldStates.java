package dev.phalanx.benchmarks.structural;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.worlds.Sizes;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The JMH states of the structural benchmarks that change a world of n entities with a Position and
 * a Velocity ({@link Worlds2}: destroy, remove one or two components, add + remove, clear a pool):
 * each keeps one world per trial and readies it before every shot ({@code ready()}: recreate what
 * was destroyed, give back what was removed), outside the measured time.
 */
public final class WorldStates {

  private WorldStates() {}

  /** Phalanx's world, for the Phalanx-only rows. */
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

  /**
   * The world of the {@code lib} parameter's library and the shot a workload runs on it, resolved
   * at the first set-up (see {@link Folded}); the measured method is one {@code shot.run()}. A
   * workload subclasses it with one method per library returning its shot.
   */
  @State(Scope.Benchmark)
  public abstract static class Shot {
    @Param({"phalanx", "artemis", "dominion", "ashley"})
    public String lib;

    Runnable shot;
    private Runnable ready;
    private Runnable close = () -> {};

    @Setup(Level.Iteration)
    public void setup(final BenchmarkParams params) {
      if (null != shot) {
        if (changesWorld()) {
          ready.run();
        }
        return;
      }
      Folded.checkForked(params);
      final int n = Sizes.entities(params);
      switch (lib) {
        case "phalanx" -> shot = phalanx(readied(new Worlds2.Phalanx(n)));
        case "artemis" -> shot = artemis(readied(new Worlds2.Artemis(n)));
        case "dominion" -> {
          final Worlds2.Dominion2 w = readied(new Worlds2.Dominion2(n));
          close = w.dominion::close;
          shot = dominion(w);
        }
        case "ashley" -> shot = ashley(readied(new Worlds2.Ashley(n)));
        default -> throw new IllegalArgumentException("unknown lib " + lib);
      }
    }

    /** {@return {@code w}, which is readied before each shot from now on} */
    private <W extends Worlds2.Ready> W readied(final W w) {
      ready = w::ready;
      return w;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      close.run();
    }

    /** {@return whether a shot changes the world, which is then readied before the next one} */
    boolean changesWorld() {
      return true;
    }

    abstract Runnable phalanx(Worlds2.Phalanx w);

    abstract Runnable artemis(Worlds2.Artemis w);

    abstract Runnable dominion(Worlds2.Dominion2 w);

    abstract Runnable ashley(Worlds2.Ashley w);
  }
}
