package dev.phalanx.benchmarks.schedule;

import dev.phalanx.ecs.inspector.Inspector;
import dev.phalanx.examples.particles.World;
import java.io.IOException;
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
 * A frame of the particle example ({@value #ROOTS} roots, the README's seed), in microseconds:
 * {@code schedule} runs it through the example's {@link World#schedule() schedule} (six systems,
 * timed, storages locked while the value systems run; with two threads, aging beside follow),
 * {@code hand} calls the same systems one after the other ({@link World#stepWithoutSchedule()}),
 * the hand-written loop the schedule replaced; {@code inspected} runs the scheduled frame with the
 * live inspector attached and idle ({@link Inspector#serve()} once a frame, no client). The world
 * keeps its size (each root that dies is replaced), so every frame does the same kind of work.
 * Targets: {@code schedule} within 1.05 times {@code hand}, {@code inspected} within 1.01 times
 * {@code schedule}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ExampleFrame {

  /** Roots of the example world measured. */
  public static final int ROOTS = 200_000;

  /** The particle world. */
  @State(Scope.Benchmark)
  public static class Particles {
    @Param({"schedule", "hand", "inspected"})
    public String form;

    /**
     * Threads of the example's movement and lifetime passes (1: no pool). Target: the scheduled
     * frame on 2 threads at most 0.65 times the same frame on 1.
     */
    @Param({"2", "1"})
    public int threads;

    World world;
    Inspector inspector;
    Runnable step;

    @Setup(Level.Trial)
    public void setup() throws IOException {
      world = new World(ROOTS, 42, threads, 1024);
      final World own = world;
      switch (form) {
        case "hand" -> step = own::stepWithoutSchedule;
        case "inspected" -> {
          final Inspector idle =
              Inspector.builder(own.registry())
                  .schedule(own.schedule())
                  .port(0)
                  .announce(line -> {})
                  .start();
          inspector = idle;
          step =
              () -> {
                own.step();
                idle.serve();
              };
        }
        default -> step = own::step;
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      if (null != inspector) {
        inspector.close();
      }
      world.close();
    }
  }

  @Benchmark
  public void frame(final Particles particles) {
    particles.step.run();
  }
}
