package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Profile pollution: iterate2 through the same generated full-owning {@code FullOwning2Query} with
 * five different loop bodies (five lambda classes doing the same work), one body per invocation in
 * turn, from the first warm-up iteration on, so the query's call of the body sees five receiver
 * classes. The {@code form} parameter picks {@code each} (compare with {@link IterateGroup}, {@code
 * FullOwning2}) or {@code eachChunk} (compare with {@code IterateGroup}, {@code FullOwningChunk2});
 * see {@link Folded} for why the choice costs nothing measured. The pollution is the point here and
 * stays where it was, at the query's call of the body; the folded call site {@code loop.run()} sees
 * one class per fork.
 */
public class Iterate2GroupPolluted extends IterationBenchmark {

  public static class Query extends Folded.Loop {
    @Param({"each", "eachChunk"})
    public String form;

    @Override
    protected Runnable build(final BenchmarkParams params) {
      final FullOwning2Query query = FullOwning2Query.of(new PhalanxWorld(2, params).registry);
      return switch (form) {
        case "each" -> new EachInTurn(query);
        case "eachChunk" -> new EachChunkInTurn(query);
        default -> throw new IllegalArgumentException("unknown form " + form);
      };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  /** {@code each} with the next of five visitor classes per run. */
  private static final class EachInTurn implements Runnable {
    private final FullOwning2Query query;
    // Five method references: five classes (one per expression) with the same work ({@link
    // Work}'s body), all seen by the query's call site.
    private final FullOwning2Query.Visitor[] bodies = {
      Work::move2, Work::move2, Work::move2, Work::move2, Work::move2
    };
    private int next;

    EachInTurn(final FullOwning2Query query) {
      this.query = query;
    }

    @Override
    public void run() {
      final int k = next;
      next = 4 == k ? 0 : k + 1;
      query.each(bodies[k]);
    }
  }

  /** {@code eachChunk} with the next of five chunk-body classes per run. */
  private static final class EachChunkInTurn implements Runnable {
    private final FullOwning2Query query;
    // Five method references: five classes (one per expression) with the same work ({@link
    // Work}'s body), all seen by the query's call site.
    private final FullOwning2Query.Chunk[] bodies = {
      Work::chunk2, Work::chunk2, Work::chunk2, Work::chunk2, Work::chunk2
    };
    private int next;

    EachChunkInTurn(final FullOwning2Query query) {
      this.query = query;
    }

    @Override
    public void run() {
      final int k = next;
      next = 4 == k ? 0 : k + 1;
      query.eachChunk(bodies[k]);
    }
  }
}
