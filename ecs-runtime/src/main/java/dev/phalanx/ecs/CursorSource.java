package dev.phalanx.ecs;

/**
 * A storage that hands out typed cursors: every generated struct-of-arrays storage implements it
 * ({@code Position_Storage implements CursorSource<Position_Cursor>}). It is what lets {@link
 * Registry#typedView(ComponentType, ComponentType)} infer the cursor types of a typed view from the
 * component types' keys.
 *
 * @param <K> the cursor class
 */
public interface CursorSource<K extends Cursor> {

  /**
   * Creates a new cursor over this storage, pointing at no element yet (allocates the cursor: keep
   * it).
   *
   * @return a new cursor
   */
  K cursor();
}
