package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.model.Position;
import dev.phalanx.benchmarks.peers.artemis.ArtemisWorld;
import dev.phalanx.benchmarks.peers.ashley.AshleyWorld;
import dev.phalanx.benchmarks.peers.dominion.DominionWorld;
import dev.phalanx.benchmarks.queries.View1Query;
import dev.phalanx.benchmarks.worlds.FloatArrays;
import dev.phalanx.benchmarks.worlds.ObjectArrays;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
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

/** iterate1: {@code position.x += 1} over every entity that has a Position. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(Work.ENTITIES)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class Iterate1 {

  @Benchmark
  public void floatArrays(final FloatArrays w) {
    final float[] px = w.px;
    for (int i = 0; i < w.n; i++) {
      px[i] += 1f;
    }
  }

  @Benchmark
  public void objects(final ObjectArrays w) {
    for (final Position p : w.positions) {
      p.x += 1f;
    }
  }

  /** The generated {@code View1Query.each}: typed cursors over the struct-of-arrays storages. */
  @State(Scope.Benchmark)
  public static class PhalanxView {
    View1Query query;
    View1Query.Visitor move;

    @Setup(Level.Trial)
    public void setup(final PhalanxWorld.With1 w) {
      query = View1Query.of(w.registry);
      move = (e, p) -> p.setX(p.x() + 1f);
    }
  }

  @Benchmark
  public void phalanx(final PhalanxView v) {
    v.query.each(v.move);
  }

  @Benchmark
  public void artemis(final ArtemisWorld.With1 w) {
    w.world.process();
  }

  @Benchmark
  public void dominion(final DominionWorld.With1 w) {
    for (final Position p : w.dominion.findCompositionsWith(Position.class)) {
      p.x += 1f;
    }
  }

  @Benchmark
  public void ashley(final AshleyWorld.With1 w) {
    w.engine.update(Work.DT);
  }
}
