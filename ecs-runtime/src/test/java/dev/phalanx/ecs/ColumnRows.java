package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ChangeSet.RowWriter} for tests that writes what a loader writes: each row is an element
 * of some source storage (of the target's type, standalone or not), copied field by field from the
 * source's pages into the target's, through {@link Storage#columns} only. It counts its calls, and
 * may be told to throw at one of them (after writing every field).
 */
final class ColumnRows implements ChangeSet.RowWriter {

  /** Thrown when told to. */
  static final class Thrown extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Thrown(final int call) {
      super("row writer call " + call, null, false, false);
    }
  }

  private final List<Storage<?>> sources = new ArrayList<>();
  private final List<Long> keys = new ArrayList<>();
  private final List<Object> pages = new ArrayList<>();
  int calls;
  int throwAt;

  /** {@return the row of {@code key}'s element of {@code source}, read when the row is written} */
  int add(final Storage<?> source, final long key) {
    sources.add(source);
    keys.add(key);
    return sources.size() - 1;
  }

  @Override
  public void write(final Storage<?> storage, final int position, final int row) {
    calls++;
    final Storage<?> source = sources.get(row);
    final int from = source.indexOf(keys.get(row));
    pages.clear();
    source.columns(new Collect());
    storage.columns(new Copy(source, from, storage, position));
    if (calls == throwAt) {
      throw new Thrown(calls);
    }
  }

  /** Collects the source's page arrays, in column order. */
  private final class Collect implements ColumnVisitor {
    @Override
    public void booleans(final String name, final boolean[][] p) {
      pages.add(p);
    }

    @Override
    public void bytes(final String name, final byte[][] p) {
      pages.add(p);
    }

    @Override
    public void shorts(final String name, final short[][] p) {
      pages.add(p);
    }

    @Override
    public void chars(final String name, final char[][] p) {
      pages.add(p);
    }

    @Override
    public void ints(final String name, final int[][] p) {
      pages.add(p);
    }

    @Override
    public void longs(final String name, final long[][] p, final boolean entityRef) {
      pages.add(p);
    }

    @Override
    public void floats(final String name, final float[][] p) {
      pages.add(p);
    }

    @Override
    public void doubles(final String name, final double[][] p) {
      pages.add(p);
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] p) {
      pages.add(p);
    }
  }

  /** Copies the collected source columns into the target's at one position. */
  private final class Copy implements ColumnVisitor {
    private final int fromPage;
    private final int fromOffset;
    private final int page;
    private final int offset;
    private int column;

    Copy(final Storage<?> source, final int from, final Storage<?> target, final int position) {
      this.fromPage = from >>> source.pageShift();
      this.fromOffset = from & (source.pageSize() - 1);
      this.page = position >>> target.pageShift();
      this.offset = position & (target.pageSize() - 1);
    }

    private Object next() {
      return pages.get(column++);
    }

    @Override
    public void booleans(final String name, final boolean[][] p) {
      p[page][offset] = ((boolean[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void bytes(final String name, final byte[][] p) {
      p[page][offset] = ((byte[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void shorts(final String name, final short[][] p) {
      p[page][offset] = ((short[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void chars(final String name, final char[][] p) {
      p[page][offset] = ((char[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void ints(final String name, final int[][] p) {
      p[page][offset] = ((int[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void longs(final String name, final long[][] p, final boolean entityRef) {
      p[page][offset] = ((long[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void floats(final String name, final float[][] p) {
      p[page][offset] = ((float[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void doubles(final String name, final double[][] p) {
      p[page][offset] = ((double[][]) next())[fromPage][fromOffset];
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] p) {
      p[page][offset] = ((Object[][]) next())[fromPage][fromOffset];
    }
  }
}
