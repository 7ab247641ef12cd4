package dev.phalanx.examples.particles;

/**
 * The constants of the particle world, in one place so that the systems (and the plain-array model
 * the tests check them against) agree on them.
 *
 * <p>The world is a square of {@link #SIZE} units that wraps around on both axes. A few attractors
 * orbit its centre and pull every moving particle; a coarse density grid pushes particles out of
 * crowded cells. Every root entity lives a random number of frames and is replaced when it dies.
 */
public final class Rules {

  /** Side of the square world, in units. */
  public static final float SIZE = 1024f;

  /** Seconds per frame. */
  public static final float DT = 1f / 30f;

  /** Number of density-grid cells per axis (a power of two, so cell indices wrap with a mask). */
  public static final int CELLS = 128;

  /** Cells per world unit: {@code (int) (x * CELL_SCALE)} is the column of {@code x}. */
  public static final float CELL_SCALE = CELLS / SIZE;

  /** How hard the density gradient pushes, in units/s² per particle of difference. */
  public static final float PRESSURE = 1.5f;

  /** Number of attractors. */
  public static final int ATTRACTORS = 4;

  /** Distance of the attractors from the centre of the world. */
  public static final double ORBIT_RADIUS = 280.0;

  /** Angular speed of the attractors around the centre, in radians per frame. */
  public static final double ORBIT_SPEED = 0.004;

  /** Strength of an attractor (G times its mass). */
  public static final float GRAVITY = 2_000_000f;

  /**
   * How much of an attractor's pull turns sideways (a fraction of the pull, at right angles): it
   * makes the particles spiral in rather than fall straight, the look of a galaxy or a drain.
   */
  public static final float SWIRL = 0.8f;

  /**
   * Softening (squared distance added to every distance) so that nothing explodes at an attractor.
   */
  public static final float SOFTENING = 400f;

  /** Velocity kept per frame; the rest is lost to drag. */
  public static final float DAMPING = 0.985f;

  /** Largest initial speed on each axis. */
  public static final double SPAWN_SPEED = 40.0;

  /** Shortest lifetime, in frames. */
  public static final int MIN_LIFETIME = 30;

  /** Lifetimes are drawn from {@code [MIN_LIFETIME, MIN_LIFETIME + LIFETIME_SPAN)}. */
  public static final int LIFETIME_SPAN = 600;

  /** Out of {@link #KIND_ROLLS} spawns, how many are comets. */
  public static final int COMET_ROLLS = 1;

  /** Out of {@link #KIND_ROLLS} spawns, how many are frozen dust. */
  public static final int FROZEN_ROLLS = 60;

  /** Out of {@link #KIND_ROLLS} spawns, how many are glowing sparks. */
  public static final int GLOWING_ROLLS = 120;

  /** The range of the roll that decides what a new root entity is. */
  public static final int KIND_ROLLS = 1000;

  /** Children (tail particles) per comet. */
  public static final int COMET_CHILDREN = 8;

  /** Largest offset of a comet's child from its head, on each axis. */
  public static final double CHILD_SPREAD = 10.0;

  private Rules() {}

  /** Returns {@code v} wrapped into {@code [0, SIZE)}, for values less than one world away. */
  public static float wrap(final float v) {
    if (v < 0f) {
      return v + SIZE;
    }
    return v >= SIZE ? v - SIZE : v;
  }

  /** Returns the x coordinate of attractor {@code index} at {@code frame}. */
  public static float attractorX(final int index, final int frame) {
    return (float) (SIZE / 2 + ORBIT_RADIUS * StrictMath.cos(angle(index, frame)));
  }

  /** Returns the y coordinate of attractor {@code index} at {@code frame}. */
  public static float attractorY(final int index, final int frame) {
    return (float) (SIZE / 2 + ORBIT_RADIUS * StrictMath.sin(angle(index, frame)));
  }

  private static double angle(final int index, final int frame) {
    // StrictMath: the same bits on every JVM, so a seed gives the same world everywhere.
    return frame * ORBIT_SPEED + index * (2 * Math.PI / ATTRACTORS);
  }
}
