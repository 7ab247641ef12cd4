package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;

/**
 * A map from entity handles to {@code long} values kept in flat arrays indexed by the handle's
 * index, for the handles of one remote world, whose indices are dense: one array read and one
 * compare per look-up, no hashing. A handle whose index slot holds another handle (two versions of
 * one index mapped at once), or whose index lies beyond the flat span, goes to a hash overflow.
 * Package-private: {@link DeltaLoader}'s remote-to-local map and its staging marks.
 *
 * <p>Invariants: a key is in the flat slot of its index or in the overflow, never both; {@link
 * Entity#NULL} is never a key. The flat span grows only to {@code max(span floor, 2 * (size + 1))}
 * indices, so an untrusted stream naming huge indices cannot make it allocate more than a few
 * arrays' worth of what it maps; the span floor ({@link #spanAtLeast}) lets a set of a few marks
 * share the span of a larger map. {@link #clear} is O(1) (a stamp per slot) plus the overflow's
 * clear.
 *
 * <p>Costs: 24 bytes per index of the span, a slot's key, value and stamp side by side (one cache
 * line for a look-up); O(1) per operation, expected O(1) in the overflow.
 */
final class EntityIndexMap implements RemapLog.Mapping {

  // Per index i: slots[3i] the handle, slots[3i + 1] its value, slots[3i + 2] the stamp; the slot
  // is in use iff its stamp is stamp.
  private long[] slots = new long[0];
  // Three longs per index in one array.
  private static final int MAX_SPAN = Integer.MAX_VALUE / 3 - 8;
  private int span;
  private long stamp = 1;
  private int flatSize;
  private int spanFloor = 1024;
  // What does not fit the flat slots (null until needed).
  private LongLongMap overflow;

  /** {@return the number of keys} */
  int size() {
    return flatSize + (null == overflow ? 0 : overflow.size());
  }

  /** {@return the number of keys held in the overflow (for tests)} */
  int overflowSize() {
    return null == overflow ? 0 : overflow.size();
  }

  /** {@return the number of indices the flat arrays span} */
  int span() {
    return span;
  }

  /**
   * Lets the flat arrays grow to {@code span} indices whatever the size (bounded by the caller).
   */
  void spanAtLeast(final int span) {
    spanFloor = Math.max(spanFloor, span);
  }

  /** Empties the map (O(1) plus the overflow's capacity). */
  void clear() {
    flatSize = 0;
    stamp++; // 64 bits: never wraps back to a stamp in use
    if (null != overflow && 0 != overflow.size()) {
      overflow = overflow.capacity() > 1024 ? null : clearOverflow(overflow);
    }
  }

  private static LongLongMap clearOverflow(final LongLongMap map) {
    map.clear();
    return map;
  }

  boolean containsKey(final long key) {
    final int index = Entity.index(key);
    if (index >= 0 && index < span && slots[3 * index] == key && slots[3 * index + 2] == stamp) {
      return true;
    }
    return null != overflow && 0 != overflow.size() && overflow.containsKey(key);
  }

  /** Puts every key of this map into {@code target} under its value: the inverse map. O(span). */
  void invertInto(final LongLongMap target) {
    for (int index = 0; index < span; index++) {
      if (slots[3 * index + 2] == stamp && !Entity.isNull(slots[3 * index + 1])) {
        target.put(slots[3 * index + 1], slots[3 * index]);
      }
    }
    if (null != overflow) {
      for (int slot = 0; slot < overflow.capacity(); slot++) {
        final long key = overflow.keyAt(slot);
        if (!Entity.isNull(key) && !Entity.isNull(overflow.valueAt(slot))) {
          target.put(overflow.valueAt(slot), key);
        }
      }
    }
  }

  /** Returns the value of {@code key}, or {@code missing}. */
  @Override
  public long get(final long key, final long missing) {
    final int index = Entity.index(key);
    if (index >= 0 && index < span && slots[3 * index] == key && slots[3 * index + 2] == stamp) {
      return slots[3 * index + 1];
    }
    return null != overflow && 0 != overflow.size() ? overflow.get(key, missing) : missing;
  }

  @Override
  public void put(final long key, final long value) {
    assert !Entity.isNull(key);
    final int index = Entity.index(key);
    if (index >= 0 && index >= span && index < limit()) {
      grow(index);
    }
    if (index < 0 || index >= span) {
      overflow().put(key, value);
      return;
    }
    final int at = 3 * index;
    if (slots[at + 2] != stamp) {
      slots[at] = key;
      slots[at + 1] = value;
      slots[at + 2] = stamp;
      flatSize++;
      if (null != overflow && 0 != overflow.size()) {
        overflow.remove(key); // it may have waited there while the slot was taken
      }
    } else if (slots[at] == key) {
      slots[at + 1] = value;
    } else {
      overflow().put(key, value);
    }
  }

  @Override
  public void remove(final long key) {
    final int index = Entity.index(key);
    if (index >= 0 && index < span && slots[3 * index] == key && slots[3 * index + 2] == stamp) {
      slots[3 * index + 2] = 0; // stamps start at 1
      flatSize--;
    } else if (null != overflow && 0 != overflow.size()) {
      overflow.remove(key);
    }
  }

  private long limit() {
    return Math.min(MAX_SPAN, Math.max(spanFloor, 2L * (size() + 1)));
  }

  /**
   * Widens the flat span, ahead of {@code expected} more keys whose indices are below {@code
   * indices}, as far as the size rule allows with them counted.
   */
  void reserve(final int indices, final int expected) {
    final long allowed =
        Math.min(MAX_SPAN, Math.max(spanFloor, 2L * (size() + (long) expected + 1)));
    final int wanted = (int) Math.min(allowed, indices);
    if (wanted > span) {
      resize(wanted);
    }
  }

  private void grow(final int index) {
    resize((int) Math.min(limit(), Math.max(index + 1L, 2L * span)));
  }

  private void resize(final int length) {
    final int old = span;
    slots = Arrays.copyOf(slots, 3 * length); // new slots' stamps are 0, never the stamp
    span = length;
    if (null != overflow && 0 != overflow.size()) {
      rehome(old, length);
    }
  }

  /** Moves the overflow's keys whose index the flat span now covers (and whose slot is free). */
  private void rehome(final int from, final int to) {
    final LongLongMap spill = overflow;
    long[] moving = new long[16];
    int count = 0;
    for (int slot = 0; slot < spill.capacity(); slot++) {
      final long key = spill.keyAt(slot);
      final int index = Entity.index(key);
      if (!Entity.isNull(key) && index >= from && index < to) {
        if (count == moving.length) {
          moving = Arrays.copyOf(moving, 2 * count);
        }
        moving[count++] = key;
      }
    }
    for (int i = 0; i < count; i++) {
      final long key = moving[i];
      final int index = Entity.index(key);
      if (slots[3 * index + 2] != stamp) {
        final long value = spill.get(key, 0);
        spill.remove(key);
        slots[3 * index] = key;
        slots[3 * index + 1] = value;
        slots[3 * index + 2] = stamp;
        flatSize++;
      }
    }
  }

  private LongLongMap overflow() {
    if (null == overflow) {
      overflow = new LongLongMap(16);
    }
    return overflow;
  }
}
