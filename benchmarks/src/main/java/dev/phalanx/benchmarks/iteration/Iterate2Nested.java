package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Cursor;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Cursor;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.queries.View2Query;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The nested form (a neighbour search): for each of 1,024 entities with Position and Velocity, a
 * second query object of the same declaration iterates all 1,024 again and sums a pairwise term, as
 * a boids or collision pass would. One query object cannot nest (its cursors are shared: a nested
 * {@code each} of the same object throws), so the inner loop has its own; both visitors are objects
 * made once, so nothing is allocated. Time per pair (1,024 x 1,024 per invocation); the plain-array
 * row runs the same double loop over {@code float[]}.
 */
@OperationsPerInvocation(Iterate2Nested.PAIRS)
public class Iterate2Nested extends IterationBenchmark {

  static final int N = 1024;
  static final int PAIRS = N * N;

  /** The outer and inner query objects over one small world, and their reusable visitors. */
  @State(Scope.Benchmark)
  public static class World {
    final float[] px = new float[N];
    final float[] vx = new float[N];
    View2Query outer;
    View2Query inner;
    Inner innerBody;
    Outer outerBody;

    @Setup(Level.Trial)
    public void setup() {
      final Registry registry = new Registry();
      final Position_Storage positions = registry.storage(Position_Traits.TYPE);
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      for (int i = 0; i < N; i++) {
        final long e = registry.create();
        px[i] = Work.x(i);
        vx[i] = Work.v(i);
        positions.emplace(e, px[i], px[i]);
        velocities.emplace(e, vx[i], vx[i]);
      }
      outer = View2Query.of(registry);
      inner = View2Query.of(registry);
      innerBody = new Inner();
      outerBody = new Outer(inner, innerBody);
    }
  }

  /** The inner body: adds the pair's term to a running sum (state in fields: no capture). */
  static final class Inner implements View2Query.Visitor {
    float x;
    float sum;

    @Override
    public void visit(final long entity, final Position_Cursor p, final Velocity_Cursor v) {
      sum += (p.x() - x) * v.x();
    }
  }

  /** The outer body: sets the inner body's reference point, then runs the inner query. */
  static final class Outer implements View2Query.Visitor {
    private final View2Query inner;
    private final Inner body;

    Outer(final View2Query inner, final Inner body) {
      this.inner = inner;
      this.body = body;
    }

    @Override
    public void visit(final long entity, final Position_Cursor p, final Velocity_Cursor v) {
      body.x = p.x();
      inner.each(body);
    }
  }

  @Benchmark
  public float floatArrays(final World w) {
    final float[] px = w.px;
    final float[] vx = w.vx;
    float sum = 0;
    for (int i = 0; i < N; i++) {
      final float x = px[i];
      for (int j = 0; j < N; j++) {
        sum += (px[j] - x) * vx[j];
      }
    }
    return sum;
  }

  @Benchmark
  public float phalanx(final World w) {
    w.innerBody.sum = 0;
    w.outer.each(w.outerBody);
    return w.innerBody.sum;
  }
}
