package dev.phalanx.ecs;

/**
 * The base of every cursor: a reusable flyweight pointing at one element of a paged storage,
 * through which a subclass reads and writes that element's fields in place. The processor generates
 * one subclass per {@code @Component} with fields ({@code Foo_Cursor}); typed views ({@link View1}
 * to {@link View4}) and generated queries hand them out.
 *
 * <h2>Invariants and costs</h2>
 *
 * <ul>
 *   <li>A cursor holds its element's position two ways, always in agreement: {@link #position}
 *       here, and in the subclass the page and the offset within it ({@code position == page <<
 *       pageShift | offset}), from which its accessors read {@code fieldPages[page][offset]}. The
 *       page and offset are the subclass's own fields: the JIT then knows that moving one cursor
 *       does not move another, forwards each offset from where it was written and can vectorize a
 *       loop over one page.
 *   <li>Moving a cursor is a few field writes: {@link #point} for any position; {@link #moveToPage}
 *       then {@link #moveWithinPage} for loops that walk a storage page by page, where the page
 *       stays the same for a whole run, so the JIT reads each field's page array once per run. They
 *       are protected: generated queries call them through {@link Query}'s helpers with the final
 *       cursor class (a direct call once inlined); the runtime's typed views call them through this
 *       class, a virtual call that is megamorphic once a program iterates several component types
 *       that way. A user moves a cursor with the generated {@code moveTo} and {@code moveToEntity}.
 *   <li>A cursor allocates nothing after it is made; it keeps no reference to the entity.
 *   <li>A position is not checked when it is set: it stays meaningful until the storage moves its
 *       elements (a removal under swap-and-pop, a sort, a compaction).
 * </ul>
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe: use one cursor per thread.
 */
public abstract class Cursor {

  /**
   * The position of the element the cursor points at in its storage's packed array, {@code -1}
   * before the first move.
   */
  protected int position = -1;

  /** {@code log2} of the walked storage's page size. */
  protected final int pageShift;

  /** The walked storage's page size minus one: {@code position & pageMask} is an offset. */
  protected final int pageMask;

  /**
   * Creates a cursor that points at no element yet, over a storage whose pages hold {@code 1 <<
   * pageShift} elements.
   *
   * @param pageShift {@code log2} of the storage's page size, in {@code [0, 31]}
   * @throws IllegalArgumentException if {@code pageShift} is out of range
   */
  protected Cursor(final int pageShift) {
    if (pageShift < 0 || pageShift > 31) {
      throw new IllegalArgumentException("page shift " + pageShift + " outside [0, 31]");
    }
    this.pageShift = pageShift;
    this.pageMask = (int) ((1L << pageShift) - 1);
  }

  /** {@return the position this cursor points at, {@code -1} before the first move} */
  public final int currentPosition() {
    return position;
  }

  /**
   * Points this cursor at {@code position}: sets {@link #position}, the page and the offset.
   *
   * @param position a position of the storage's packed array
   */
  protected abstract void point(int position);

  /**
   * Points this cursor at the first element of page {@code page}, for a loop that walks the storage
   * page by page: call it once per page, then {@link #moveWithinPage} per element. For generated
   * code and the runtime's typed views.
   *
   * @param page a page of the storage
   */
  protected abstract void moveToPage(int page);

  /**
   * Points this cursor at {@code offset} of its current page (see {@link #moveToPage}). For
   * generated code and the runtime's typed views.
   *
   * @param offset an offset in {@code [0, pageSize)}
   */
  protected abstract void moveWithinPage(int offset);

  /**
   * Points this cursor at {@code offset} of page {@code page}: as {@link #point}, for a loop that
   * knows the page and offset already (the JIT then sees a page that is the same for a whole run).
   * For generated code and the runtime's typed views.
   *
   * @param page a page of the storage
   * @param offset an offset in {@code [0, pageSize)}
   */
  protected abstract void moveToElement(int page, int offset);
}
