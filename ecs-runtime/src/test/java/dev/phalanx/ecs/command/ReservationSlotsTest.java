package dev.phalanx.ecs.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.Registry;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A table of reservation slots of the test's own, so that its filling, its sweep for collected
 * buffers and its growth do not depend on the buffers the JVM made before. A buffer's collection is
 * played by clearing its weak reference. The last test checks the table against a model over random
 * operations.
 */
class ReservationSlotsTest {

  private final Registry registry = new Registry();
  // Strong references: the buffers the table's references stand for stay alive.
  private final List<CommandBuffer> alive = new ArrayList<>();

  private WeakReference<CommandBuffer> buffer() {
    final CommandBuffer buffer = new CommandBuffer(registry);
    alive.add(buffer);
    return new WeakReference<>(buffer);
  }

  @Test
  void slotsAreHandedOutInOrderUntilTheTableIsFull() {
    final ReservationSlots slots = new ReservationSlots(4, 64);
    for (int i = 0; i < 4; i++) {
      final WeakReference<CommandBuffer> ref = buffer();
      assertArrayEquals(new int[] {i, 0}, slots.take(ref));
      assertSame(ref.get(), slots.owner(i));
    }
    assertNull(slots.owner(4), "a slot past the used ones has no owner");
    assertNull(slots.owner(-1));
  }

  @Test
  void aFullTableReusesCollectedSlotsFromWhereItsLastSweepStopped() {
    final ReservationSlots slots = new ReservationSlots(4, 4);
    final List<WeakReference<CommandBuffer>> refs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      refs.add(buffer());
      slots.take(refs.get(i));
      slots.extend(i, 0, 10 * (i + 1));
    }
    refs.get(1).clear();
    refs.get(3).clear();
    assertNull(slots.owner(1), "a collected buffer's slot has no owner");
    assertArrayEquals(new int[] {1, 20}, slots.take(buffer()), "numbers go on where they stopped");
    refs.get(0).clear();
    // The sweep goes on past slot 1: slot 3 before slot 0.
    assertArrayEquals(new int[] {3, 40}, slots.take(buffer()));
    // Past the last used slot, the sweep starts over.
    assertArrayEquals(new int[] {0, 10}, slots.take(buffer()));
    assertThrows(IllegalStateException.class, () -> slots.take(buffer()), "table full");
  }

  @Test
  void theTableDoublesWhileEveryBufferIsAliveUpToItsLimit() {
    final ReservationSlots slots = new ReservationSlots(2, 8);
    final List<WeakReference<CommandBuffer>> refs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      refs.add(buffer());
      assertArrayEquals(new int[] {i, 0}, slots.take(refs.get(i)));
      slots.extend(i, 0, i + 100);
    }
    for (int i = 0; i < 8; i++) {
      assertSame(refs.get(i).get(), slots.owner(i), "slot " + i + " kept across growth");
    }
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> slots.take(buffer()));
    assertEquals("too many live command buffers", refused.getMessage());
    refs.get(5).clear();
    assertArrayEquals(new int[] {5, 105}, slots.take(buffer()), "drawn numbers kept by growth");
  }

  @Test
  void aHandedOverSlotGoesToTheNextBufferAtOnce() {
    final ReservationSlots slots = new ReservationSlots(4, 4);
    for (int i = 0; i < 3; i++) {
      slots.take(buffer());
    }
    slots.extend(1, 0, 77);
    slots.handOver(1);
    assertNull(slots.owner(1), "a handed-over slot has no owner");
    final WeakReference<CommandBuffer> next = buffer();
    assertArrayEquals(new int[] {1, 77}, slots.take(next));
    assertSame(next.get(), slots.owner(1));
    // Only once: the buffer after takes a fresh slot.
    assertArrayEquals(new int[] {3, 0}, slots.take(buffer()));
  }

  @Test
  void aRetiredSlotIsNeverReused() {
    final ReservationSlots slots = new ReservationSlots(2, 2);
    final WeakReference<CommandBuffer> first = buffer();
    slots.take(first);
    slots.take(buffer());
    slots.retire(0);
    assertNull(slots.owner(0), "a retired slot has no owner");
    first.clear();
    assertThrows(IllegalStateException.class, () -> slots.take(buffer()), "slot 0 stays retired");
  }

  @Test
  void aSlotWhoseNumbersAreSpentIsRetiredWhenTaken() {
    final ReservationSlots slots = new ReservationSlots(2, 4);
    final WeakReference<CommandBuffer> a = buffer();
    final WeakReference<CommandBuffer> b = buffer();
    slots.take(a);
    slots.take(b);
    slots.extend(0, ReservationSlots.RENUMBER_AT - 1, 1);
    slots.extend(1, ReservationSlots.RENUMBER_AT - 2, 1);
    a.clear();
    b.clear();
    // Slot 0 reached RENUMBER_AT: retired on the way; slot 1 stops one short of it.
    final WeakReference<CommandBuffer> next = buffer();
    assertArrayEquals(new int[] {1, ReservationSlots.RENUMBER_AT - 1}, slots.take(next));
    assertNull(slots.owner(0));
    assertSame(next.get(), slots.owner(1));
    // Both used slots are taken or retired: the table grows.
    assertArrayEquals(new int[] {2, 0}, slots.take(buffer()));
  }

  @Test
  void aHandedOverSlotWhoseNumbersAreSpentIsRetiredToo() {
    final ReservationSlots slots = new ReservationSlots(4, 4);
    slots.take(buffer());
    slots.extend(0, ReservationSlots.RENUMBER_AT, 5);
    slots.handOver(0);
    assertArrayEquals(new int[] {1, 0}, slots.take(buffer()));
    assertNull(slots.owner(0));
  }

  @Test
  void extendingStopsAtTheLargestNumber() {
    final ReservationSlots slots = new ReservationSlots(1, 1);
    slots.take(buffer());
    assertEquals(1034, slots.extend(0, 10, 1024));
    assertEquals(Integer.MAX_VALUE, slots.extend(0, Integer.MAX_VALUE - 3, 1024));
    assertEquals(Integer.MAX_VALUE, slots.extend(0, Integer.MAX_VALUE - 3, 3));
    assertEquals(Integer.MAX_VALUE - 1, slots.extend(0, Integer.MAX_VALUE - 3, 2));
  }

  @Test
  void theSharedTableOwnsEveryBuffersSlot() {
    final CommandBuffer buffer = new CommandBuffer(registry);
    final long handle = buffer.create();
    final int slot = dev.phalanx.ecs.Entity.index(handle) & 0x7fff_ffff;
    assertSame(buffer, ReservationSlots.SHARED.owner(slot));
  }

  /** The table against a model: a list of slots, each owner and numbers drawn. */
  @Test
  void matchesAModelOverRandomOperations() {
    for (int seed = 0; seed < 40; seed++) {
      final Random random = new Random(seed);
      final int first = 1 + random.nextInt(3);
      final int max = first << random.nextInt(3);
      final ReservationSlots slots = new ReservationSlots(first, max);
      final List<WeakReference<CommandBuffer>> owners = new ArrayList<>();
      final List<Integer> drawn = new ArrayList<>();
      final List<Boolean> retired = new ArrayList<>();
      int capacity = first;
      int sweep = 0;
      int handOver = -1;
      for (int step = 0; step < 60; step++) {
        final int op = random.nextInt(6);
        final String where = "seed " + seed + " step " + step;
        if (op <= 1) {
          final WeakReference<CommandBuffer> ref = buffer();
          // The model's choice of slot.
          int slot = -1;
          boolean full = false;
          while (true) {
            if (handOver >= 0) {
              slot = handOver;
              handOver = -1;
            } else if (owners.size() < capacity) {
              owners.add(null);
              drawn.add(0);
              retired.add(false);
              slot = owners.size() - 1;
            } else {
              slot = -1;
              for (int k = 0; k < owners.size(); k++) {
                final int s = (sweep + k) % owners.size();
                if (!retired.get(s) && owners.get(s).get() == null) {
                  slot = s;
                  sweep = s + 1;
                  break;
                }
              }
              if (slot < 0) {
                if (capacity >= max) {
                  full = true;
                  break;
                }
                capacity *= 2;
                continue;
              }
            }
            if (drawn.get(slot) >= ReservationSlots.RENUMBER_AT) {
              retired.set(slot, true);
              continue;
            }
            break;
          }
          if (full) {
            assertThrows(IllegalStateException.class, () -> slots.take(ref), where);
          } else {
            owners.set(slot, ref);
            assertArrayEquals(new int[] {slot, drawn.get(slot)}, slots.take(ref), where);
          }
        } else if (owners.isEmpty()) {
          continue;
        } else {
          final int slot = random.nextInt(owners.size());
          if (op == 2) {
            owners.get(slot).clear();
          } else if (op == 3) {
            final int from =
                random.nextBoolean() ? random.nextInt(100) : ReservationSlots.RENUMBER_AT - 1;
            final int more = random.nextInt(3);
            assertEquals(from + more, slots.extend(slot, from, more), where);
            drawn.set(slot, from + more);
          } else if (op == 4 && handOver < 0 && !retired.get(slot)) {
            slots.handOver(slot);
            owners.set(slot, new WeakReference<>(null));
            handOver = slot;
          } else if (op == 5 && slot != handOver) {
            slots.retire(slot);
            retired.set(slot, true);
          }
        }
        for (int s = -1; s <= owners.size(); s++) {
          final CommandBuffer expected =
              s < 0 || s >= owners.size() || retired.get(s) ? null : owners.get(s).get();
          assertSame(expected, slots.owner(s), where + " slot " + s);
        }
      }
    }
  }
}
