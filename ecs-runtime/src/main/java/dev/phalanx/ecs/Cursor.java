package dev.phalanx.ecs;

/**
 * The base of every cursor: a reusable flyweight pointing at one position of a storage, through
 * which a subclass reads and writes that element's fields in place. The processor generates one
 * subclass per {@code @Component} with fields ({@code Foo_Cursor}); typed views ({@link View1} to
 * {@link View4}) hand them out.
 *
 * <h2>Invariants and costs</h2>
 *
 * <ul>
 *   <li>The position lives in a field of this class, so the runtime moves a cursor with one field
 *       write: no virtual call per entity, however many cursor classes a program uses.
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
   * before the first move. Subclasses read it in their accessors; the runtime's typed views write
   * it directly.
   */
  protected int position = -1;

  /** Creates a cursor that points at no element yet. */
  protected Cursor() {}

  /** {@return the position this cursor points at, {@code -1} before the first move} */
  public final int currentPosition() {
    return position;
  }
}
