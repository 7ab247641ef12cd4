package dev.phalanx.ecs.command;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * A table of reserved-handle slots; {@link #SHARED} is the JVM-wide one every buffer takes its slot
 * from. A buffer holds one slot for its life; a slot is reused only once its buffer has been
 * collected, and its reservation numbers are never drawn twice (each slot remembers how far they
 * went): so no two handles, ever, are equal, and a handle names at most one buffer, whatever the
 * number of buffers created (there is no id to wrap). Other tables exist only for tests, which can
 * fill, sweep and grow a table of their own whatever the buffers the JVM made before.
 */
final class ReservationSlots {
  // Past this many numbers at the end of an apply, a buffer moves to a fresh slot, so that one
  // apply's reservations never run out of numbers.
  static final int RENUMBER_AT = 1 << 30;

  /** The table of every command buffer's slot. */
  static final ReservationSlots SHARED = new ReservationSlots(64, Integer.MAX_VALUE / 2);

  private static final WeakReference<Object> RETIRED = new WeakReference<>(ReservationSlots.class);
  private static final WeakReference<Object> GONE = new WeakReference<>(null);

  // The table does not grow past this many slots.
  private final int maxSlots;
  private WeakReference<?>[] owners;
  // Per slot, the numbers below this one have been handed out.
  private int[] drawn;
  private int used;
  // Where the next search for a collected owner's slot starts.
  private int sweep;
  // A slot given up by handOver, taken by the next buffer created; -1 if none.
  private int handOver = -1;

  /**
   * A table of {@code slots} slots at first, growing by doubling up to {@code maxSlots} (a power of
   * two times {@code slots}) while every slot's buffer is alive.
   */
  ReservationSlots(final int slots, final int maxSlots) {
    this.owners = new WeakReference<?>[slots];
    this.drawn = new int[slots];
    this.maxSlots = maxSlots;
  }

  /** Returns {slot, first free number} for a new buffer. */
  synchronized int[] take(final WeakReference<CommandBuffer> buffer) {
    int slot;
    if (handOver >= 0) {
      slot = handOver;
      handOver = -1;
    } else if (used < owners.length) {
      slot = used++;
    } else {
      slot = collected();
      if (slot < 0) {
        if (owners.length >= maxSlots) {
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

  /** Returns the slot of a collected buffer, or -1 if none. */
  private int collected() {
    for (int k = 0; k < used; k++) {
      final int slot = (sweep + k) % used;
      if (null == owners[slot].get()) {
        sweep = slot + 1;
        return slot;
      }
    }
    return -1;
  }

  /** Gives up {@code slot} as if its buffer had been collected: the next buffer takes it. */
  synchronized void handOver(final int slot) {
    owners[slot] = GONE;
    handOver = slot;
  }

  /** Lets {@code slot} hand out numbers up to {@code from + more}; returns the new limit. */
  synchronized int extend(final int slot, final int from, final int more) {
    final long limit = Math.min((long) Integer.MAX_VALUE, (long) from + more);
    drawn[slot] = (int) limit;
    return (int) limit;
  }

  /** Retires {@code slot} for good: its numbers are nearly spent. */
  synchronized void retire(final int slot) {
    owners[slot] = RETIRED;
  }

  /** Returns the live buffer of {@code slot}, or {@code null}. */
  synchronized CommandBuffer owner(final int slot) {
    if (slot < 0 || slot >= used) {
      return null;
    }
    final Object owner = owners[slot].get();
    return owner instanceof CommandBuffer buffer ? buffer : null;
  }
}
