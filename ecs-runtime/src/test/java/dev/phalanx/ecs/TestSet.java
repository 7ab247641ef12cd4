package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A sparse set with a payload kept in a plain array indexed by position, so that tests can check
 * that the base moves payloads with their entities through the hooks.
 */
public class TestSet extends SparseSet {

  public long[] payload = new long[0];
  public final List<String> hooks = new ArrayList<>();
  public boolean recordHooks;

  public TestSet(final DeletionPolicy policy) {
    super(policy);
  }

  /** Inserts {@code entity} (single-insert rule: reuses holes) with payload {@code entity * 10}. */
  public int insert(final long entity) {
    final int position = nextPosition();
    prepareSlot((int) entity);
    insertAt(entity, position);
    ensure(position);
    payload[position] = entity * 10;
    return position;
  }

  public int appendEntity(final long entity) {
    final int position = append(entity);
    ensure(position);
    payload[position] = entity * 10;
    return position;
  }

  public void remove(final long entity) {
    final int position = index(entity);
    checkRemoveAt(position, entity, null);
    removeAt(position);
  }

  public void clear() {
    checkRearrange("clear");
    removeAll();
  }

  public long payloadOf(final long entity) {
    return payload[index(entity)];
  }

  private void ensure(final int position) {
    if (position >= payload.length) {
      payload = java.util.Arrays.copyOf(payload, Math.max(16, position * 2 + 1));
    }
  }

  @Override
  protected void moveElement(final int from, final int to) {
    if (recordHooks) {
      hooks.add("move " + from + "->" + to);
    }
    payload[to] = payload[from];
  }

  @Override
  protected void swapElements(final int left, final int right) {
    final long value = payload[left];
    payload[left] = payload[right];
    payload[right] = value;
  }

  @Override
  protected void releaseElement(final int position) {
    if (recordHooks) {
      hooks.add("release " + position);
    }
    payload[position] = -1;
  }

  /** Checks every invariant of the set; returns the live entities mapped to their positions. */
  public Map<Long, Integer> checkInvariants() {
    final Map<Long, Integer> live = new HashMap<>();
    int holes = 0;
    for (int position = 0; position < size(); position++) {
      final long entity = packed()[position];
      if (Entity.isTombstone(entity)) {
        if (DeletionPolicy.IN_PLACE != policy()) {
          throw new AssertionError("tombstone at " + position + " under " + policy());
        }
        holes++;
        continue;
      }
      if (indexOf(entity) != position || !contains(entity)) {
        throw new AssertionError(
            Entity.toString(entity) + " at " + position + " maps to " + indexOf(entity));
      }
      if (payload[position] != entity * 10) {
        throw new AssertionError(
            "payload of " + Entity.toString(entity) + " is " + payload[position]);
      }
      live.put(entity, position);
    }
    // The free list visits every hole exactly once.
    int walked = 0;
    for (int hole = firstHole(); ABSENT != hole; hole = (int) packed()[hole]) {
      if (!Entity.isTombstone(packed()[hole]) || ++walked > holes) {
        throw new AssertionError("free list broken at " + hole);
      }
    }
    if (walked != holes) {
      throw new AssertionError("free list has " + walked + " holes, packed array " + holes);
    }
    return live;
  }
}
