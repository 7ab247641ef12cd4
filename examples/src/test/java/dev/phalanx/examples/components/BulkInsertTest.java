package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.SnapshotDump;
import dev.phalanx.examples.tracking.Temperature_Storage;
import dev.phalanx.examples.tracking.Temperature_Traits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bulk insertion ({@code insert(entities, from, to, fields...)}, {@code insertColumns}, the generic
 * {@code Storage.insert}) and {@code Registry.reserve}: the same result as emplacing one by one,
 * refusals that change nothing, groups, listeners that throw at every call, tags, tracked and
 * in-place storages, no allocation once room is reserved.
 */
class BulkInsertTest {

  private static final ComponentType<?, ?>[] MOVING = {Position_Traits.TYPE, Velocity_Traits.TYPE};

  /** Thrown by the injected listener. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected at call " + call);
    }
  }

  /** Logs every call and throws at the k-th (never when k is 0). */
  static final class Log implements ComponentListener {
    final String name;
    final List<String> events;
    final int[] calls;
    final int throwAt;

    Log(final String name, final List<String> events, final int[] calls, final int throwAt) {
      this.name = name;
      this.events = events;
      this.calls = calls;
      this.throwAt = throwAt;
    }

    @Override
    public void onEvent(final Registry registry, final long entity) {
      events.add(name + " " + Entity.toString(entity));
      if (++calls[0] == throwAt) {
        throw new Injected(throwAt);
      }
    }
  }

  private static String print(final Registry registry) {
    final long[] live = Arrays.copyOf(registry.entities().packed(), registry.alive());
    Arrays.sort(live);
    final StringBuilder text = new StringBuilder();
    try {
      SnapshotDump.write(registry, live, text);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
    return Arrays.toString(live) + text.substring(text.indexOf("\"components\""));
  }

  private static float[] floats(final int n, final float scale) {
    final float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = i * scale;
    }
    return values;
  }

  @Test
  void columnsAndOneValueGiveWhatEmplacingOneByOneGives() {
    final int n = 1000;
    final Registry bulk = new Registry();
    final long[] entities = new long[n];
    bulk.create(entities);
    bulk.storage(Position_Traits.TYPE)
        .insertColumns(entities, 0, n, floats(n, 0.5f), floats(n, 2f));
    bulk.storage(Velocity_Traits.TYPE).insert(entities, 100, 900, 3f, -1f);

    final Registry single = new Registry();
    for (int i = 0; i < n; i++) {
      final long e = single.create();
      single.storage(Position_Traits.TYPE).emplace(e, i * 0.5f, i * 2f);
      if (i >= 100 && i < 900) {
        single.storage(Velocity_Traits.TYPE).emplace(e, 3f, -1f);
      }
    }
    assertEquals(print(single), print(bulk));
    assertEquals(List.of(), bulk.verify());
    // Appended in range order.
    final Position_Storage positions = bulk.storage(Position_Traits.TYPE);
    for (int i = 0; i < n; i++) {
      assertEquals(entities[i], positions.at(i));
    }
  }

  @Test
  void anEmptyRangeIsANoOp() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    positions.insert(new long[0], 0, 0, 1f, 2f);
    positions.insertColumns(new long[3], 2, 2, new float[3], new float[3]);
    assertTrue(positions.isEmpty());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void refusalsChangeNothingAndPublishNothing() {
    final Registry registry = new Registry();
    final long[] entities = new long[10];
    registry.create(entities);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    positions.emplace(entities[7], 1f, 1f);
    final int[] calls = {0};
    positions.onConstruct().connect(new Log("construct", new ArrayList<>(), calls, 0));
    final String before = print(registry);

    // Entity 7 already has one: the message names it.
    final IllegalArgumentException has =
        assertThrows(
            IllegalArgumentException.class, () -> positions.insert(entities, 0, 10, 0f, 0f));
    assertTrue(has.getMessage().contains(Entity.toString(entities[7])), has.getMessage());
    assertTrue(has.getMessage().contains("already has one"), has.getMessage());

    // Listed twice.
    final long[] twice = {entities[0], entities[1], entities[2], entities[1]};
    final IllegalArgumentException duplicate =
        assertThrows(IllegalArgumentException.class, () -> positions.insert(twice, 0, 4, 0f, 0f));
    assertTrue(duplicate.getMessage().contains("listed twice"), duplicate.getMessage());
    assertTrue(
        duplicate.getMessage().contains(Entity.toString(entities[1])), duplicate.getMessage());

    // Not valid: destroyed.
    final long dead = registry.create();
    registry.destroy(dead);
    final long[] withDead = {entities[0], dead};
    final IllegalArgumentException invalid =
        assertThrows(
            IllegalArgumentException.class, () -> positions.insert(withDead, 0, 2, 0f, 0f));
    assertTrue(invalid.getMessage().contains(Entity.toString(dead)), invalid.getMessage());

    // Not a handle.
    final long[] nullHandle = {entities[0], Entity.NULL};
    assertThrows(IllegalArgumentException.class, () -> positions.insert(nullHandle, 0, 2, 0f, 0f));

    // Ranges and columns.
    assertThrows(IndexOutOfBoundsException.class, () -> positions.insert(entities, 5, 11, 0f, 0f));
    assertThrows(IndexOutOfBoundsException.class, () -> positions.insert(entities, 5, 4, 0f, 0f));
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> positions.insertColumns(entities, 0, 5, new float[5], new float[4]));

    // A group over the storage while an iteration runs: refused as a whole.
    registry.owningGroup(MOVING);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final String grouped = print(registry);
    final long[] fresh = {entities[0], entities[1]};
    registry
        .view(Position_Traits.TYPE)
        .each(
            e ->
                assertThrows(
                    ConcurrentModificationException.class,
                    () -> velocities.insert(fresh, 0, 2, 1f, 1f)));

    assertEquals(before, grouped);
    assertEquals(before, print(registry));
    assertEquals(0, calls[0]);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aLockedStorageRefusesTheWholeRange() {
    final Registry registry = new Registry();
    final long[] entities = new long[4];
    registry.create(entities);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    positions.emplace(entities[0], 1f, 1f);
    positions.emplace(entities[1], 2f, 2f);
    final String sorted = print(registry);
    final int[] refused = {0};
    // A sort locks the storage while its comparator runs.
    positions.sort(
        (a, b) -> {
          final ConcurrentModificationException locked =
              assertThrows(
                  ConcurrentModificationException.class,
                  () -> positions.insert(entities, 2, 4, 0f, 0f));
          assertTrue(locked.getMessage().contains("Position"), locked.getMessage());
          refused[0]++;
          return Long.compare(a, b);
        });
    assertTrue(refused[0] > 0);
    assertEquals(sorted, print(registry));
    assertEquals(2, positions.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void anOwningGroupOverBothTypesIsKeptUpToDate() {
    for (final boolean listened : new boolean[] {false, true}) {
      final Registry registry = new Registry();
      final OwningGroup group = registry.owningGroup(MOVING);
      final List<String> events = new ArrayList<>();
      final int[] calls = {0};
      if (listened) {
        group.onEnter().connect(new Log("enter", events, calls, 0));
        registry
            .storage(Velocity_Traits.TYPE)
            .onConstruct()
            .connect(new Log("velocity", events, calls, 0));
      }
      final int n = 300;
      final long[] entities = new long[n];
      registry.create(entities);
      // Positions for all, velocities for every other entity, in two ranges.
      registry
          .storage(Position_Traits.TYPE)
          .insertColumns(entities, 0, n, floats(n, 1f), floats(n, 2f));
      final long[] odd = new long[n / 2];
      for (int i = 0; i < odd.length; i++) {
        odd[i] = entities[2 * i + 1];
      }
      registry.storage(Velocity_Traits.TYPE).insert(odd, 0, odd.length, 5f, 6f);
      assertEquals(n / 2, group.size());
      for (final long e : odd) {
        assertTrue(group.contains(e));
      }
      assertEquals(List.of(), registry.verify());
      if (listened) {
        // Per entity, in range order: its group entry, then its construction.
        final List<String> expected = new ArrayList<>();
        for (final long e : odd) {
          expected.add("enter " + Entity.toString(e));
          expected.add("velocity " + Entity.toString(e));
        }
        assertEquals(expected, events);
      }
    }
  }

  @Test
  void aListenerThrowingAtAnyCallStopsNothing() {
    final int n = 6;
    // Three listeners per entity: a group entry, then two construction listeners.
    final int total = 3 * n;
    String reference = null;
    List<String> referenceEvents = null;
    for (int k = 0; k <= total; k++) {
      final Registry registry = new Registry();
      final OwningGroup group = registry.owningGroup(MOVING);
      final List<String> events = new ArrayList<>();
      final int[] calls = {0};
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      group.onEnter().connect(new Log("enter", events, calls, k));
      velocities.onConstruct().connect(new Log("first", events, calls, k));
      velocities.onConstruct().connect(new Log("second", events, calls, k));
      final long[] entities = new long[n];
      registry.create(entities);
      registry.storage(Position_Traits.TYPE).insert(entities, 0, n, 1f, 2f);
      if (0 == k) {
        velocities.insertColumns(entities, 0, n, floats(n, 1f), floats(n, 3f));
        reference = print(registry);
        referenceEvents = events;
      } else {
        final int throwAt = k;
        final Injected thrown =
            assertThrows(
                Injected.class,
                () -> velocities.insertColumns(entities, 0, n, floats(n, 1f), floats(n, 3f)));
        assertEquals("injected at call " + throwAt, thrown.getMessage());
        // The insertions stand, every listener ran: the world and the calls as without a fault.
        assertEquals(reference, print(registry), "k = " + k);
        assertEquals(referenceEvents, events, "k = " + k);
      }
      assertEquals(total, calls[0]);
      assertEquals(n, group.size());
      assertEquals(List.of(), registry.verify(), "k = " + k);
    }
  }

  @Test
  void aListenerMayChangeTheWorld() {
    // A construction listener removes the component from the next entity of the range, which is
    // in place already: it is removed, and its own construction is still announced.
    final Registry registry = new Registry();
    final long[] entities = new long[4];
    registry.create(entities);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final List<Long> seen = new ArrayList<>();
    positions
        .onConstruct()
        .connect(
            (r, e) -> {
              seen.add(e);
              if (e == entities[0]) {
                positions.remove(entities[1]);
              }
            });
    positions.insert(entities, 0, 4, 1f, 1f);
    assertEquals(List.of(entities[0], entities[1], entities[2], entities[3]), seen);
    assertFalse(positions.contains(entities[1]));
    assertEquals(3, positions.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void tagsTrackedAndInPlaceStorages() {
    final Registry registry = new Registry();
    final long[] entities = new long[40];
    registry.create(entities);

    // A tag: the generic form, no value needed.
    registry.storage(Frozen_Traits.TYPE).insert(entities, 0, 40, null);
    assertEquals(40, registry.storage(Frozen_Traits.TYPE).size());

    // Tracked: every element stamped with the current tick.
    registry.advanceChangeTick();
    final Temperature_Storage temperatures = registry.storage(Temperature_Traits.TYPE);
    temperatures.insertColumns(entities, 0, 40, floats(40, 1f));
    for (int i = 0; i < 40; i++) {
      assertEquals(registry.changeTick(), temperatures.changeTickAt(i));
      assertEquals(i, temperatures.celsius(entities[i]));
    }

    // In place: holes stay, the range is appended after them; pageSize 8 makes several runs.
    final Slot_Storage slots = registry.storage(Slot_Traits.TYPE);
    for (int i = 0; i < 10; i++) {
      slots.emplace(entities[i], i, "single " + i);
    }
    slots.remove(entities[3]);
    slots.remove(entities[5]);
    final String[] names = new String[40];
    final int[] values = new int[40];
    for (int i = 0; i < 40; i++) {
      names[i] = "bulk " + i;
      values[i] = 100 + i;
    }
    slots.insertColumns(entities, 10, 40, values, names);
    assertEquals(40, slots.size());
    assertTrue(slots.hasTombstones());
    for (int i = 10; i < 40; i++) {
      assertEquals(i, slots.indexOf(entities[i]));
      assertEquals("bulk " + i, slots.name(entities[i]));
      assertEquals(100 + i, slots.value(entities[i]));
    }
    slots.insert(new long[] {entities[3], entities[5]}, 0, 2, 7, "shared");
    assertEquals("shared", slots.name(entities[3]));
    assertEquals(7, slots.value(entities[5]));
    assertEquals(42, slots.size());
    assertEquals(List.of(), registry.verify());

    // An object-like generic insert: one instance's fields copied into each element.
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final Velocity shared = new Velocity(4f, 5f);
    velocities.insert(entities, 0, 40, shared);
    assertEquals(40, velocities.size());
    assertEquals(4f, velocities.dx(entities[39]));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void reserveMakesRoomWithoutCreatingAnything() {
    final Registry registry = new Registry();
    registry.reserve(5000);
    assertEquals(0, registry.alive());
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    positions.reserve(5000);
    assertTrue(positions.isEmpty());
    assertTrue(positions.pageCount() * positions.pageSize() >= 5000);
    assertEquals(List.of(), registry.verify());
    assertThrows(IllegalArgumentException.class, () -> registry.reserve(-1));
  }

  @Test
  void theBulkPathAllocatesNothingOnceRoomIsReserved() {
    final int n = 10_000;
    final Registry registry = new Registry();
    registry.reserve(n);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    positions.reserve(n);
    velocities.reserve(n);
    final long[] entities = new long[n];
    final float[] x = floats(n, 1f);
    final float[] y = floats(n, 2f);
    final Runnable round =
        () -> {
          registry.create(entities);
          positions.insertColumns(entities, 0, n, x, y);
          velocities.insert(entities, 0, n, 1f, 1f);
          registry.destroy(entities, 0, n);
        };
    for (int i = 0; i < 2000; i++) {
      round.run();
    }
    assertEquals(0, allocatedBy(round));
    // And with an owning group over both.
    final OwningGroup group = registry.owningGroup(MOVING);
    for (int i = 0; i < 2000; i++) {
      round.run();
    }
    assertEquals(0, allocatedBy(round));
    assertEquals(0, group.size());
    assertEquals(List.of(), registry.verify());
  }

  /** The least bytes the thread allocated running {@code action} 20 times, over 5 attempts. */
  private static long allocatedBy(final Runnable action) {
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long start = threads.getThreadAllocatedBytes(id);
      final long overhead = threads.getThreadAllocatedBytes(id) - start;
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 20; i++) {
        action.run();
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before - overhead);
    }
    return least;
  }
}
