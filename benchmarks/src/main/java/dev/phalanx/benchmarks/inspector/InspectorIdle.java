package dev.phalanx.benchmarks.inspector;

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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What an attached, idle inspector adds to a frame, in nanoseconds. Attaching registers no listener
 * on the registry and the HTTP threads never touch the world, so the whole per-frame cost on the
 * game thread is one {@link Inspector#serve()} that finds both of its queues empty; this measures
 * that call, on the example's world ({@value dev.phalanx.benchmarks.schedule.ExampleFrame#ROOTS}
 * roots) with its schedule attached. Run it in the same invocation as {@code schedule.ExampleFrame}
 * ({@code form=schedule}): the ratio of the two is the idle overhead per frame (the target: at most
 * 1%). {@code ExampleFrame}'s {@code inspected} form measures the same thing as a whole frame,
 * where the frame's own run-to-run spread (several percent) hides it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class InspectorIdle {

  /** The example's world with an inspector attached and no client. */
  @State(Scope.Benchmark)
  public static class Attached {
    World world;
    Inspector inspector;

    @Setup(Level.Trial)
    public void setup() throws IOException {
      world = new World(dev.phalanx.benchmarks.schedule.ExampleFrame.ROOTS, 42, 1, 1024);
      inspector =
          Inspector.builder(world.registry())
              .schedule(world.schedule())
              .port(0)
              .announce(line -> {})
              .start();
      for (int frame = 0; frame < 10; frame++) {
        world.step();
        inspector.serve();
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      inspector.close();
      world.close();
    }
  }

  /** One idle {@code serve()}: the inspector's share of a frame when nobody is looking. */
  @Benchmark
  public int serve(final Attached attached) {
    return attached.inspector.serve();
  }
}
