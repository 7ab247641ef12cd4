package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.OwnsPosition_Of3Query;
import dev.phalanx.benchmarks.queries.OwnsPosition_Position_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Position_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Scale_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Scale_Traits;
import dev.phalanx.benchmarks.queries.OwnsPosition_Velocity_Storage;
import dev.phalanx.benchmarks.queries.OwnsPosition_Velocity_Traits;
import dev.phalanx.benchmarks.worlds.Churn;
import dev.phalanx.ecs.Registry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * EnTT's pathological case, partial-owning group (owns Position, gets Velocity and Scale): 500k
 * entities with Position, Velocity and Scale; ten rounds of removing one component from every 7th,
 * 11th and 13th entity and destroying every 17th, then adding 50k full entities, with the group
 * created first and kept up to date through the churn; then iterate3 once over what is left ({@code
 * OwnsPosition_Of3Query.each}). Time is per initial entity (500k), so the row compares with
 * iterate3. The fixed size ignores {@code -opi}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.PATHOLOGICAL_ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class PathologicalPartialOwningGroup {

  @State(Scope.Benchmark)
  public static class World {
    OwnsPosition_Of3Query query;
    OwnsPosition_Of3Query.Visitor body;

    @Setup(Level.Trial)
    public void setup() {
      final Registry registry = new Registry();
      final OwnsPosition_Position_Storage positions =
          registry.storage(OwnsPosition_Position_Traits.TYPE);
      final OwnsPosition_Velocity_Storage velocities =
          registry.storage(OwnsPosition_Velocity_Traits.TYPE);
      final OwnsPosition_Scale_Storage scales = registry.storage(OwnsPosition_Scale_Traits.TYPE);
      query = OwnsPosition_Of3Query.of(registry);
      Churn.run(
          registry,
          (e, i) -> {
            positions.emplace(e, Work.x(i), Work.x(i));
            velocities.emplace(e, Work.v(i), Work.v(i));
            scales.emplace(e, 1f);
          },
          OwnsPosition_Position_Traits.TYPE,
          OwnsPosition_Velocity_Traits.TYPE,
          OwnsPosition_Scale_Traits.TYPE);
      body =
          (e, p, v, s) -> {
            final float f = s.s() * Work.DT;
            p.setX(p.x() + v.x() * f);
            p.setY(p.y() + v.y() * f);
          };
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.query.each(w.body);
  }
}
