package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import java.util.concurrent.ForkJoinPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A parallel chunk pass over a small group: iterate2 over 8,192 members of a full-owning group of
 * Position, Velocity (two 4,096-element pages), with the automatic grain, on a pool of two threads
 * and on a pool of one, next to the sequential {@code eachChunk}. The automatic grain makes tasks
 * of 1,024 positions on two threads (eight tasks) and 2,048 on one (four); the old fixed grain of
 * 16,384 made one task of the whole group. Two bodies: iterate2 (a pass of about 1.5 us, shorter
 * than waking a pool thread) and a sine per field (about 10 ns an element). ns per entity.
 */
@OperationsPerInvocation(ParallelChunk8k.MEMBERS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ParallelChunk8k extends IterationBenchmark {

  static final int MEMBERS = 8_192;

  public static class Pass extends Folded.Loop {
    @Param({"eachChunk", "pool1", "pool2"})
    public String form;

    /** {@code iterate2}: about 0.2 ns an element (vectorized); {@code sin}: about 10 ns. */
    @Param({"iterate2", "sin"})
    public String body;

    @Override
    protected Runnable build(final BenchmarkParams params) {
      final PhalanxWorld w = new PhalanxWorld(2, params);
      final FullOwning2Query query = FullOwning2Query.of(w.registry);
      final FullOwning2Query.Chunk chunk = "sin".equals(body) ? SIN : ITERATE2;
      return switch (form) {
        case "eachChunk" -> () -> query.eachChunk(chunk);
        case "pool1" -> parallel(query, chunk, 1);
        case "pool2" -> parallel(query, chunk, 2);
        default -> throw new IllegalArgumentException("unknown form " + form);
      };
    }

    private Runnable parallel(
        final FullOwning2Query query, final FullOwning2Query.Chunk body, final int threads) {
      final ForkJoinPool own = new ForkJoinPool(threads);
      close = own::shutdown;
      return () -> query.parallelEachChunk(own, body);
    }
  }

  /** iterate2: the loop of the iteration rows, vectorized by the JIT. */
  static final FullOwning2Query.Chunk ITERATE2 = Work::chunk2;

  /** A steering-like body of about 10 ns an element: a sine per field, not vectorized. */
  static final FullOwning2Query.Chunk SIN =
      (from, to, px, py, vx, vy) -> {
        for (int i = from; i < to; i++) {
          px[i] += (float) Math.sin(vx[i]) * Work.DT;
          py[i] += (float) Math.sin(vy[i]) * Work.DT;
        }
      };

  @Benchmark
  public void phalanx(final Pass p) {
    p.loop.run();
  }
}
