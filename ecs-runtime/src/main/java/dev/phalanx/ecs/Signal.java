package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.Arrays;

/**
 * An ordered list of {@link ComponentListener}s, published by a storage when a component is
 * constructed, updated or about to be destroyed.
 *
 * <h2>Invariants</h2>
 *
 * <p>Listeners run in the order they were connected; a listener connected twice runs twice. The
 * array is copied on write: connecting or disconnecting during a publication takes effect from the
 * next one, so a publication always runs exactly the listeners connected when it began.
 *
 * <h2>Listeners that throw</h2>
 *
 * <p>A listener's exception never stops a publication half-way or the change that published it:
 * every other listener still runs, the change completes, and the first exception is rethrown
 * afterwards with the later ones attached as {@linkplain Throwable#getSuppressed() suppressed}.
 * Groups are not listeners: they are kept up to date by the storages themselves, before any
 * listener runs.
 *
 * <h2>Costs</h2>
 *
 * <p>Publishing to no listener is one array-length check. Each listener is an interface call: with
 * many listener classes on one signal the call site turns megamorphic, so keep listeners few on hot
 * storages. Connecting or disconnecting copies the list and, for a storage's or a group's signal,
 * makes the registry's group upkeep decisions again: O(listeners + storages).
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; listeners run on the thread that changed the storage.
 */
public final class Signal {

  private static final ComponentListener[] NONE = new ComponentListener[0];

  private ComponentListener[] listeners = NONE;

  // Told after every change of the listener list, if set: storages and groups keep decisions that
  // depend on whether their signals are empty (see Storage.refreshDirectUpkeep).
  private Runnable watcher;

  /** Creates a signal with no listener. */
  public Signal() {}

  /** Sets the one watcher told after each change of the listener list. */
  final void watch(final Runnable onChange) {
    watcher = onChange;
  }

  private void changed(final ComponentListener[] next) {
    listeners = next;
    if (null != watcher) {
      watcher.run();
    }
  }

  /**
   * Appends {@code listener}; it runs after those connected before it.
   *
   * @param listener the listener to run on each publication
   */
  public void connect(final ComponentListener listener) {
    if (null == listener) {
      throw new NullPointerException("listener");
    }
    final ComponentListener[] current = listeners;
    final ComponentListener[] next = Arrays.copyOf(current, current.length + 1);
    next[current.length] = listener;
    changed(next);
  }

  /**
   * Inserts {@code listener} before every listener connected so far.
   *
   * @param listener the listener to run on each publication
   */
  public void connectFirst(final ComponentListener listener) {
    if (null == listener) {
      throw new NullPointerException("listener");
    }
    final ComponentListener[] current = listeners;
    final ComponentListener[] next = new ComponentListener[current.length + 1];
    next[0] = listener;
    System.arraycopy(current, 0, next, 1, current.length);
    changed(next);
  }

  /**
   * Removes the most recently connected occurrence of {@code listener} (compared by identity).
   *
   * @param listener the listener to remove
   * @return whether it was connected
   */
  public boolean disconnect(final ComponentListener listener) {
    final ComponentListener[] current = listeners;
    for (int i = current.length - 1; i >= 0; i--) {
      if (current[i] == listener) {
        final ComponentListener[] next = new ComponentListener[current.length - 1];
        System.arraycopy(current, 0, next, 0, i);
        System.arraycopy(current, i + 1, next, i, current.length - i - 1);
        changed(next);
        return true;
      }
    }
    return false;
  }

  /** {@return the number of connected listeners} */
  public int size() {
    return listeners.length;
  }

  /** {@return whether no listener is connected} */
  public boolean isEmpty() {
    return 0 == listeners.length;
  }

  /**
   * Calls every listener connected now, in order, even when one throws; returns {@code failure}, or
   * the first exception thrown if {@code failure} is {@code null}, with later ones suppressed.
   */
  Throwable publish(final Registry registry, final long entity, final Throwable failure) {
    final ComponentListener[] current = listeners;
    Throwable first = failure;
    for (int i = 0; i < current.length; i++) {
      try {
        current[i].onEvent(registry, entity);
      } catch (final Throwable thrown) {
        first = Failures.add(first, thrown);
      }
    }
    return first;
  }
}
