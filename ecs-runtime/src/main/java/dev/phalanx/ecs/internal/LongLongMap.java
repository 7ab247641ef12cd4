package dev.phalanx.ecs.internal;

import java.util.Arrays;

/**
 * An open-addressing map from {@code long} to {@code long} (linear probing, backward-shift
 * deletion), so that snapshot code maps entity handles without boxing. {@code -1} (the null entity
 * handle) cannot be a key. O(1) expected per operation; grows at half load.
 */
public final class LongLongMap {

  // The null entity handle, never a key: marks an empty slot. A leaf package names no core class.
  private static final long EMPTY = -1L;

  private long[] keys;
  private long[] values;
  private int size;

  public LongLongMap(final int expected) {
    int capacity = 16;
    while (capacity < expected * 2L && capacity < (1 << 30)) {
      capacity <<= 1;
    }
    keys = new long[capacity];
    values = new long[capacity];
    Arrays.fill(keys, EMPTY);
  }

  public int size() {
    return size;
  }

  /** Returns the number of slots; {@link #keyAt} is {@code -1} for empty ones. */
  public int capacity() {
    return keys.length;
  }

  public long keyAt(final int slot) {
    return keys[slot];
  }

  public long valueAt(final int slot) {
    return values[slot];
  }

  private static int hash(final long key) {
    final long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  private int slot(final long key) {
    final int mask = keys.length - 1;
    int slot = hash(key) & mask;
    while (keys[slot] != EMPTY && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  public boolean containsKey(final long key) {
    return keys[slot(key)] == key;
  }

  /** Returns the value of {@code key}, or {@code missing}. */
  public long get(final long key, final long missing) {
    final int slot = slot(key);
    return keys[slot] == key ? values[slot] : missing;
  }

  public void put(final long key, final long value) {
    assert EMPTY != key;
    int slot = slot(key);
    if (keys[slot] != key) {
      if (2 * (size + 1) > keys.length) {
        grow();
        slot = slot(key);
      }
      keys[slot] = key;
      size++;
    }
    values[slot] = value;
  }

  public void remove(final long key) {
    final int mask = keys.length - 1;
    int hole = slot(key);
    if (keys[hole] != key) {
      return;
    }
    size--;
    // Backward shift: move up every later entry of the cluster whose home is at or before the hole.
    for (int next = (hole + 1) & mask; keys[next] != EMPTY; next = (next + 1) & mask) {
      final int home = hash(keys[next]) & mask;
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        keys[hole] = keys[next];
        values[hole] = values[next];
        hole = next;
      }
    }
    keys[hole] = EMPTY;
  }

  public void clear() {
    Arrays.fill(keys, EMPTY);
    size = 0;
  }

  private void grow() {
    final long[] oldKeys = keys;
    final long[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new long[oldKeys.length * 2];
    Arrays.fill(keys, EMPTY);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }
}
