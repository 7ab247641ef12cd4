package dev.phalanx.benchmarks.schedule;

import dev.phalanx.examples.particles.World;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A frame of the particle example ({@value #ROOTS} roots, two threads, the README's seed), in
 * microseconds: {@code schedule} runs it through the example's {@link World#schedule() schedule}
 * (five systems, timed, storages locked while the value systems run), {@code hand} calls the same
 * five systems one after the other ({@link World#stepWithoutSchedule()}), the hand-written loop the
 * schedule replaced. The world keeps its size (each root that dies is replaced), so every frame
 * does the same kind of work. Issue 31's target: {@code schedule} within 1.05 times {@code hand}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ExampleFrame {

  static final int ROOTS = 200_000;

  /** The particle world. */
  @State(Scope.Benchmark)
  public static class Particles {
    @Param({"schedule", "hand"})
    public String form;

    World world;
    Runnable step;

    @Setup(Level.Trial)
    public void setup() {
      world = new World(ROOTS, 42, 2, 1024);
      final World own = world;
      step = "hand".equals(form) ? own::stepWithoutSchedule : own::step;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      world.close();
    }
  }

  @Benchmark
  public void frame(final Particles particles) {
    particles.step.run();
  }
}
