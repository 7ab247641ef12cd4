package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The per-run command buffers of a parallel pass, applied together in run-key order. */
class CommandBuffersTest {

  private final Registry registry = new Registry();
  private final CommandBuffers commands = new CommandBuffers(registry);

  @Test
  void aRunKeyHasOneBufferAndMustNotBeNegative() {
    final CommandBuffer three = commands.forRun(3);
    assertSame(three, commands.forRun(3));
    assertSame(commands.forRun(0), commands.forRun(0));
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> commands.forRun(-1));
    assertEquals("a run key is a non-negative int, got -1", error.getMessage());
  }

  @Test
  void aRunClearedOnItsOwnStillLendsItsNewHandlesToTheOtherRuns() {
    // Rule: a run's buffer cleared directly draws a new id like one cleared by the set's apply;
    // its new handles resolve in the other runs, its old ones are refused.
    commands.forRun(0).create();
    commands.forRun(9);
    commands.apply();
    final CommandBuffer five = commands.forRun(5);
    final long old = five.create();
    five.clear();
    final long fresh = five.create();
    commands.forRun(9).emplace(fresh, TA, new A(5));
    assertThrows(IllegalArgumentException.class, () -> commands.forRun(9).destroy(old));
    commands.apply();
    assertEquals(0, commands.skipped());
    assertEquals(1, registry.storage(TA).size());
    assertEquals(5, registry.get(registry.storage(TA).packed()[0], TA).value());
  }

  @Test
  void sizeAndSkippedAddUpEveryRunAndApplyEmptiesThem() {
    final long doomed = registry.create();
    commands.forRun(2).destroy(doomed);
    commands.forRun(2).destroy(doomed); // the second finds it dead: skipped
    final long spawned = commands.forRun(7).create();
    commands.forRun(7).emplace(spawned, TA, new A(7));
    commands.forRun(1).destroy(registry.create());
    assertEquals(4, commands.size());
    assertEquals(0, commands.skipped());
    commands.apply();
    assertEquals(1, commands.skipped());
    assertEquals(0, commands.size());
    assertTrue(commands.forRun(7).isEmpty());
    assertFalse(registry.valid(doomed));
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void runsApplyInKeyOrderWhateverTheOrderTheyWereFirstUsedIn() {
    final int[] keys = {5, 1, 9, 3};
    for (final int key : keys) {
      final CommandBuffer buffer = commands.forRun(key);
      buffer.emplace(buffer.create(), TA, new A(key));
    }
    commands.apply();
    // Reserved entities are created run by run, in key order: indices 0, 1, 2, 3.
    final int[] expected = {1, 3, 5, 9};
    for (int index = 0; index < expected.length; index++) {
      assertEquals(expected[index], registry.get(Entity.of(index, 0), TA).value());
    }
  }

  @Test
  void applyIsRefusedDuringAnIterationAndKeepsTheCommands() {
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    commands.forRun(0).destroy(e);
    registry
        .view(TA)
        .each(
            entity -> assertThrows(ConcurrentModificationException.class, () -> commands.apply()));
    assertEquals(1, commands.size());
    assertTrue(registry.valid(e));
    commands.apply();
    assertFalse(registry.valid(e));
  }

  @Test
  void aThrowingListenerStopsNoCommandAndIsRethrownAfterAll() {
    final IllegalStateException boom = new IllegalStateException("boom");
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              throw boom;
            });
    final CommandBuffer first = commands.forRun(0);
    first.emplace(first.create(), TA, new A(0));
    final CommandBuffer second = commands.forRun(1);
    second.emplace(second.create(), TA, new A(1));
    final IllegalStateException thrown = assertThrows(IllegalStateException.class, commands::apply);
    assertSame(boom, thrown);
    assertEquals(2, registry.storage(TA).size());
    assertEquals(0, commands.size());
  }

  /**
   * A clear of the set from a listener of its own apply is refused with a message naming the set
   * (not one of its buffers), and the apply goes on.
   */
  @Test
  void aClearDuringTheSetsApplyIsRefused() {
    final AtomicReference<Throwable> refused = new AtomicReference<>();
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              try {
                commands.clear();
              } catch (final IllegalStateException thrown) {
                refused.set(thrown);
              }
            });
    final CommandBuffer first = commands.forRun(0);
    first.emplace(first.create(), TA, new A(0));
    final CommandBuffer second = commands.forRun(1);
    second.emplace(second.create(), TA, new A(1));
    commands.apply();
    assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
    assertEquals(
        "cannot apply or clear a CommandBuffers during its own apply (from a listener or a queued"
            + " action): what is recorded now is applied by the apply in progress",
        refused.get().getMessage());
    assertEquals(2, registry.storage(TA).size(), "the second run's command was not forgotten");
    assertEquals(List.of(), registry.verify());
  }

  /** {@code entityOf} answers {@link Entity#NULL} for a handle that is not a reservation. */
  @Test
  void entityOfALiveEntityOrAStrangersHandleIsNull() {
    final CommandBuffer buffer = commands.forRun(0);
    final long handle = buffer.create();
    commands.apply();
    assertTrue(registry.valid(commands.entityOf(handle)));
    assertEquals(Entity.NULL, commands.entityOf(commands.entityOf(handle)), "a live entity");
    assertEquals(Entity.NULL, commands.entityOf(registry.create()), "a live entity");
    final CommandBuffer stranger = new CommandBuffer(registry);
    assertEquals(Entity.NULL, commands.entityOf(stranger.create()), "not a buffer of the set");
  }

  /**
   * Both parallel passes hand every run the set's buffer of its first position, and what the runs
   * record is applied by the set.
   */
  @Test
  void aParallelPassHandsEachRunTheBufferOfItsFirstPosition() {
    final OwningGroup group = registry.owningGroup(TA);
    for (int i = 0; i < 3_000; i++) {
      registry.emplace(registry.create(), TA, new A(i));
    }
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final int grain : new int[] {-1, 500}) {
        final Map<Integer, CommandBuffer> handed = new ConcurrentHashMap<>();
        final CommandRangeConsumer action =
            (buffer, entities, from, to) -> {
              handed.put(from, buffer);
              buffer.destroy(entities[from]);
            };
        if (grain < 0) {
          commands.parallelEachChunk(group, pool, action);
        } else {
          commands.parallelEachChunk(group, pool, grain, action);
        }
        assertFalse(handed.isEmpty(), "the action ran");
        handed.forEach((from, buffer) -> assertSame(commands.forRun(from), buffer));
        final int before = group.size();
        commands.apply();
        assertEquals(before - handed.size(), group.size(), "one destroy per run");
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(List.of(), registry.verify());
  }

  /** A parallel pass without a group or an action throws, naming the missing argument. */
  @Test
  void aParallelPassNeedsAGroupAndAnAction() {
    final OwningGroup group = registry.owningGroup(TA);
    final ForkJoinPool pool = ForkJoinPool.commonPool();
    final CommandRangeConsumer action = (buffer, entities, from, to) -> {};
    assertEquals(
        "group",
        assertThrows(
                NullPointerException.class, () -> commands.parallelEachChunk(null, pool, action))
            .getMessage());
    assertEquals(
        "action",
        assertThrows(
                NullPointerException.class, () -> commands.parallelEachChunk(group, pool, null))
            .getMessage());
    assertEquals(
        "group",
        assertThrows(
                NullPointerException.class, () -> commands.parallelEachChunk(null, pool, 8, action))
            .getMessage());
    assertEquals(
        "action",
        assertThrows(
                NullPointerException.class, () -> commands.parallelEachChunk(group, pool, 8, null))
            .getMessage());
  }

  /**
   * Threads asking at once for the buffer of a key used for the first time all get the same buffer:
   * a key never has two.
   */
  @Test
  void threadsAskingForANewKeyAtOnceGetOneBuffer() throws Exception {
    final int threads = 4;
    for (int round = 0; round < 200; round++) {
      final CommandBuffers set = new CommandBuffers(registry);
      final CyclicBarrier start = new CyclicBarrier(threads);
      final CommandBuffer[] got = new CommandBuffer[threads];
      final Thread[] workers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        final int slot = t;
        workers[t] =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (final Exception e) {
                    throw new AssertionError(e);
                  }
                  got[slot] = set.forRun(0);
                });
        workers[t].start();
      }
      for (final Thread worker : workers) {
        worker.join();
      }
      for (int t = 1; t < threads; t++) {
        assertSame(got[0], got[t], "round " + round);
      }
      assertSame(got[0], set.forRun(0));
    }
  }

  /**
   * A set without reservations applies from a listener of {@link Registry#clear()}, as one buffer
   * does: it creates nothing, so the clear (which refuses creations) does not refuse it.
   */
  @Test
  void aSetWithoutReservationsAppliesDuringAClear() {
    registry.create();
    final int[] ran = {0};
    registry
        .onDestroy()
        .connect(
            (r, entity) -> {
              commands.forRun(0).queue(world -> ran[0]++);
              commands.apply();
            });
    registry.clear();
    assertEquals(1, ran[0]);
    assertEquals(0, commands.size());
  }
}
