package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Fills each field of a storage from a {@link RegistryImage} at restore: installs whole pages (the
 * image's paged fields), or copies a flat array page by page; a field the image lacks gets its
 * default, in new pages (paged: the table holds none yet) or in the storage's own. One per restore,
 * {@link #start started} for each storage.
 */
final class ImageFiller implements ColumnVisitor {
  private RegistryImage.StorageImage source;
  private int pageSize;
  private int pageCount;
  private boolean adopt;

  void start(final RegistryImage.StorageImage image, final Storage<?> storage) {
    source = image;
    pageSize = storage.pageSize();
    pageCount = (image.size + pageSize - 1) / pageSize;
    adopt = image.paged;
  }

  /**
   * Installs or copies the image's field {@code name} into {@code pages}; returns false, having
   * done nothing, if the image lacks it.
   */
  private boolean fill(final String name, final Object[] pages) {
    final Object values = source.columns.get(name);
    if (null == values) {
      return false;
    }
    if (adopt) {
      System.arraycopy(values, 0, pages, 0, pageCount);
    } else {
      for (int from = 0, page = 0; from < source.size; from += pageSize, page++) {
        System.arraycopy(values, from, pages[page], 0, Math.min(pageSize, source.size - from));
      }
    }
    return true;
  }

  /**
   * Gives every page of a field the image lacks its default: new pages from {@code fresh} when
   * adopting (the table holds none yet), else {@code clear} on the storage's own. Once per field.
   */
  private void defaults(
      final Object[] pages, final Supplier<Object> fresh, final IntConsumer clear) {
    for (int page = 0; page < pageCount; page++) {
      if (adopt) {
        pages[page] = fresh.get();
      } else {
        clear.accept(page);
      }
    }
  }

  @Override
  public void booleans(final String name, final boolean[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new boolean[pageSize], page -> Arrays.fill(pages[page], false));
    }
  }

  @Override
  public void bytes(final String name, final byte[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new byte[pageSize], page -> Arrays.fill(pages[page], (byte) 0));
    }
  }

  @Override
  public void shorts(final String name, final short[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new short[pageSize], page -> Arrays.fill(pages[page], (short) 0));
    }
  }

  @Override
  public void chars(final String name, final char[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new char[pageSize], page -> Arrays.fill(pages[page], (char) 0));
    }
  }

  @Override
  public void ints(final String name, final int[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new int[pageSize], page -> Arrays.fill(pages[page], 0));
    }
  }

  @Override
  public void longs(final String name, final long[][] pages, final boolean entityRef) {
    if (!fill(name, pages)) {
      final long none = entityRef ? Entity.NULL : 0L;
      defaults(
          pages,
          () -> {
            final long[] page = new long[pageSize];
            Arrays.fill(page, none);
            return page;
          },
          page -> Arrays.fill(pages[page], none));
    }
  }

  @Override
  public void floats(final String name, final float[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new float[pageSize], page -> Arrays.fill(pages[page], 0f));
    }
  }

  @Override
  public void doubles(final String name, final double[][] pages) {
    if (!fill(name, pages)) {
      defaults(pages, () -> new double[pageSize], page -> Arrays.fill(pages[page], 0d));
    }
  }

  @Override
  public void objects(final String name, final Class<?> type, final Object[][] pages) {
    // Never adopted: reference fields are given flat (see RegistryImage#pages).
    if (!fill(name, pages)) {
      for (int page = 0; page < pageCount; page++) {
        Arrays.fill(pages[page], null);
      }
    }
  }
}
