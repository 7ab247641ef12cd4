package dev.phalanx.examples.particles;

import java.util.Arrays;

/**
 * A growable list of entity handles, reused from frame to frame so that collecting the dying costs
 * no allocation once it has grown to its working size.
 */
final class LongBuffer {

  private long[] items = new long[1024];
  private int size;

  void clear() {
    size = 0;
  }

  void add(final long value) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    items[size++] = value;
  }

  int size() {
    return size;
  }

  long get(final int index) {
    return items[index];
  }
}
