package dev.phalanx.examples.particles;

import java.util.concurrent.ForkJoinPool;

/**
 * The fast path: integrates every moving particle (attractor gravity, density pressure, drag), a
 * chunk at a time, through the generated {@link MoversQuery} (the owning group of {@code Position}
 * and {@code Velocity}, without {@code Frozen}).
 *
 * <p>The group owns both storages, so its members sit at the same positions of each, and a chunk
 * lies within one page of each: the query hands the body those four {@code float[]} pages and the
 * offsets {@code [from, to)}, and the body is a counted loop with no entity, no lookup and no
 * object per particle.
 *
 * <p>Each particle reads only its own state, the attractors and the density grid (filled before
 * this system runs), and writes only its own state. So chunks may run on several threads in any
 * order and the result is bit-for-bit the same as on one.
 */
public final class MovementSystem {

  private final MoversQuery movers;
  private final DensityGrid grid;
  private final ForkJoinPool pool;
  private final float[] attractorX = new float[Rules.ATTRACTORS];
  private final float[] attractorY = new float[Rules.ATTRACTORS];
  // One instance for the whole run: passing this::move each frame would allocate.
  private final MoversQuery.Chunk chunkBody = this::move;

  /**
   * Creates the system.
   *
   * @param pool where chunks run in parallel, or {@code null} to run them on the calling thread
   */
  public MovementSystem(final MoversQuery movers, final DensityGrid grid, final ForkJoinPool pool) {
    this.movers = movers;
    this.grid = grid;
    this.pool = pool;
  }

  /** Moves every member of the group by one frame; {@code frame} places the attractors. */
  public void run(final int frame) {
    for (int i = 0; i < Rules.ATTRACTORS; i++) {
      attractorX[i] = Rules.attractorX(i, frame);
      attractorY[i] = Rules.attractorY(i, frame);
    }
    if (null == pool) {
      movers.eachChunk(chunkBody);
    } else {
      movers.parallelEachChunk(pool, chunkBody);
    }
  }

  /** Returns the x coordinate of attractor {@code index} as of the last run. */
  public float attractorX(final int index) {
    return attractorX[index];
  }

  /** Returns the y coordinate of attractor {@code index} as of the last run. */
  public float attractorY(final int index) {
    return attractorY[index];
  }

  /** The chunk body: offsets {@code [from, to)} of one page of each field. */
  private void move(
      final int from,
      final int to,
      final float[] x,
      final float[] y,
      final float[] dx,
      final float[] dy) {
    final int[] density = grid.counts();
    final float[] ax = attractorX;
    final float[] ay = attractorY;
    final int mask = Rules.CELLS - 1;
    for (int i = from; i < to; i++) {
      final float px = x[i];
      final float py = y[i];
      float accelX = 0f;
      float accelY = 0f;
      for (int a = 0; a < Rules.ATTRACTORS; a++) {
        final float toX = ax[a] - px;
        final float toY = ay[a] - py;
        final float r2 = toX * toX + toY * toY + Rules.SOFTENING;
        final float pull = Rules.GRAVITY / (r2 * (float) Math.sqrt(r2));
        // Toward the attractor, plus a share at right angles (counter-clockwise) for the swirl.
        accelX += (toX - Rules.SWIRL * toY) * pull;
        accelY += (toY + Rules.SWIRL * toX) * pull;
      }
      // Pressure: down the density gradient, from the four neighbouring cells (wrapping).
      final int column = (int) (px * Rules.CELL_SCALE) & mask;
      final int row = (int) (py * Rules.CELL_SCALE) & mask;
      final int right = density[row * Rules.CELLS + ((column + 1) & mask)];
      final int left = density[row * Rules.CELLS + ((column - 1) & mask)];
      final int below = density[((row + 1) & mask) * Rules.CELLS + column];
      final int above = density[((row - 1) & mask) * Rules.CELLS + column];
      accelX -= Rules.PRESSURE * (right - left);
      accelY -= Rules.PRESSURE * (below - above);
      final float vx = (dx[i] + accelX * Rules.DT) * Rules.DAMPING;
      final float vy = (dy[i] + accelY * Rules.DT) * Rules.DAMPING;
      dx[i] = vx;
      dy[i] = vy;
      x[i] = Rules.wrap(px + vx * Rules.DT);
      y[i] = Rules.wrap(py + vy * Rules.DT);
    }
  }
}
