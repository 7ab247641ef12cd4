package dev.phalanx.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The rule of the folded benchmarks: one class per workload shape, whose library ({@code lib}),
 * arity, query or form is chosen by {@code @Param}s in {@code @Setup}.
 *
 * <p>The set-up builds the chosen library's world (through its adapter: {@code FloatArrays}, {@code
 * ObjectArrays}, {@code PhalanxWorld}, {@code ArtemisWorld}, {@code DominionWorld}, {@code
 * AshleyWorld}, {@code Worlds2}) and returns a {@link Runnable} (or a {@link FloatLoop}, a {@link
 * Shot}) that runs the workload's loop once, the loop body the unfolded method had; the measured
 * method is only {@code loop.run()}. So no branch on the parameters is measured, and the body of
 * the measured method is one call site:
 *
 * <ul>
 *   <li>With forks (run.sh uses {@code -f 1}; {@code IterationBenchmark} declares
 *       {@code @Fork(1)}), JMH runs every parameter value in its own JVM, so {@code loop.run()}
 *       sees one receiver class per fork and is inlined, as the call {@code query.each(body)} of an
 *       unfolded class was.
 *   <li>The per-entity call of the body sits in the generated query's loop, one class per query
 *       kind, and every body (a lambda, or a method reference to one of {@code Work}'s static
 *       bodies: each expression is a class of its own) is written once per query kind: the
 *       receivers that call site sees are those it saw before the fold, with or without forks.
 *   <li>Without forks ({@code -f 0}) the parameter values share one JVM and {@code loop.run()}
 *       turns megamorphic after the third value: one interface call per invocation (per 1M
 *       entities), never per entity. The profiles of the generated queries' shared runtime code mix
 *       as well, as they did across unfolded classes in one JVM; {@link #checkForked} says so on
 *       stderr. Do not publish figures of a {@code -f 0} run.
 * </ul>
 *
 * <p>A {@code @Param} cannot feed {@code @OperationsPerInvocation}, so workloads with another
 * entity count (pathological) stay in their own class.
 */
public final class Folded {

  private Folded() {}

  /**
   * The measured shot of a folded structural benchmark: returns what the shot made (or null), and
   * takes the Blackhole for the rows that consume a handle per entity.
   */
  @FunctionalInterface
  public interface Shot {
    /** Runs the shot once. */
    Object run(Blackhole bh);
  }

  /** The measured loop of a folded benchmark whose rows return a sum (the get workloads). */
  @FunctionalInterface
  public interface FloatLoop {
    /** Runs the loop once and returns its sum. */
    float run();
  }

  /**
   * The JMH state of a folded benchmark whose measured method is one {@code loop.run()}: the
   * trial's set-up builds the loop of the parameters' choice ({@link #build}), which may set {@link
   * #close} to release its world after the trial.
   */
  @State(Scope.Benchmark)
  public abstract static class Loop {
    /** The measured loop. */
    public Runnable loop;

    /** Releases the loop's world after the trial; nothing by default. */
    protected Runnable close = () -> {};

    @Setup(Level.Trial)
    public void setup(final BenchmarkParams params) {
      checkForked(params);
      loop = build(params);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      close.run();
    }

    /** {@return the loop of the parameters' library, arity, query or form} */
    protected abstract Runnable build(BenchmarkParams params);
  }

  /** Warns on stderr when the parameter values of a folded benchmark share one JVM. */
  public static void checkForked(final BenchmarkParams params) {
    if (0 == params.getForks()) {
      System.err.println(
          "warning: "
              + params.getBenchmark()
              + " folds several queries behind one call site; with -f 0 their profiles mix."
              + " Run with -f 1 or more for figures.");
    }
  }
}
