package dev.phalanx.examples.particles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * The neighbourhood step: a uniform grid that counts the particles in each cell, so that the
 * movement system can push particles down the density gradient in O(1) per particle, instead of
 * comparing every pair (O(n²)).
 *
 * <p>Counting walks the {@code Position} storage as what it is underneath, a set of paged {@code
 * float} arrays: every element of a swap-and-pop storage at {@code [0, size())} is live, so the
 * loop needs no entity and no lookup. Counts are integers, so the result does not depend on the
 * order of the walk (a float sum would).
 *
 * <p>With a pool, the movers (the front of the storage, which {@link MoversQuery} owns) are counted
 * by a parallel chunk pass: each thread counts into a grid of its own (made on its first chunk,
 * found through a {@link ThreadLocal}), and the grids are summed after the pass, so no two threads
 * write one cell. The rest of the storage (frozen dust, comet tails) is counted on the calling
 * thread.
 */
public final class DensityGrid {

  private static final int AREA = Rules.CELLS * Rules.CELLS;

  private final int[] counts = new int[AREA];
  private final MoversQuery movers;
  private final ForkJoinPool pool;
  // One grid per thread that ever ran a chunk of the pass, made on its first chunk.
  private final ThreadLocal<int[]> threadGrid = ThreadLocal.withInitial(this::newThreadGrid);
  // Every thread's grid, guarded by itself: summed on the calling thread after each pass.
  private final List<int[]> threadGrids = new ArrayList<>();
  // Created once: a method reference per frame would allocate.
  private final MoversQuery.Chunk countMovers = this::countMovers;

  /**
   * Creates the grid.
   *
   * @param movers the owning group at the front of the {@code Position} storage
   * @param pool where the movers are counted in parallel, or {@code null} to count on the calling
   *     thread
   */
  public DensityGrid(final MoversQuery movers, final ForkJoinPool pool) {
    this.movers = movers;
    this.pool = pool;
  }

  /** Recounts the cells from every position in {@code positions}. */
  public void count(final Position_Storage positions) {
    Arrays.fill(counts, 0);
    int start = 0;
    if (null != pool) {
      movers.parallelEachChunkReadOnly(pool, countMovers);
      sumPartials();
      start = movers.size();
    }
    countRange(positions, start, positions.size(), counts);
  }

  /** Counts the positions at {@code [from, to)} of the storage into {@code cells}. */
  private static void countRange(
      final Position_Storage positions, final int from, final int to, final int[] cells) {
    final float[][] xs = positions.xPages();
    final float[][] ys = positions.yPages();
    final int shift = positions.pageShift();
    final int mask = positions.pageSize() - 1;
    for (int start = from; start < to; ) {
      final int page = start >>> shift;
      final int end = Math.min(to, (page + 1) << shift);
      countPage(xs[page], ys[page], start & mask, (end - 1 & mask) + 1, cells);
      start = end;
    }
  }

  private void countMovers(
      final int from,
      final int to,
      final float[] x,
      final float[] y,
      final float[] dx,
      final float[] dy) {
    countPage(x, y, from, to, threadGrid.get());
  }

  private int[] newThreadGrid() {
    final int[] grid = new int[AREA];
    synchronized (threadGrids) {
      threadGrids.add(grid);
    }
    return grid;
  }

  /**
   * Adds every thread's grid into the counts and clears it for the next frame; the pass has ended,
   * so no thread writes a grid meanwhile.
   */
  private void sumPartials() {
    final int[] cells = counts;
    synchronized (threadGrids) {
      for (int g = 0; g < threadGrids.size(); g++) {
        final int[] grid = threadGrids.get(g);
        for (int i = 0; i < AREA; i++) {
          cells[i] += grid[i];
        }
        Arrays.fill(grid, 0);
      }
    }
  }

  private static void countPage(
      final float[] x, final float[] y, final int from, final int to, final int[] cells) {
    for (int i = from; i < to; i++) {
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
