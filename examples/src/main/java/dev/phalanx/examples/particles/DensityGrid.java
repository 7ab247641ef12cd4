package dev.phalanx.examples.particles;

import java.util.Arrays;

/**
 * The neighbourhood step: a uniform grid that counts the particles in each cell, so that the
 * movement system can push particles down the density gradient in O(1) per particle, instead of
 * comparing every pair (O(n²)).
 *
 * <p>Counting walks the {@code Position} storage as what it is underneath, a set of paged {@code
 * float} arrays: every element of a swap-and-pop storage at {@code [0, size())} is live, so the
 * loop needs no entity and no lookup. Counts are integers, so the result does not depend on the
 * order of the walk (a float sum would).
 */
public final class DensityGrid {

  private final int[] counts = new int[Rules.CELLS * Rules.CELLS];

  /** Recounts the cells from every position in {@code positions}. */
  public void count(final Position_Storage positions) {
    Arrays.fill(counts, 0);
    final float[][] xs = positions.xPages();
    final float[][] ys = positions.yPages();
    final int size = positions.size();
    final int pageSize = positions.pageSize();
    for (int start = 0, page = 0; start < size; start += pageSize, page++) {
      countPage(xs[page], ys[page], Math.min(pageSize, size - start));
    }
  }

  private void countPage(final float[] x, final float[] y, final int length) {
    final int[] cells = counts;
    for (int i = 0; i < length; i++) {
      cells[cell(x[i], y[i])]++;
    }
  }

  /**
   * Returns the counts, row-major: cell {@code (column, row)} is at {@code row * CELLS + column}.
   */
  public int[] counts() {
    return counts;
  }

  /** Returns the index of the cell holding {@code (x, y)}; coordinates wrap like the world. */
  public static int cell(final float x, final float y) {
    final int mask = Rules.CELLS - 1;
    return ((int) (y * Rules.CELL_SCALE) & mask) * Rules.CELLS
        + ((int) (x * Rules.CELL_SCALE) & mask);
  }
}
