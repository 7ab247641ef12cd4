package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * A storage that keeps one reference per element, in pages of {@code Object[]}. It works for any
 * class without generated code; struct-of-arrays storages generated for {@code @Component} types
 * are faster and lighter (no object per component).
 *
 * <h2>Costs</h2>
 *
 * <p>Per element: 4 or 8 bytes of reference plus the object itself, and the sparse set's overhead.
 * {@link #get} returns the stored instance (no allocation).
 *
 * @param <T> the component class
 */
public class ObjectStorage<T> extends Storage<T> {

  private Object[][] pages = new Object[0][];

  /**
   * Creates an empty storage for {@code type}.
   *
   * @param type the component type whose instances the storage holds
   */
  public ObjectStorage(final ComponentType<T, ?> type) {
    super(type);
  }

  /**
   * {@return the payload page array; page {@code position >>> pageShift()} holds the element at
   * offset {@code position & (pageSize() - 1)}} The outer array grows; each page never moves.
   */
  public final Object[][] pages() {
    return pages;
  }

  /**
   * {@return the instance at {@code position} (no check)}
   *
   * @param position a position in {@code [0, size())}; a tombstone's slot reads {@code null}
   */
  @SuppressWarnings("unchecked") // every non-null slot was written by setAt with a T
  public final T valueAt(final int position) {
    return (T) pages[position >>> pageShift()][position & (pageSize() - 1)];
  }

  @Override
  protected void allocatePage(final int page) {
    if (page >= pages.length) {
      pages = Arrays.copyOf(pages, Math.max(page + 1, pages.length * 2));
    }
    if (null == pages[page]) {
      pages[page] = new Object[pageSize()];
    }
  }

  @Override
  protected T getAt(final int position) {
    return valueAt(position);
  }

  @Override
  protected void setAt(final int position, final T value) {
    pages[position >>> pageShift()][position & (pageSize() - 1)] = value;
  }

  @Override
  protected void moveElement(final int from, final int to) {
    final int shift = pageShift();
    final int mask = pageSize() - 1;
    pages[to >>> shift][to & mask] = pages[from >>> shift][from & mask];
  }

  @Override
  protected void swapElements(final int left, final int right) {
    final int shift = pageShift();
    final int mask = pageSize() - 1;
    final Object[] leftPage = pages[left >>> shift];
    final Object[] rightPage = pages[right >>> shift];
    final Object value = leftPage[left & mask];
    leftPage[left & mask] = rightPage[right & mask];
    rightPage[right & mask] = value;
  }

  @Override
  protected void releaseElement(final int position) {
    // Drop the reference so that the removed component can be collected.
    pages[position >>> pageShift()][position & (pageSize() - 1)] = null;
  }

  /**
   * Hands {@code visitor} the one column of an object storage, {@code value}: the instances, of the
   * component class, which snapshots write with a {@link dev.phalanx.ecs.snapshot.ValueCodec
   * ValueCodec} (or natively for strings and enums).
   */
  @Override
  protected void eachColumn(final ColumnVisitor visitor) {
    visitor.objects("value", type().javaClass(), pages);
  }
}
