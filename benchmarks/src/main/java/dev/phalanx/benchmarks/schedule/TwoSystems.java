package dev.phalanx.benchmarks.schedule;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Age_Storage;
import dev.phalanx.benchmarks.components.Age_Traits;
import dev.phalanx.benchmarks.components.Heat_Storage;
import dev.phalanx.benchmarks.components.Heat_Traits;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import java.util.concurrent.ForkJoinPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Two independent systems, each a chunk pass over {@value #ENTITIES} entities of its own owning
 * group (Position, Velocity; Heat, Age), run by a {@link Schedule} once per frame; ns per entity
 * per pass. Forms:
 *
 * <ul>
 *   <li>{@code sequential}: no executor, the two systems one after the other;
 *   <li>{@code waves}: an executor of two threads; the systems share a wave, one runs on the caller
 *       and one on the pool;
 *   <li>{@code split}: no executor; each system splits its own pass over the pool of two threads
 *       ({@code parallelEachChunk}), the other way a system uses both cores;
 *   <li>{@code readers} and {@code readersSequential}: two systems that only read one group
 *       (Position, Velocity), each summing its own product of the two, sharing a wave on the pool
 *       of two threads, or one after the other without an executor.
 * </ul>
 *
 * <p>The targets: {@code waves} at most 0.6 times {@code sequential}, and {@code readers} at most
 * 0.6 times {@code readersSequential}, on two cores.
 */
@OperationsPerInvocation(2 * TwoSystems.ENTITIES)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class TwoSystems extends IterationBenchmark {

  static final int ENTITIES = 1_000_000;

  /** The world, its two groups and the schedule of the chosen form. */
  @State(Scope.Benchmark)
  public static class Frame {
    @Param({"sequential", "waves", "split", "readers", "readersSequential"})
    public String form;

    ForkJoinPool pool;
    Schedule schedule;

    @Setup(Level.Trial)
    public void setup() {
      final Registry registry = new Registry();
      final FullOwning2Query moving = FullOwning2Query.of(registry);
      final HeatAgeQuery warming = HeatAgeQuery.of(registry);
      final Position_Storage positions = registry.storage(Position_Traits.TYPE);
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      final Heat_Storage heats = registry.storage(Heat_Traits.TYPE);
      final Age_Storage ages = registry.storage(Age_Traits.TYPE);
      for (int i = 0; i < ENTITIES; i++) {
        final long e = registry.create();
        positions.emplace(e, Work.x(i), Work.x(i));
        velocities.emplace(e, Work.v(i), Work.v(i));
        heats.emplace(e, 0f);
        ages.emplace(e, Work.v(i));
      }
      pool = new ForkJoinPool(2);
      final ForkJoinPool own = pool;
      final ScheduleBuilder plan = Schedule.builder(registry);
      if (form.startsWith("readers")) {
        plan.system("momentum", context -> moving.eachChunk(momentum))
            .reads(Position_Traits.TYPE)
            .reads(Velocity_Traits.TYPE)
            .iterates(Position_Traits.TYPE)
            .iterates(Velocity_Traits.TYPE);
        // A query object keeps the body of its pass: each system of a wave needs its own.
        final FullOwning2Query reading = FullOwning2Query.of(registry);
        plan.system("energy", context -> reading.eachChunk(energy))
            .reads(Position_Traits.TYPE)
            .reads(Velocity_Traits.TYPE)
            .iterates(Position_Traits.TYPE)
            .iterates(Velocity_Traits.TYPE);
      } else if ("split".equals(form)) {
        plan.system("move", context -> moving.parallelEachChunk(own, MOVE)).uses(moving);
        plan.system("warm", context -> warming.parallelEachChunk(own, WARM)).uses(warming);
      } else {
        plan.system("move", context -> moving.eachChunk(MOVE)).uses(moving);
        plan.system("warm", context -> warming.eachChunk(WARM)).uses(warming);
      }
      if ("waves".equals(form) || "readers".equals(form)) {
        plan.executor(pool);
      }
      schedule = plan.build();
      if (1 != schedule.waves(Schedule.UPDATE).size()) {
        throw new IllegalStateException("the two systems must share a wave: " + schedule);
      }
    }

    /** What each reading system summed last, so that the JIT keeps the reads. */
    final double[] sums = new double[2];

    /** Sums x * dx + y * dy: reads both storages, writes neither. */
    final FullOwning2Query.Chunk momentum =
        (from, to, px, py, vx, vy) -> {
          double sum = 0;
          for (int i = from; i < to; i++) {
            sum += px[i] * vx[i] + py[i] * vy[i];
          }
          sums[0] += sum;
        };

    /** Sums dx * dx + dy * dy: the same reads, another product. */
    final FullOwning2Query.Chunk energy =
        (from, to, px, py, vx, vy) -> {
          double sum = 0;
          for (int i = from; i < to; i++) {
            sum += vx[i] * vx[i] + vy[i] * vy[i];
          }
          sums[1] += sum;
        };

    @TearDown(Level.Trial)
    public void tearDown() {
      pool.shutdown();
    }
  }

  /** iterate2: position += velocity * dt, vectorized by the JIT. */
  static final FullOwning2Query.Chunk MOVE = Work::chunk2;

  /** heat += age * dt, vectorized by the JIT. */
  static final HeatAgeQuery.Chunk WARM =
      (from, to, heat, age) -> {
        for (int i = from; i < to; i++) {
          heat[i] += age[i] * Work.DT;
        }
      };

  @Benchmark
  public void frame(final Frame frame) {
    frame.schedule.run();
  }
}
