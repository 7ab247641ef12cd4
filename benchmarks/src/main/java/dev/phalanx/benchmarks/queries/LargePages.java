package dev.phalanx.benchmarks.queries;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * The components of iterate2 and iterate3 with 8,192-element pages ({@code @Component(pageSize =
 * 8192)}) instead of the default 1,024, and full-owning groups over them: the chunk forms then walk
 * runs of 8,192 elements. Storages allocate a page of every field as entities are created, so the
 * pages of one field lie about one page of each other field apart in memory; with longer pages the
 * hardware prefetcher keeps its streams eight times longer. Compare the "large pages" rows with the
 * default ones.
 */
public final class LargePages {

  private LargePages() {}

  /**
   * @param x horizontal coordinate @param y vertical coordinate
   */
  @Component(pageSize = 8192)
  public record Position(float x, float y) {}

  /**
   * @param x horizontal speed @param y vertical speed
   */
  @Component(pageSize = 8192)
  public record Velocity(float x, float y) {}

  /**
   * @param s the factor
   */
  @Component(pageSize = 8192)
  public record Scale(float s) {}

  /** Owns Position and Velocity. */
  @GroupQuery(owned = {Position.class, Velocity.class})
  public interface Group2 {}

  /** Owns Position, Velocity and Scale (nested with Group2). */
  @GroupQuery(owned = {Position.class, Velocity.class, Scale.class})
  public interface Group3 {}
}
