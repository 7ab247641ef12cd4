package dev.phalanx.examples.components;

import dev.phalanx.ecs.annotations.Component;

/** A 2D velocity, as a mutable class with public fields and a no-argument constructor. */
@Component
public final class Velocity {
  /** Horizontal speed. */
  public float dx;

  /** Vertical speed. */
  public float dy;

  /** Creates a zero velocity. */
  public Velocity() {}

  /**
   * Creates a velocity.
   *
   * @param dx horizontal speed
   * @param dy vertical speed
   */
  public Velocity(final float dx, final float dy) {
    this.dx = dx;
    this.dy = dy;
  }
}
