package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What filling a fresh world allocates: nothing per entity once the registry and the storages
 * reserved room for it, and, without reserving, no more than EnTT's amortised vector growth (each
 * packed array doubles, so its garbage is at most its final size).
 *
 * <p>Both worlds create {@value #ENTITIES} entities one by one, each with two components of
 * 1024-element pages, one shared payload object, so that every byte counted is the world's own.
 */
class CreationAllocationTest {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** A power of two: growth by doubling from 16 ends exactly there, with nothing to spare. */
  private static final int ENTITIES = 1 << 16;

  /** Room for what is not per entity: page tables growing, a few small objects. */
  private static final long SLACK = 4096;

  private static final Payload SHARED = new Payload(7);

  @BeforeAll
  static void theCounterIsSupported() {
    assertTrue(THREADS.isThreadAllocatedMemorySupported());
    THREADS.setThreadAllocatedMemoryEnabled(true);
  }

  @Test
  void aWorldThatReservedRoomAllocatesNothingPerEntity() {
    for (int round = 0; round < 3; round++) {
      final World world = new World();
      world.reserve(ENTITIES);
      final long bytes = world.fill(ENTITIES);
      if (0 == round) {
        continue; // the first fill of the JVM initialises classes
      }
      assertEquals(0, bytes, "bytes allocated creating " + ENTITIES + " reserved entities");
      assertEquals(ENTITIES, world.registry.alive());
      assertTrue(world.registry.verify().isEmpty(), () -> world.registry.verify().toString());
    }
  }

  @Test
  void growingOneByOneLeavesNoMoreGarbageThanDoubling() {
    for (int round = 0; round < 3; round++) {
      final World reserved = new World();
      reserved.reserve(ENTITIES);
      final long floor = reserved.fill(ENTITIES) + reserved.reservedBytes;
      final World growing = new World();
      final long bytes = growing.fill(ENTITIES);
      // Doubling from 16 to ENTITIES copies 16 + 32 + ... + ENTITIES / 2 < ENTITIES elements of
      // each packed array: 12 bytes per entity identifier (the handle and its position), 8 per
      // element of each storage. Growing by half would leave about twice that.
      final long garbage = bytes - floor;
      final long doubling = (long) ENTITIES * (Long.BYTES + Integer.BYTES + 2 * Long.BYTES);
      assertTrue(
          garbage <= doubling + SLACK,
          "growth left " + garbage + " bytes of garbage; doubling leaves at most " + doubling);
      assertEquals(ENTITIES, growing.registry.entities().packed().length, "no room to spare");
      assertEquals(ENTITIES, growing.alphas.packed().length, "no room to spare");
    }
  }

  /** A fresh registry with two object storages. */
  private static final class World {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> alphas =
        registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> betas = registry.storage(Fixtures.alpha(DeletionPolicy.IN_PLACE));
    long reservedBytes;

    void reserve(final int entities) {
      final long before = THREADS.getCurrentThreadAllocatedBytes();
      registry.reserve(entities);
      alphas.reserve(entities);
      betas.reserve(entities);
      reservedBytes = THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    /** Creates {@code entities} entities with both components; returns the bytes allocated. */
    long fill(final int entities) {
      final long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < entities; i++) {
        final long entity = registry.create();
        alphas.emplace(entity, SHARED);
        betas.emplace(entity, SHARED);
      }
      return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
  }
}
