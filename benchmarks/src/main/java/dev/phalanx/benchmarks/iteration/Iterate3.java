package dev.phalanx.benchmarks.iteration;

import dev.dominion.ecs.api.Results;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Cursor;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Scale_Cursor;
import dev.phalanx.benchmarks.components.Scale_Traits;
import dev.phalanx.benchmarks.components.Velocity_Cursor;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.model.Scale;
import dev.phalanx.benchmarks.model.Velocity;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyWorld;
import dev.phalanx.benchmarks.peers.dominion.DominionWorld;
import dev.phalanx.benchmarks.queries.View3Query;
import dev.phalanx.benchmarks.worlds.FloatArrays;
import dev.phalanx.benchmarks.worlds.ObjectArrays;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.ecs.View3;
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
 * iterate3: {@code position += velocity * DT * scale} over the entities with Position, Velocity and
 * Scale.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate3 {

  @Benchmark
  public void floatArrays(final FloatArrays w) {
    final float[] px = w.px;
    final float[] py = w.py;
    final float[] vx = w.vx;
    final float[] vy = w.vy;
    final float[] scale = w.scale;
    for (int i = 0; i < w.n; i++) {
      final float s = scale[i] * Work.DT;
      px[i] += vx[i] * s;
      py[i] += vy[i] * s;
    }
  }

  @Benchmark
  public void objects(final ObjectArrays w) {
    final Position[] positions = w.positions;
    final Velocity[] velocities = w.velocities;
    final Scale[] scales = w.scales;
    for (int i = 0; i < w.n; i++) {
      final Position p = positions[i];
      final Velocity v = velocities[i];
      final float s = scales[i].s * Work.DT;
      p.x += v.x * s;
      p.y += v.y * s;
    }
  }

  /** The generated {@code View3Query.each}: typed cursors over the struct-of-arrays storages. */
  @State(Scope.Benchmark)
  public static class PhalanxView {
    View3Query query;
    View3Query.Visitor move;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With3 w) {
      query = View3Query.of(w.registry);
      move =
          (e, p, v, s) -> {
            final float f = s.s() * Work.DT;
            p.setX(p.x() + v.x() * f);
            p.setY(p.y() + v.y() * f);
          };
    }
  }

  @Benchmark
  public void phalanx(final PhalanxView v) {
    v.query.each(v.move);
  }

  /**
   * The runtime's typed view ({@code registry.typedView(...)}, no declared query): the same cursors
   * as {@link PhalanxView}, moved by the runtime's loop. Compare with {@code phalanx}.
   */
  @State(Scope.Benchmark)
  public static class PhalanxTypedView {
    View3<Position_Cursor, Velocity_Cursor, Scale_Cursor> view;
    View3.Visitor<Position_Cursor, Velocity_Cursor, Scale_Cursor> move;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With3 w) {
      view = w.registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE, Scale_Traits.TYPE);
      move =
          (e, p, v, s) -> {
            final float f = s.s() * Work.DT;
            p.setX(p.x() + v.x() * f);
            p.setY(p.y() + v.y() * f);
          };
    }
  }

  @Benchmark
  public void phalanxTypedView(final PhalanxTypedView v) {
    v.view.each(v.move);
  }

  @Benchmark
  public void artemis(final ArtemisWorld.With3 w) {
    w.world.process();
  }

  @Benchmark
  public void dominion(final DominionWorld.With3 w) {
    for (final Results.With3<Position, Velocity, Scale> r :
        w.dominion.findCompositionsWith(Position.class, Velocity.class, Scale.class)) {
      final Position p = r.comp1();
      final Velocity v = r.comp2();
      final float s = r.comp3().s * Work.DT;
      p.x += v.x * s;
      p.y += v.y * s;
    }
  }

  @Benchmark
  public void ashley(final AshleyWorld.With3 w) {
    w.engine.update(Work.DT);
  }
}
