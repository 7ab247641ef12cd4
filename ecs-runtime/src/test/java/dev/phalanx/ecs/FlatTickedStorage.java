package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * A custom tracked object storage for tests, shaped as a tracked generated one but simpler: it
 * stamps every write with the current change tick in one flat array (kept in step with the moves
 * and swaps of its elements) and, having no tick pages, leaves {@link Storage#changeTickPages()}
 * empty, so readers ask for ticks element by element. Subclasses add what their tests need.
 *
 * @param <T> the component type
 */
public class FlatTickedStorage<T> extends ObjectStorage<T> {
  private long[] ticks = new long[0];

  /**
   * Creates an empty storage.
   *
   * @param type the storage's component type
   */
  public FlatTickedStorage(final ComponentType<T, ?> type) {
    super(type);
  }

  @Override
  protected void setAt(final int position, final T value) {
    super.setAt(position, value);
    markWritten(position);
  }

  @Override
  protected void markWritten(final int position) {
    if (position >= ticks.length) {
      ticks = Arrays.copyOf(ticks, Math.max(16, 2 * position + 1));
    }
    ticks[position] = changeTick();
  }

  @Override
  protected void moveElement(final int from, final int to) {
    super.moveElement(from, to);
    ticks[to] = ticks[from];
  }

  @Override
  protected void swapElements(final int left, final int right) {
    super.swapElements(left, right);
    final long kept = ticks[left];
    ticks[left] = ticks[right];
    ticks[right] = kept;
  }

  @Override
  public boolean isTracked() {
    return true;
  }

  @Override
  public long changeTickAt(final int position) {
    return ticks[position];
  }
}
