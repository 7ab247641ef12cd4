package dev.phalanx.benchmarks.groups;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.queries.FullOwning2Query;
import dev.phalanx.benchmarks.queries.FullOwning3Query;
import dev.phalanx.benchmarks.queries.FullOwning5Query;
import dev.phalanx.benchmarks.queries.LargePages_Group2Query;
import dev.phalanx.benchmarks.queries.LargePages_Group3Query;
import dev.phalanx.benchmarks.queries.LargePages_Position_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Position_Traits;
import dev.phalanx.benchmarks.queries.LargePages_Scale_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Scale_Traits;
import dev.phalanx.benchmarks.queries.LargePages_Velocity_Storage;
import dev.phalanx.benchmarks.queries.LargePages_Velocity_Traits;
import dev.phalanx.benchmarks.queries.NonOwning1Query;
import dev.phalanx.benchmarks.queries.NonOwning2Query;
import dev.phalanx.benchmarks.queries.NonOwning3Query;
import dev.phalanx.benchmarks.queries.NonOwning5Query;
import dev.phalanx.benchmarks.queries.Partial_Of2Query;
import dev.phalanx.benchmarks.queries.Partial_Of3Query;
import dev.phalanx.benchmarks.queries.Partial_Of5Query;
import dev.phalanx.benchmarks.queries.Partial_Owns3Of5Query;
import dev.phalanx.benchmarks.queries.Partial_Owns4Of5Query;
import dev.phalanx.benchmarks.worlds.PartialWorld;
import dev.phalanx.benchmarks.worlds.PhalanxWorld;
import dev.phalanx.benchmarks.worlds.Sizes;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * iterate1, 2, 3 and 5 (see {@link Work}) over groups; the {@code query} parameter picks the group,
 * the iteration and the arity (its last digit; see {@link Folded} for why the choice costs nothing
 * measured):
 *
 * <ul>
 *   <li>{@code NonOwningN}: {@code NonOwningNQuery.each}, the group's own sparse set of members;
 *       each cursor moved by one sparse lookup per component.
 *   <li>{@code PartialOwningN}: {@code Partial_OfNQuery.each}, owns Position (moved by position),
 *       gets the others by one lookup each, over that declaration's component copies.
 *   <li>{@code PartialOwning3Of5}, {@code PartialOwning4Of5}: iterate5 over groups owning 3 / 4 of
 *       the 5 components ({@code Partial_Owns3Of5Query}, {@code Partial_Owns4Of5Query}).
 *   <li>{@code FullOwningN}: {@code FullOwningNQuery.each}, every cursor moved by position.
 *   <li>{@code FullOwningChunkN}: {@code FullOwningNQuery.eachChunk}, the {@code float[]} pages of
 *       every owned field and the float[] baseline's loop over {@code [from, to)}.
 *   <li>{@code FullOwningChunkLargePagesN}: the same over components declared with 8,192-element
 *       pages instead of 4,096 ({@code LargePages}).
 *   <li>{@code FullOwningParallelChunkN}: {@code parallelEachChunk} on the common pool (2 threads
 *       on 2 cores: the caller and 1 worker).
 * </ul>
 */
public class IterateGroup extends IterationBenchmark {

  public static class Query extends Folded.Loop {
    @Param({
      "NonOwning1",
      "NonOwning2",
      "PartialOwning2",
      "FullOwning2",
      "FullOwningChunk2",
      "FullOwningChunkLargePages2",
      "FullOwningParallelChunk2",
      "NonOwning3",
      "PartialOwning3",
      "FullOwning3",
      "FullOwningChunk3",
      "FullOwningChunkLargePages3",
      "FullOwningParallelChunk3",
      "NonOwning5",
      "PartialOwning5",
      "PartialOwning3Of5",
      "PartialOwning4Of5",
      "FullOwning5",
      "FullOwningChunk5",
      "FullOwningParallelChunk5"
    })
    public String query;

    @Override
    protected Runnable build(final BenchmarkParams params) {
      return switch (query) {
        case "NonOwning1" -> nonOwning1(new PhalanxWorld(1, params));
        case "NonOwning2" -> nonOwning2(new PhalanxWorld(2, params));
        case "PartialOwning2" -> partialOwning2(new PartialWorld(2, params));
        case "FullOwning2" -> fullOwning2(new PhalanxWorld(2, params));
        case "FullOwningChunk2" -> chunk2(new PhalanxWorld(2, params), false);
        case "FullOwningChunkLargePages2" -> largePages2(params);
        case "FullOwningParallelChunk2" -> chunk2(new PhalanxWorld(2, params), true);
        case "NonOwning3" -> nonOwning3(new PhalanxWorld(3, params));
        case "PartialOwning3" -> partialOwning3(new PartialWorld(3, params));
        case "FullOwning3" -> fullOwning3(new PhalanxWorld(3, params));
        case "FullOwningChunk3" -> chunk3(new PhalanxWorld(3, params), false);
        case "FullOwningChunkLargePages3" -> largePages3(params);
        case "FullOwningParallelChunk3" -> chunk3(new PhalanxWorld(3, params), true);
        case "NonOwning5" -> nonOwning5(new PhalanxWorld(5, params));
        case "PartialOwning5" -> partialOwning5(new PartialWorld(5, params));
        case "PartialOwning3Of5" -> owns3Of5(new PartialWorld(5, params));
        case "PartialOwning4Of5" -> owns4Of5(new PartialWorld(5, params));
        case "FullOwning5" -> fullOwning5(new PhalanxWorld(5, params));
        case "FullOwningChunk5" -> chunk5(new PhalanxWorld(5, params), false);
        case "FullOwningParallelChunk5" -> chunk5(new PhalanxWorld(5, params), true);
        default -> throw new IllegalArgumentException("unknown query " + query);
      };
    }
  }

  @Benchmark
  public void phalanx(final Query q) {
    q.loop.run();
  }

  private static Runnable nonOwning1(final PhalanxWorld w) {
    final NonOwning1Query query = NonOwning1Query.of(w.registry);
    final NonOwning1Query.Visitor body = (e, p) -> p.setX(p.x() + 1f);
    return () -> query.each(body);
  }

  private static Runnable nonOwning2(final PhalanxWorld w) {
    final NonOwning2Query query = NonOwning2Query.of(w.registry);
    final NonOwning2Query.Visitor body = Work::move2;
    return () -> query.each(body);
  }

  private static Runnable partialOwning2(final PartialWorld w) {
    final Partial_Of2Query query = Partial_Of2Query.of(w.registry);
    final Partial_Of2Query.Visitor body = PartialWorld::move2;
    return () -> query.each(body);
  }

  private static Runnable fullOwning2(final PhalanxWorld w) {
    final FullOwning2Query query = FullOwning2Query.of(w.registry);
    final FullOwning2Query.Visitor body = Work::move2;
    return () -> query.each(body);
  }

  private static Runnable nonOwning3(final PhalanxWorld w) {
    final NonOwning3Query query = NonOwning3Query.of(w.registry);
    final NonOwning3Query.Visitor body = Work::move3;
    return () -> query.each(body);
  }

  private static Runnable partialOwning3(final PartialWorld w) {
    final Partial_Of3Query query = Partial_Of3Query.of(w.registry);
    final Partial_Of3Query.Visitor body = PartialWorld::move3;
    return () -> query.each(body);
  }

  private static Runnable fullOwning3(final PhalanxWorld w) {
    final FullOwning3Query query = FullOwning3Query.of(w.registry);
    final FullOwning3Query.Visitor body = Work::move3;
    return () -> query.each(body);
  }

  private static Runnable nonOwning5(final PhalanxWorld w) {
    final NonOwning5Query query = NonOwning5Query.of(w.registry);
    final NonOwning5Query.Visitor body = Work::move5;
    return () -> query.each(body);
  }

  private static Runnable partialOwning5(final PartialWorld w) {
    final Partial_Of5Query query = Partial_Of5Query.of(w.registry);
    final Partial_Of5Query.Visitor body = PartialWorld::move5;
    return () -> query.each(body);
  }

  private static Runnable owns3Of5(final PartialWorld w) {
    final Partial_Owns3Of5Query query = Partial_Owns3Of5Query.of(w.registry);
    final Partial_Owns3Of5Query.Visitor body = PartialWorld::move5;
    return () -> query.each(body);
  }

  private static Runnable owns4Of5(final PartialWorld w) {
    final Partial_Owns4Of5Query query = Partial_Owns4Of5Query.of(w.registry);
    final Partial_Owns4Of5Query.Visitor body = PartialWorld::move5;
    return () -> query.each(body);
  }

  private static Runnable fullOwning5(final PhalanxWorld w) {
    final FullOwning5Query query = FullOwning5Query.of(w.registry);
    final FullOwning5Query.Visitor body = Work::move5;
    return () -> query.each(body);
  }

  private static Runnable chunk2(final PhalanxWorld w, final boolean parallel) {
    final FullOwning2Query query = FullOwning2Query.of(w.registry);
    final FullOwning2Query.Chunk body = Work::chunk2;
    return parallel ? () -> query.parallelEachChunk(body) : () -> query.eachChunk(body);
  }

  private static Runnable largePages2(final BenchmarkParams params) {
    final LargePages_Group2Query query = LargePages_Group2Query.of(largePages(params, false));
    final LargePages_Group2Query.Chunk body = Work::chunk2;
    return () -> query.eachChunk(body);
  }

  private static Runnable chunk3(final PhalanxWorld w, final boolean parallel) {
    final FullOwning3Query query = FullOwning3Query.of(w.registry);
    final FullOwning3Query.Chunk body = Work::chunk3;
    return parallel ? () -> query.parallelEachChunk(body) : () -> query.eachChunk(body);
  }

  private static Runnable largePages3(final BenchmarkParams params) {
    final LargePages_Group3Query query = LargePages_Group3Query.of(largePages(params, true));
    final LargePages_Group3Query.Chunk body = Work::chunk3;
    return () -> query.eachChunk(body);
  }

  private static Runnable chunk5(final PhalanxWorld w, final boolean parallel) {
    final FullOwning5Query query = FullOwning5Query.of(w.registry);
    final FullOwning5Query.Chunk body = Work::chunk5;
    return parallel ? () -> query.parallelEachChunk(body) : () -> query.eachChunk(body);
  }

  /**
   * {@return the entities of {@link PhalanxWorld} over the {@code LargePages} copies of Position
   * and Velocity, and of Scale when {@code scale}}
   */
  private static Registry largePages(final BenchmarkParams params, final boolean scale) {
    final int n = Sizes.entities(params);
    final Registry registry = new Registry();
    final LargePages_Position_Storage positions = registry.storage(LargePages_Position_Traits.TYPE);
    final LargePages_Velocity_Storage velocities =
        registry.storage(LargePages_Velocity_Traits.TYPE);
    final LargePages_Scale_Storage scales =
        scale ? registry.storage(LargePages_Scale_Traits.TYPE) : null;
    for (int i = 0; i < n; i++) {
      final long e = registry.create();
      positions.emplace(e, Work.x(i), Work.x(i));
      velocities.emplace(e, Work.v(i), Work.v(i));
      if (scale) {
        scales.emplace(e, 1f);
      }
    }
    return registry;
  }
}
