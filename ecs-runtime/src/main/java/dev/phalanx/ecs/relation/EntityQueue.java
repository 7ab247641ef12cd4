package dev.phalanx.ecs.relation;

import java.util.Arrays;

/**
 * A first-in, first-out queue of entity handles in one growing array, emptied as a whole: the
 * worklists of linked destroys and of the destroy rule. Allocates only when it grows.
 */
final class EntityQueue {

  private long[] entities = new long[16];
  private int head;
  private int size;

  /** Appends {@code entity}. */
  void add(final long entity) {
    if (size == entities.length) {
      entities = Arrays.copyOf(entities, size * 2);
    }
    entities[size++] = entity;
  }

  /** {@return whether an entity is left to take} */
  boolean hasNext() {
    return head < size;
  }

  /** {@return the oldest entity not taken yet, which is taken} */
  long next() {
    return entities[head++];
  }

  /** {@return how many entities were added since the last clear} */
  int size() {
    return size;
  }

  /** {@return the {@code at}-th entity added since the last clear, taken or not} */
  long get(final int at) {
    return entities[at];
  }

  /** Forgets every entity (the array is kept). */
  void clear() {
    head = 0;
    size = 0;
  }
}
