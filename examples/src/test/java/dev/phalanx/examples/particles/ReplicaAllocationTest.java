package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.examples.tracking.Temperature_Storage;
import dev.phalanx.examples.tracking.Temperature_Traits;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Writing and applying deltas allocates nothing per tick once warm: the writer's and the loader's
 * arrays, sets and sections are kept from one delta to the next, at their largest. Measured with
 * the thread's allocation counter around the write and the apply only (the world's own step or
 * churn between ticks is not counted), the least of five rounds of ticks, after enough ticks for
 * the JIT to compile the paths (an interpreted loop allocates what compiled code does not).
 */
class ReplicaAllocationTest {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** A world, its replica and the writer between them; {@link #tick} counts what they allocate. */
  private static final class Link {
    final World world;
    final Replica replica = new Replica();
    final DeltaWriter writer;
    final long thread = Thread.currentThread().getId();

    Link(final World world, final DeltaWriter writer, final ComponentType<?, ?>... more)
        throws SnapshotFormatException {
      this.world = world;
      this.writer = writer;
      if (0 != more.length) {
        replica.loader().types(more);
      }
      tick();
    }

    /**
     * Writes and applies one delta; returns the bytes the thread allocated doing so, less what the
     * same reads of the counter allocate around nothing.
     */
    long tick() throws SnapshotFormatException {
      final long empty = THREADS.getThreadAllocatedBytes(thread);
      final long afterEmpty = THREADS.getThreadAllocatedBytes(thread);
      final int length = writer.write();
      replica.apply(writer.bytes(), length);
      final long afterTick = THREADS.getThreadAllocatedBytes(thread);
      // The correction may exceed what the tick's own reads cost (on JDK 25 a read of the counter
      // sometimes counts a few bytes): never below zero, so a round cannot hide a tick's garbage.
      return Math.max(0, (afterTick - afterEmpty) - (afterEmpty - empty));
    }

    /** The least a tick allocated, over rounds of ticks each after {@code between}. */
    long leastPerTick(final Runnable between) throws SnapshotFormatException {
      for (int warm = 0; warm < 4_000; warm++) {
        between.run();
        tick();
      }
      long least = Long.MAX_VALUE;
      for (int round = 0; round < 5; round++) {
        long bytes = 0;
        for (int i = 0; i < 20; i++) {
          between.run();
          bytes += tick();
        }
        least = Math.min(least, bytes / 20);
      }
      assertEquals(world.checksum(), replica.checksum(), "the replica follows the world");
      assertEquals(List.of(), replica.registry().verify());
      return least;
    }
  }

  @Test
  void theExamplesFramesReplicateWithoutGarbage() throws SnapshotFormatException {
    // Every frame moves every particle (its values sent whole) and kills and spawns roots,
    // comets with their tails (attachments added, and destroyed with their comet).
    try (World world = new World(2_000, 7, 1, 60)) {
      final Link link = new Link(world, Replica.writer(world));
      assertEquals(0, link.leastPerTick(world::step));
    }
  }

  @Test
  void structuralChurnReplicatesWithoutGarbage() throws SnapshotFormatException {
    // One root in a hundred dies and one is born per tick, as the benchmark's structural churn.
    try (World world = new World(2_000, 7, 1, 60)) {
      for (int frame = 0; frame < 10; frame++) {
        world.step();
      }
      final SplittableRandom random = new SplittableRandom(7);
      final Link link = new Link(world, Replica.writerOfChanges(world));
      assertEquals(0, link.leastPerTick(() -> churn(world, random)));
    }
  }

  @Test
  void valueChurnReplicatesWithoutGarbage() throws SnapshotFormatException {
    // Every particle also carries a tracked temperature; 1% of them get a new one per tick, read
    // from the storage's write log.
    try (World world = new World(2_000, 7, 1, 60)) {
      final Temperature_Storage temperatures = world.registry().storage(Temperature_Traits.TYPE);
      final long[] packed = world.storages().positions.packed();
      for (int i = 0; i < world.storages().positions.size(); i++) {
        temperatures.emplace(packed[i], i);
      }
      final DeltaWriter writer = Replica.writerOfChanges(world).types(Temperature_Traits.TYPE);
      final SplittableRandom random = new SplittableRandom(7);
      final Link link = new Link(world, writer, Temperature_Traits.TYPE);
      assertEquals(
          0,
          link.leastPerTick(
              () -> {
                for (int i = 0; i < temperatures.size() / 100; i++) {
                  temperatures.setCelsiusAt(
                      random.nextInt(temperatures.size()), (float) random.nextDouble());
                }
              }));
    }
  }

  private static void churn(final World world, final SplittableRandom random) {
    final Registry registry = world.registry();
    final Storages storages = world.storages();
    final long[] packed = registry.entities().packed();
    for (int changed = 0; changed < registry.alive() / 100; ) {
      final long e = packed[random.nextInt(registry.alive())];
      if (storages.comets.contains(e) || storages.attachments.contains(e)) {
        continue;
      }
      registry.destroy(e);
      final long born = registry.create();
      storages.positions.emplace(born, (float) random.nextDouble(), (float) random.nextDouble());
      storages.velocities.emplace(born, 0f, 0f);
      storages.lifetimes.emplace(born, 100);
      changed++;
    }
  }
}
