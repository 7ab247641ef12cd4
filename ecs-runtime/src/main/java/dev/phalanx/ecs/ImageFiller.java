package dev.phalanx.ecs;

import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * Fills each field of a storage from a {@link RegistryImage} at restore: installs whole pages (the
 * image's paged fields), or copies a flat array page by page; a field the image lacks gets its
 * default ({@code 0}, {@code false}, {@code null}, {@link Entity#NULL} for an {@code @EntityRef}),
 * in new pages (paged: the table holds none yet) or in the storage's own. One per restore, {@link
 * #start started} for each storage; every kind of field alike, as arrays.
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

  @Override
  public void column(
      final String name, final Class<?> type, final boolean entityRef, final Object[] pages) {
    final Object values = source.columns.get(name);
    if (null == values) {
      defaults(type, entityRef, pages);
    } else if (adopt) {
      System.arraycopy(values, 0, pages, 0, pageCount);
    } else {
      for (int from = 0, page = 0; from < source.size; from += pageSize, page++) {
        System.arraycopy(values, from, pages[page], 0, Math.min(pageSize, source.size - from));
      }
    }
  }

  /**
   * Gives every page of a field the image lacks its default: new pages when adopting (the table
   * holds none yet), else a copy of one default page over each of the storage's own.
   */
  private void defaults(final Class<?> type, final boolean entityRef, final Object[] pages) {
    if (0 == pageCount) {
      return;
    }
    final Object blank = type.isPrimitive() ? Array.newInstance(type, pageSize) : null;
    if (entityRef) {
      Arrays.fill((long[]) blank, Entity.NULL);
    }
    for (int page = 0; page < pageCount; page++) {
      if (null == blank) {
        Arrays.fill((Object[]) pages[page], null);
      } else if (adopt) {
        pages[page] = 0 == page ? blank : copyOf(blank);
      } else {
        System.arraycopy(blank, 0, pages[page], 0, pageSize);
      }
    }
  }

  private Object copyOf(final Object blank) {
    final Object page = Array.newInstance(blank.getClass().getComponentType(), pageSize);
    System.arraycopy(blank, 0, page, 0, pageSize);
    return page;
  }
}
