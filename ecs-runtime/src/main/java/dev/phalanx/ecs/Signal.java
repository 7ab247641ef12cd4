package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * An ordered list of {@link ComponentListener}s.
 *
 * <h2>Invariants</h2>
 *
 * <p>Listeners run in the order they were connected; a listener connected twice runs twice. The array
 * is copied on write: connecting or disconnecting during a {@link #publish} takes effect from the next
 * publication, so a publication always runs exactly the listeners connected when it began.
 *
 * <h2>Costs</h2>
 *
 * <p>Publishing to no listener is one array-length check. Each listener is an interface call: with
 * many listener classes on one signal the call site turns megamorphic, so keep listeners few on hot
 * storages.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; listeners run on the thread that changed the storage.
 */
public final class Signal {

  private static final ComponentListener[] NONE = new ComponentListener[0];

  private ComponentListener[] listeners = NONE;

  /** Creates a signal with no listener. */
  public Signal() {}

  /** Appends {@code listener}; it runs after those connected before it. */
  public void connect(final ComponentListener listener) {
    if (null == listener) {
      throw new NullPointerException("listener");
    }
    final ComponentListener[] current = listeners;
    final ComponentListener[] next = Arrays.copyOf(current, current.length + 1);
    next[current.length] = listener;
    listeners = next;
  }

  /**
   * Inserts {@code listener} before every listener connected so far. Groups use it so that they are
   * up to date before user listeners run.
   */
  public void connectFirst(final ComponentListener listener) {
    if (null == listener) {
      throw new NullPointerException("listener");
    }
    final ComponentListener[] current = listeners;
    final ComponentListener[] next = new ComponentListener[current.length + 1];
    next[0] = listener;
    System.arraycopy(current, 0, next, 1, current.length);
    listeners = next;
  }

  /**
   * Removes the most recently connected occurrence of {@code listener} (compared by identity).
   *
   * @return whether it was connected
   */
  public boolean disconnect(final ComponentListener listener) {
    final ComponentListener[] current = listeners;
    for (int i = current.length - 1; i >= 0; i--) {
      if (current[i] == listener) {
        final ComponentListener[] next = new ComponentListener[current.length - 1];
        System.arraycopy(current, 0, next, 0, i);
        System.arraycopy(current, i + 1, next, i, current.length - i - 1);
        listeners = next;
        return true;
      }
    }
    return false;
  }

  /** Returns the number of connected listeners. */
  public int size() {
    return listeners.length;
  }

  /** Returns whether no listener is connected. */
  public boolean isEmpty() {
    return 0 == listeners.length;
  }

  /** Calls every listener connected now, in order. */
  public void publish(final Registry registry, final long entity) {
    final ComponentListener[] current = listeners;
    for (int i = 0; i < current.length; i++) {
      current[i].onEvent(registry, entity);
    }
  }
}
