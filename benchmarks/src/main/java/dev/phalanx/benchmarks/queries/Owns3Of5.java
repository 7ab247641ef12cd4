package dev.phalanx.benchmarks.queries;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * A partial-owning group of 5 components that owns 3 (Position, Velocity, Scale) and gets Heat and
 * Age.
 *
 * <p>The records are copies of those of {@code dev.phalanx.benchmarks.components} (same fields,
 * same generated storages, for example {@code Owns3Of5_Position_Storage}): an owning group that is
 * not nested with the full-owning family must own other component types.
 */
public final class Owns3Of5 {

  private Owns3Of5() {}

  /**
   * @param x horizontal coordinate @param y vertical coordinate
   */
  @Component
  public record Position(float x, float y) {}

  /**
   * @param x horizontal speed @param y vertical speed
   */
  @Component
  public record Velocity(float x, float y) {}

  /**
   * @param s the factor
   */
  @Component
  public record Scale(float s) {}

  /**
   * @param value the value
   */
  @Component
  public record Heat(float value) {}

  /**
   * @param value the value
   */
  @Component
  public record Age(float value) {}

  /** Owns Position, Velocity, Scale; gets Heat and Age. */
  @GroupQuery(
      owned = {Position.class, Velocity.class, Scale.class},
      get = {Heat.class, Age.class})
  public interface Group {}
}
