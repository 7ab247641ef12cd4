package dev.phalanx.benchmarks.tracking;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.TrackedPosition_Storage;
import dev.phalanx.benchmarks.components.TrackedPosition_Traits;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.queries.TrackedOwning2Query;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.WriteLog;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What change tracking costs, and what visiting only the changed buys, over 1M entities of a
 * full-owning group of a position and a Velocity. iterate2 ({@code position += velocity * DT}) per
 * entity through cursors (setter-heavy: two stamped writes per entity) and in chunks (one stamped
 * run per page), with an untracked and a tracked position side by side. Then a reading pass that
 * sums x: over every entity ({@code each}), and over the entities changed since a tick ({@code
 * eachChangedSince}) when 1% or 50% of them (spread evenly) were written since.
 */
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class Tracking extends IterationBenchmark {

  /** Two registries of the same entities: positions untracked in one, tracked in the other. */
  @State(Scope.Benchmark)
  public static class Worlds {
    final Registry plain = new Registry();
    final Registry tracked = new Registry();

    /** Whether a reader of the tracked positions' write log is open ("reader") or not ("none"). */
    @Param({"none", "reader"})
    String log;

    WriteLog.Reader reader;
    FullOwning2Query plainQuery;
    TrackedOwning2Query trackedQuery;
    FullOwning2Query.Visitor plainBody;
    TrackedOwning2Query.Visitor trackedBody;
    FullOwning2Query.Chunk plainChunk;
    TrackedOwning2Query.Chunk trackedChunk;

    @Setup(Level.Trial)
    public void setup() {
      plainQuery = FullOwning2Query.of(plain);
      trackedQuery = TrackedOwning2Query.of(tracked);
      for (int i = 0; i < Work.ENTITIES; i++) {
        final long a = plain.create();
        plain.storage(Position_Traits.TYPE).emplace(a, Work.x(i), Work.x(i));
        plain.storage(Velocity_Traits.TYPE).emplace(a, Work.v(i), Work.v(i));
        final long b = tracked.create();
        tracked.storage(TrackedPosition_Traits.TYPE).emplace(b, Work.x(i), Work.x(i));
        tracked.storage(Velocity_Traits.TYPE).emplace(b, Work.v(i), Work.v(i));
      }
      plainBody = Work::move2;
      trackedBody =
          (e, p, v) -> {
            p.setX(p.x() + v.x() * Work.DT);
            p.setY(p.y() + v.y() * Work.DT);
          };
      plainChunk = Work::chunk2;
      trackedChunk = Work::chunk2;
      if ("reader".equals(log)) {
        reader = tracked.storage(TrackedPosition_Traits.TYPE).readWrites();
      }
    }
  }

  @Benchmark
  public void iterate2EachUntracked(final Worlds w) {
    w.plainQuery.each(w.plainBody);
  }

  @Benchmark
  public void iterate2EachTracked(final Worlds w) {
    w.trackedQuery.each(w.trackedBody);
  }

  /**
   * As {@link #iterate2EachTracked}, each call at a new tick: every write is an element's first of
   * its tick, logged when a reader is open (which then reads up to the end).
   */
  @Benchmark
  public void iterate2EachTrackedNewTick(final Worlds w) {
    w.tracked.advanceChangeTick();
    w.trackedQuery.each(w.trackedBody);
    if (null != w.reader) {
      w.reader.advance(w.reader.end());
    }
  }

  @Benchmark
  public void iterate2ChunkUntracked(final Worlds w) {
    w.plainQuery.eachChunk(w.plainChunk);
  }

  @Benchmark
  public void iterate2ChunkTracked(final Worlds w) {
    w.trackedQuery.eachChunk(w.trackedChunk);
  }

  /** A tracked world where a share of the entities was written after {@code since}. */
  @State(Scope.Benchmark)
  public static class Changed {
    @Param({"1", "50"})
    int percent;

    final Registry registry = new Registry();
    TrackedOwning2Query query;
    long since;
    final float[] sum = new float[1];
    TrackedOwning2Query.Visitor read;

    @Setup(Level.Trial)
    public void setup() {
      query = TrackedOwning2Query.of(registry);
      final TrackedPosition_Storage positions = registry.storage(TrackedPosition_Traits.TYPE);
      final long[] entities = new long[Work.ENTITIES];
      for (int i = 0; i < Work.ENTITIES; i++) {
        entities[i] = registry.create();
        positions.emplace(entities[i], Work.x(i), Work.x(i));
        registry.storage(Velocity_Traits.TYPE).emplace(entities[i], Work.v(i), Work.v(i));
      }
      since = registry.advanceChangeTick();
      final int step = 100 / percent;
      for (int i = 0; i < Work.ENTITIES; i += step) {
        positions.setX(entities[i], 1f);
      }
      read = (e, p, v) -> sum[0] += p.x();
    }
  }

  @Benchmark
  public float readAll(final Changed c) {
    c.sum[0] = 0;
    c.query.each(c.read);
    return c.sum[0];
  }

  @Benchmark
  public float readChanged(final Changed c, final Blackhole bh) {
    c.sum[0] = 0;
    c.query.eachChangedSince(c.since, c.read);
    return c.sum[0];
  }
}
