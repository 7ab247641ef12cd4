package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * Typed command recording through generated storages: spawns and deaths recorded from a parallel
 * chunk pass, applied after it; the same world with any number of threads; no allocation once warm.
 */
class CommandsTest {

  /** One frame: entities whose x passed 50 die and spawn a replacement at the origin. */
  private static void frame(
      final MoversQuery movers, final CommandBuffers commands, final ForkJoinPool pool) {
    final Position_Storage positions = movers.positionStorage();
    movers.parallelEachChunk(
        pool,
        (from, to, x, y, dx, dy) -> {
          for (int i = from; i < to; i++) {
            x[i] += dx[i];
          }
        });
    // Each run gets its own buffer: recording from the parallel pass is safe by construction.
    movers.parallelEachChunk(
        pool,
        commands,
        (buffer, entities, pageStart, from, to, x, y, dx, dy) -> {
          for (int i = from; i < to; i++) {
            if (x[i] > 50f) {
              buffer.destroy(entities[pageStart + i]);
              final long spawn = buffer.create();
              positions.emplace(buffer, spawn, 0f, y[i]);
              movers.velocityStorage().emplace(buffer, spawn, 1f, 0f);
            }
          }
        });
    commands.apply();
  }

  private static Registry world() {
    final Registry registry = new Registry();
    for (int i = 0; i < 60_000; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i % 50, i);
      registry.storage(Velocity_Traits.TYPE).emplace(e, 1f + i % 3, 0f);
    }
    return registry;
  }

  private static TreeMap<Long, String> run(final int threads) {
    final Registry registry = world();
    final MoversQuery movers = MoversQuery.of(registry);
    final CommandBuffers commands = new CommandBuffers(registry);
    final ForkJoinPool pool = new ForkJoinPool(threads);
    try {
      for (int i = 0; i < 40; i++) {
        frame(movers, commands, pool);
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(List.of(), registry.verify());
    final TreeMap<Long, String> state = new TreeMap<>();
    final Position_Storage positions = movers.positionStorage();
    for (int position = 0; position < positions.size(); position++) {
      state.put(
          positions.packed()[position], positions.xAt(position) + "," + positions.yAt(position));
    }
    return state;
  }

  @Test
  void skippedTypedCommandsLeaveTheOthersTheirOwnFields() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final long a = registry.create();
    final long dead = registry.create();
    final long c = registry.create();
    final CommandBuffer buffer = new CommandBuffer(registry);
    positions.emplace(buffer, a, 1f, 2f);
    buffer.destroy(dead);
    positions.emplace(buffer, dead, 3f, 4f); // skipped: dead by then
    velocities.emplace(buffer, dead, 9f, 9f); // skipped too
    buffer.attach(c, dead); // skipped: a word of its own
    positions.emplace(buffer, c, 5f, 6f);
    velocities.emplace(buffer, c, 7f, 8f);
    final long spawn = buffer.create();
    positions.emplace(buffer, spawn, 10f, 11f);
    buffer.apply();
    assertEquals(3, buffer.skipped());
    assertEquals(1f, positions.x(a));
    assertEquals(2f, positions.y(a));
    assertEquals(5f, positions.x(c));
    assertEquals(6f, positions.y(c));
    assertEquals(7f, velocities.x(c));
    assertEquals(8f, velocities.y(c));
    final long created = positions.packed()[positions.size() - 1];
    assertEquals(10f, positions.x(created));
    assertEquals(11f, positions.y(created));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void theSameWorldWithOneOrFourThreads() {
    final TreeMap<Long, String> one = run(1);
    assertEquals(60_000, one.size());
    assertEquals(one, run(4));
  }

  @Test
  void recordingAndApplyingAllocateNothingOnceWarm() {
    final Registry registry = world();
    final MoversQuery movers = MoversQuery.of(registry);
    final CommandBuffer buffer = new CommandBuffer(registry);
    final Position_Storage positions = movers.positionStorage();
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long allocated = 0;
    for (int round = 0; round < 60; round++) {
      final long start = threads.getThreadAllocatedBytes(id);
      for (int position = 0; position < 1000; position++) {
        final long entity = positions.packed()[position];
        positions.emplace(buffer, entity, 1f, 2f);
        buffer.remove(entity, Velocity_Traits.TYPE);
        movers.velocityStorage().emplace(buffer, entity, 3f, 4f);
      }
      buffer.apply();
      allocated = threads.getThreadAllocatedBytes(id) - start;
    }
    assertEquals(0, allocated, "bytes allocated by a warm round of 3000 commands");
    assertEquals(List.of(), registry.verify());
  }
}
