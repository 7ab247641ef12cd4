package dev.phalanx.examples.particles;

/**
 * The hash of one entity's state used by {@link World#checksum()}, written so that another
 * implementation of the rules (the plain-array model in the tests) can compute the same value.
 */
public final class Checksums {

  /** Flag bit of frozen dust. */
  public static final int FROZEN = 1;

  /** Flag bit of a glowing spark. */
  public static final int GLOWING = 2;

  /** Flag bit of a comet head; its child count goes in bits 8 and up. */
  public static final int COMET = 4;

  private Checksums() {}

  /** Returns the hash of a root entity. */
  public static long root(
      final float x,
      final float y,
      final float dx,
      final float dy,
      final int ticks,
      final int flags) {
    long h = 17;
    h = h * 31 + Float.floatToIntBits(x);
    h = h * 31 + Float.floatToIntBits(y);
    h = h * 31 + Float.floatToIntBits(dx);
    h = h * 31 + Float.floatToIntBits(dy);
    h = h * 31 + ticks;
    return h * 31 + flags;
  }

  /** Returns the hash of a comet child. */
  public static long child(
      final float x,
      final float y,
      final float offsetX,
      final float offsetY,
      final float parentX,
      final float parentY) {
    long h = 19;
    h = h * 31 + Float.floatToIntBits(x);
    h = h * 31 + Float.floatToIntBits(y);
    h = h * 31 + Float.floatToIntBits(offsetX);
    h = h * 31 + Float.floatToIntBits(offsetY);
    h = h * 31 + Float.floatToIntBits(parentX);
    return h * 31 + Float.floatToIntBits(parentY);
  }

  /**
   * Scrambles {@code h} (SplitMix64's finalizer) so that summing hashes does not cancel patterns.
   */
  public static long mix(final long h) {
    long z = h;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
