package dev.phalanx.examples.particles;

/**
 * The spawner's random generator: the same SplitMix64 sequence as {@code new
 * SplittableRandom(seed)} ({@code nextDouble} and {@code nextInt(bound)} draw exactly what it
 * draws), with its state readable and restorable, so that a snapshot of the world can carry it
 * ({@link World#save}). {@code SplittableRandom} hides its state.
 */
public final class SplitMix {

  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
  private static final double DOUBLE_UNIT = 0x1.0p-53;

  private long seed;

  /** Creates a generator that draws what {@code new SplittableRandom(seed)} draws. */
  public SplitMix(final long seed) {
    this.seed = seed;
  }

  /** Returns the state: pass it to {@link #restore} to continue the sequence from here. */
  public long state() {
    return seed;
  }

  /** Continues the sequence from {@code state}, a value {@link #state} returned. */
  public void restore(final long state) {
    seed = state;
  }

  private long nextSeed() {
    return seed += GOLDEN_GAMMA;
  }

  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private static int mix32(long z) {
    z = (z ^ (z >>> 33)) * 0x62a9d9ed799705f5L;
    return (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3L) >>> 32);
  }

  /** Returns a double in {@code [0, 1)}. */
  public double nextDouble() {
    return (mix64(nextSeed()) >>> 11) * DOUBLE_UNIT;
  }

  /**
   * Returns an int in {@code [0, bound)}, {@code bound > 0}, with {@code SplittableRandom}'s
   * rejection.
   */
  public int nextInt(final int bound) {
    int r = mix32(nextSeed());
    final int m = bound - 1;
    if (0 == (bound & m)) {
      return r & m;
    }
    for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = mix32(nextSeed()) >>> 1) {
      // Rejected: draw again.
    }
    return r;
  }
}
