package dev.phalanx.benchmarks.queries;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * The partial-owning groups: owning Position only and getting the others, of 2, 3 and 5 components
 * (a nested family), and groups of 5 components owning 3 (Position, Velocity, Scale) or 4 (and
 * Heat). The last two are not nested with the first three nor with each other, so each declares a
 * registry name of its own: they are never created in one registry.
 *
 * <p>The records are copies of those of {@code dev.phalanx.benchmarks.components} (same fields,
 * same generated storages, for example {@code Partial_Position_Storage}): an owning group that is
 * not nested with the full-owning family must own other component types.
 */
public final class Partial {

  private Partial() {}

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

  /** Owns Position, gets Velocity. */
  @GroupQuery(owned = Position.class, get = Velocity.class)
  public interface Of2 {}

  /** Owns Position, gets Velocity and Scale. */
  @GroupQuery(
      owned = Position.class,
      get = {Velocity.class, Scale.class})
  public interface Of3 {}

  /** Owns Position, gets Velocity, Scale, Heat and Age. */
  @GroupQuery(
      owned = Position.class,
      get = {Velocity.class, Scale.class, Heat.class, Age.class})
  public interface Of5 {}

  /** Owns Position, Velocity, Scale; gets Heat and Age. */
  @GroupQuery(
      owned = {Position.class, Velocity.class, Scale.class},
      get = {Heat.class, Age.class},
      registry = "owns3Of5")
  public interface Owns3Of5 {}

  /** Owns Position, Velocity, Scale, Heat; gets Age. */
  @GroupQuery(
      owned = {Position.class, Velocity.class, Scale.class, Heat.class},
      get = Age.class,
      registry = "owns4Of5")
  public interface Owns4Of5 {}
}
