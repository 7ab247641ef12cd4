package dev.phalanx.benchmarks.codegen;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Cursor;
import dev.phalanx.benchmarks.components.Velocity_Cursor;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Whether a generated query's copies of its {@code each} loop pay for their size: {@code
 * FullOwning2Query.each} (eight copies plus a shared one, a copy per visitor class) against {@link
 * OneLoopQuery} (the same loop, once), over the same 1M-entity group of Position and Velocity.
 *
 * <p>{@code bodies = 5}: five loop bodies of five lambda classes, each doing different work, run
 * through the one query in turn, one body per invocation, from the first warm-up iteration on: the
 * steady state of a program with five systems on one query. {@code bodies = 1}: the first body
 * alone, where the loop's call of the body is monomorphic either way. Each {@code variant} and
 * {@code bodies} pair runs in forks of its own, so a fork sees only its query's loop. The score is
 * ns per entity, averaged over the bodies.
 *
 * <p>Run by hand (not part of {@code run.sh}): {@code java -jar benchmarks/target/benchmarks.jar
 * LoopCopiesDecision -f 2 -prof gc}.
 */
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class LoopCopiesDecision extends IterationBenchmark {

  @State(Scope.Benchmark)
  public static class Query {
    /** {@code copies}: the generated {@code each}; {@code oneLoop}: {@link OneLoopQuery}. */
    @Param({"copies", "oneLoop"})
    public String variant;

    /** How many body classes run through the query: 1 or 5. */
    @Param({"5", "1"})
    public int bodies;

    Consumer<FullOwning2Query.Visitor> each;
    FullOwning2Query.Visitor[] turn;
    int next;

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      Folded.checkForked(params);
      final PhalanxWorld world = new PhalanxWorld(2, params);
      final FullOwning2Query query = FullOwning2Query.of(world.registry);
      each =
          switch (variant) {
            case "copies" -> query::each;
            case "oneLoop" -> new OneLoopQuery(query)::each;
            default -> throw new IllegalArgumentException("unknown variant " + variant);
          };
      final FullOwning2Query.Visitor[] five = Bodies.five();
      turn = new FullOwning2Query.Visitor[bodies];
      System.arraycopy(five, 0, turn, 0, bodies);
    }
  }

  @Benchmark
  public void each(final Query q, final Blackhole sink) {
    final int k = q.next;
    q.next = k + 1 == q.turn.length ? 0 : k + 1;
    q.each.accept(q.turn[k]);
    sink.consume(Bodies.sum);
    sink.consume(Bodies.count);
  }

  /** Five loop bodies, five lambda classes, each with work of its own. */
  static final class Bodies {
    // What the reducing bodies write, so that their work is not dead.
    static float sum;
    static int count;

    private Bodies() {}

    static FullOwning2Query.Visitor[] five() {
      return new FullOwning2Query.Visitor[] {
        // Integrate: the iterate2 workload.
        (final long e, final Position_Cursor p, final Velocity_Cursor v) -> {
          p.setX(p.x() + v.x() * Work.DT);
          p.setY(p.y() + v.y() * Work.DT);
        },
        // Reverse the velocity (its magnitude stays, so no value drifts towards denormals).
        (final long e, final Position_Cursor p, final Velocity_Cursor v) -> {
          v.setX(-v.x());
          v.setY(-v.y());
        },
        // Sum a coordinate.
        (final long e, final Position_Cursor p, final Velocity_Cursor v) -> sum += p.x(),
        // Keep the position in a box.
        (final long e, final Position_Cursor p, final Velocity_Cursor v) -> {
          p.setX(Math.min(Math.max(p.x(), -1e6f), 1e6f));
          p.setY(Math.min(Math.max(p.y(), -1e6f), 1e6f));
        },
        // Count the fast ones.
        (final long e, final Position_Cursor p, final Velocity_Cursor v) -> {
          if (v.x() * v.x() + v.y() * v.y() > 1f) {
            count++;
          }
        }
      };
    }
  }
}
