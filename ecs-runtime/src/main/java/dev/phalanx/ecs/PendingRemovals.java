package dev.phalanx.ecs;

import java.util.Arrays;

/**
 * The removals whose destroy signal is being published on one thread: a stack of (storage, entity)
 * pairs, innermost last. {@link ElementRemoval} keeps one per thread, so that a destroy listener
 * that asks again for the removal being announced is a no-op (per thread because in-place storages
 * allow concurrent removals).
 *
 * <p>Invariants kept: the pairs at {@code [0, depth)} are the removals in progress, outermost
 * first; a slot above {@code depth} holds no storage (popping clears it, so that a finished removal
 * keeps no storage reachable). The arrays grow and never shrink.
 */
final class PendingRemovals {
  private Storage<?>[] storages = new Storage<?>[4];
  private long[] entities = new long[4];
  private int depth;

  /** {@return whether the removal of {@code entity} from {@code storage} is being announced} */
  boolean contains(final Storage<?> storage, final long entity) {
    for (int i = depth - 1; i >= 0; i--) {
      if (storages[i] == storage && entities[i] == entity) {
        return true;
      }
    }
    return false;
  }

  /** Registers the removal of {@code entity} from {@code storage} as being announced. */
  void push(final Storage<?> storage, final long entity) {
    if (depth == storages.length) {
      storages = Arrays.copyOf(storages, depth * 2);
      entities = Arrays.copyOf(entities, depth * 2);
    }
    storages[depth] = storage;
    entities[depth] = entity;
    depth++;
  }

  /** Ends the innermost announced removal. */
  void pop() {
    storages[--depth] = null;
  }
}
