package dev.phalanx.ecs.command;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * The JVM-wide table of reserved-handle slots. A buffer holds one slot for its life; a slot is
 * reused only once its buffer has been collected, and its reservation numbers are never drawn twice
 * (each slot remembers how far they went): so no two handles, ever, are equal, and a handle names
 * at most one buffer, whatever the number of buffers created (there is no id to wrap).
 */
final class ReservationSlots {
  // Past this many numbers at the end of an apply, a buffer moves to a fresh slot, so that one
  // apply's reservations never run out of numbers.
  static final int RENUMBER_AT = 1 << 30;

  private static WeakReference<?>[] owners = new WeakReference<?>[64];
  // Per slot, the numbers below this one have been handed out.
  private static int[] drawn = new int[64];
  private static int used;
  // Where the next search for a collected owner's slot starts.
  private static int sweep;

  private ReservationSlots() {}

  /** Returns {slot, first free number} for a new buffer. */
  static synchronized int[] take(final WeakReference<CommandBuffer> buffer) {
    int slot = -1;
    if (handOver >= 0) {
      slot = handOver;
      handOver = -1;
    } else if (used < owners.length) {
      slot = used++;
    } else {
      slot = collected();
      if (slot < 0) {
        if (owners.length >= Integer.MAX_VALUE / 2) {
          throw new IllegalStateException("too many live command buffers");
        }
        owners = Arrays.copyOf(owners, owners.length * 2);
        drawn = Arrays.copyOf(drawn, owners.length);
        slot = used++;
      }
    }
    owners[slot] = buffer;
    if (drawn[slot] >= RENUMBER_AT) {
      // Its numbers are spent: retired for good (once per 2^30 reservations of one slot).
      owners[slot] = RETIRED;
      return take(buffer);
    }
    return new int[] {slot, drawn[slot]};
  }

  private static final WeakReference<Object> RETIRED = new WeakReference<>(ReservationSlots.class);

  /** Returns the slot of a collected buffer, or -1 if none. */
  private static int collected() {
    for (int k = 0; k < used; k++) {
      final int slot = (sweep + k) % used;
      if (null == owners[slot].get()) {
        sweep = slot + 1;
        return slot;
      }
    }
    return -1;
  }

  // A slot given up by reuseSlotOf, taken by the next buffer created; -1 if none.
  private static int handOver = -1;

  /** Gives up {@code slot} as if its buffer had been collected: the next buffer takes it. */
  static synchronized void handOver(final int slot) {
    owners[slot] = GONE;
    handOver = slot;
  }

  private static final WeakReference<Object> GONE = new WeakReference<>(null);

  /** Lets {@code slot} hand out numbers up to {@code from + more}; returns the new limit. */
  static synchronized int extend(final int slot, final int from, final int more) {
    final long limit = Math.min((long) Integer.MAX_VALUE, (long) from + more);
    drawn[slot] = (int) limit;
    return (int) limit;
  }

  /** Retires {@code slot} for good: its numbers are nearly spent. */
  static synchronized void retire(final int slot) {
    owners[slot] = RETIRED;
  }

  /** Returns the live buffer of {@code slot}, or {@code null}. */
  static synchronized CommandBuffer owner(final int slot) {
    if (slot < 0 || slot >= used) {
      return null;
    }
    final Object owner = owners[slot].get();
    return owner instanceof CommandBuffer buffer ? buffer : null;
  }
}
