package dev.phalanx.benchmarks.schedule;

import com.artemis.BaseSystem;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import dev.phalanx.ecs.schedule.SystemBody;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a frame loop costs per system: {@value #SYSTEMS} empty systems run once per frame, in ns per
 * system. {@code phalanx} runs them through a {@link Schedule} on the calling thread (one stage;
 * the systems declare no access, so they form one wave and nothing is locked; each run is timed,
 * one clock read a system); {@code phalanxUntimed} the same with per-system timing off; {@code
 * artemis} through artemis-odb's {@code World.process()} with the same number of empty {@link
 * BaseSystem}s; {@code loop} calls the same bodies from an array, the floor a hand-written frame
 * loop has (one megamorphic call per system, as in the schedule).
 */
@OperationsPerInvocation(ScheduleOverhead.SYSTEMS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ScheduleOverhead extends IterationBenchmark {

  static final int SYSTEMS = 16;

  /** The three frame loops, each over {@value #SYSTEMS} empty systems. */
  @State(Scope.Benchmark)
  public static class Loops {
    Schedule schedule;
    Schedule untimed;
    World artemis;
    SystemBody[] bodies;

    @Setup(Level.Trial)
    public void setup() {
      bodies = EmptySystems.bodies();
      schedule = schedule(true);
      untimed = schedule(false);
      artemis = new World(new WorldConfigurationBuilder().with(EmptySystems.artemis()).build());
    }

    private Schedule schedule(final boolean timed) {
      final ScheduleBuilder plan = Schedule.builder(new Registry()).timeSystems(timed);
      for (int s = 0; s < SYSTEMS; s++) {
        plan.system("empty" + s, bodies[s]);
      }
      return plan.build();
    }
  }

  @Benchmark
  public void phalanx(final Loops loops) {
    loops.schedule.run();
  }

  @Benchmark
  public void phalanxUntimed(final Loops loops) {
    loops.untimed.run();
  }

  @Benchmark
  public void artemis(final Loops loops) {
    loops.artemis.process();
  }

  @Benchmark
  public void loop(final Loops loops) {
    final SystemBody[] bodies = loops.bodies;
    for (final SystemBody body : bodies) {
      body.run(null);
    }
  }
}
