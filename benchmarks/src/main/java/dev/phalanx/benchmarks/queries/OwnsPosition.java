package dev.phalanx.benchmarks.queries;

import dev.phalanx.ecs.annotations.Component;
import dev.phalanx.ecs.annotations.GroupQuery;

/**
 * Partial-owning groups that own Position only and get the others: of 2, 3 and 5 components (a
 * nested family).
 *
 * <p>The records are copies of those of {@code dev.phalanx.benchmarks.components} (same fields,
 * same generated storages, for example {@code OwnsPosition_Position_Storage}): an owning group that
 * is not nested with the full-owning family must own other component types.
 */
public final class OwnsPosition {

  private OwnsPosition() {}

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
}
