package dev.phalanx.benchmarks.iteration;

import dev.phalanx.benchmarks.Folded;
import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.benchmarks.Work;
import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Scale_Storage;
import dev.phalanx.benchmarks.components.Scale_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.benchmarks.queries.FullOwning3Query;
import dev.phalanx.benchmarks.queries.NonOwning3Query;
import dev.phalanx.benchmarks.queries.Partial_Of3Query;
import dev.phalanx.benchmarks.queries.Partial_Position_Storage;
import dev.phalanx.benchmarks.queries.Partial_Position_Traits;
import dev.phalanx.benchmarks.queries.Partial_Scale_Storage;
import dev.phalanx.benchmarks.queries.Partial_Scale_Traits;
import dev.phalanx.benchmarks.queries.Partial_Velocity_Storage;
import dev.phalanx.benchmarks.queries.Partial_Velocity_Traits;
import dev.phalanx.benchmarks.queries.View3Query;
import dev.phalanx.benchmarks.worlds.Churn;
import dev.phalanx.benchmarks.worlds.PartialWorld;
import dev.phalanx.ecs.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * EnTT's pathological case: 500k entities with Position, Velocity and Scale; ten rounds of removing
 * one component from every 7th, 11th and 13th entity and destroying every 17th, then adding 50k
 * full entities; then iterate3 once over what is left. Time is per initial entity (500k), so the
 * rows compare with iterate3. The fixed size ignores {@code -opi}.
 *
 * <p>The {@code query} parameter picks the iteration (see {@link Folded} for why the choice costs
 * nothing measured); every group is created before the churn and kept up to date through it:
 *
 * <ul>
 *   <li>{@code View}: {@code View3Query.each}, the view made after the churn.
 *   <li>{@code NonOwning}: {@code NonOwning3Query.each}.
 *   <li>{@code PartialOwning}: {@code Partial_Of3Query.each} (owns Position, gets Velocity and
 *       Scale), over that declaration's component copies.
 *   <li>{@code FullOwning}: {@code FullOwning3Query.each}, per entity.
 *   <li>{@code FullOwningChunk}: {@code FullOwning3Query.eachChunk}, in chunks.
 * </ul>
 */
@OperationsPerInvocation(Work.PATHOLOGICAL_ENTITIES)
public class Pathological extends IterationBenchmark {

  public static class World extends Folded.Loop {
    @Param({"View", "NonOwning", "PartialOwning", "FullOwning", "FullOwningChunk"})
    public String query;

    @Override
    protected Runnable build(final BenchmarkParams params) {
      return switch (query) {
        case "View" -> view();
        case "NonOwning" -> nonOwning();
        case "PartialOwning" -> partialOwning();
        case "FullOwning" -> fullOwning();
        case "FullOwningChunk" -> fullOwningChunk();
        default -> throw new IllegalArgumentException("unknown query " + query);
      };
    }
  }

  @Benchmark
  public void phalanx(final World w) {
    w.loop.run();
  }

  /** Runs the churn over the main components of {@code registry}. */
  private static void churn(final Registry registry) {
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final Scale_Storage scales = registry.storage(Scale_Traits.TYPE);
    Churn.run(
        registry,
        (e, i) -> {
          positions.emplace(e, Work.x(i), Work.x(i));
          velocities.emplace(e, Work.v(i), Work.v(i));
          scales.emplace(e, 1f);
        },
        Position_Traits.TYPE,
        Velocity_Traits.TYPE,
        Scale_Traits.TYPE);
  }

  private static Runnable view() {
    final Registry registry = new Registry();
    churn(registry);
    final View3Query query = View3Query.of(registry);
    final View3Query.Visitor body = Work::move3;
    return () -> query.each(body);
  }

  private static Runnable nonOwning() {
    final Registry registry = withStorages();
    final NonOwning3Query query = NonOwning3Query.of(registry);
    churn(registry);
    final NonOwning3Query.Visitor body = Work::move3;
    return () -> query.each(body);
  }

  private static Runnable partialOwning() {
    final Registry registry = new Registry();
    final Partial_Position_Storage positions = registry.storage(Partial_Position_Traits.TYPE);
    final Partial_Velocity_Storage velocities = registry.storage(Partial_Velocity_Traits.TYPE);
    final Partial_Scale_Storage scales = registry.storage(Partial_Scale_Traits.TYPE);
    final Partial_Of3Query query = Partial_Of3Query.of(registry);
    Churn.run(
        registry,
        (e, i) -> {
          positions.emplace(e, Work.x(i), Work.x(i));
          velocities.emplace(e, Work.v(i), Work.v(i));
          scales.emplace(e, 1f);
        },
        Partial_Position_Traits.TYPE,
        Partial_Velocity_Traits.TYPE,
        Partial_Scale_Traits.TYPE);
    final Partial_Of3Query.Visitor body = PartialWorld::move3;
    return () -> query.each(body);
  }

  private static Runnable fullOwning() {
    final Registry registry = withStorages();
    final FullOwning3Query query = FullOwning3Query.of(registry);
    churn(registry);
    final FullOwning3Query.Visitor body = Work::move3;
    return () -> query.each(body);
  }

  private static Runnable fullOwningChunk() {
    final Registry registry = withStorages();
    final FullOwning3Query query = FullOwning3Query.of(registry);
    churn(registry);
    final FullOwning3Query.Chunk body = Work::chunk3;
    return () -> query.eachChunk(body);
  }

  /** {@return a registry with the storages of the three main components, for a group over them} */
  private static Registry withStorages() {
    final Registry registry = new Registry();
    registry.storage(Position_Traits.TYPE);
    registry.storage(Velocity_Traits.TYPE);
    registry.storage(Scale_Traits.TYPE);
    return registry;
  }
}
