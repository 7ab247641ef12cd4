package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest.Cell;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest.CellStorage;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * One test per defect found in deferred commands and the registry's destroy bookkeeping: each
 * failed before its fix.
 */
class CommandBufferWhyTest {

  private final Registry registry = new Registry();

  @Test
  void twoThreadsRecordingIntoOneBufferAreRefused() {
    // Rule: between two sync points (apply, clear, the end of a parallel pass) one thread records
    // into a buffer; another thread's recording is refused before anything is recorded.
    final CommandBuffer commands = new CommandBuffer(registry);
    final long e = registry.create();
    commands.destroy(e);
    final AtomicReference<Throwable> other = new AtomicReference<>();
    final Thread thread =
        new Thread(
            () -> {
              try {
                commands.destroy(e);
              } catch (final Throwable thrown) {
                other.set(thrown);
              }
            },
            "second-recorder");
    thread.start();
    join(thread);
    assertTrue(other.get() instanceof ConcurrentModificationException, String.valueOf(other.get()));
    assertTrue(other.get().getMessage().contains("second-recorder"), other.get().getMessage());
    assertEquals(1, commands.size());
    commands.apply();
    assertFalse(registry.valid(e));
    // After apply, any thread may record.
    final long f = registry.create();
    final Thread after = new Thread(() -> commands.destroy(f));
    after.start();
    join(after);
    assertEquals(1, commands.size());
  }

  @Test
  void aHandleReservedDuringItsOwnApplyBecomesItsOwnEntity() {
    // Rule: reservations made while the buffer is applied are created by this apply, and the
    // commands naming them land on them, never on another entity.
    final CommandBuffer commands = new CommandBuffer(registry);
    final long bystander = registry.create(); // Entity(0,0): the stale slot used to point here
    final long[] spawned = {Entity.NULL};
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              if (Entity.isNull(spawned[0])) {
                spawned[0] = commands.create();
                commands.emplace(spawned[0], TB, new B(7));
              }
            });
    commands.emplace(commands.create(), TA, new A(1));
    commands.apply();
    assertFalse(registry.has(bystander, TB));
    assertEquals(3, registry.alive());
    assertEquals(1, registry.storage(TB).size());
    final long created = registry.storage(TB).packed()[0];
    assertFalse(registry.has(created, TA));
    assertTrue(commands.isEmpty());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aCommandRecordedIntoAnAppliedRunDuringTheSetsApplyIsNotLost() {
    // Rule: what is recorded into any buffer of a set while the set applies is applied by this
    // apply, after what was there.
    final CommandBuffers set = new CommandBuffers(registry);
    final long late = registry.create();
    registry
        .storage(TB)
        .onConstruct()
        .connect((r, entity) -> set.forRun(0).emplace(late, TC, new C(3)));
    set.forRun(0).emplace(registry.create(), TA, new A(1));
    set.forRun(5).emplace(registry.create(), TB, new B(2));
    set.apply();
    assertTrue(registry.has(late, TC));
    assertEquals(0, set.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aSkippedTypedCommandOfAHighIdTypeNeverSticksTheBuffer() {
    // Rule: every size a command needs is known when it is recorded: a typed command whose target
    // died is skipped, the rest applied, the buffer emptied.
    final ComponentType<Cell, CellStorage> type =
        CommandBufferTypedRecordingTest.typeWithIdAtLeast(20);
    final CellStorage cells = registry.storage(type);
    final CommandBuffer commands = new CommandBuffer(registry);
    final long other = registry.create();
    final long e = registry.create();
    commands.destroy(other);
    cells.emplace(commands, e, 1, "one");
    registry.destroy(e);
    commands.apply();
    assertFalse(registry.valid(other));
    assertEquals(1, commands.skipped());
    assertEquals(0, commands.size());
    commands.apply();
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aThrowingListenerOfAHighIdTypeIsTheExceptionRethrown() {
    // Rule: a listener's own exception is the one apply rethrows, after every other command.
    final ComponentType<Cell, CellStorage> type =
        CommandBufferTypedRecordingTest.typeWithIdAtLeast(20);
    final CellStorage cells = registry.storage(type);
    final IllegalStateException boom = new IllegalStateException("boom");
    cells
        .onConstruct()
        .connect(
            (r, entity) -> {
              throw boom;
            });
    final CommandBuffer commands = new CommandBuffer(registry);
    final long other = registry.create();
    final long e = registry.create();
    commands.destroy(other);
    commands.emplace(e, TA, new A(2));
    cells.emplace(commands, e, 1, "one"); // the last command: its size was never learned
    assertSame(boom, assertThrows(IllegalStateException.class, commands::apply));
    assertFalse(registry.valid(other));
    assertTrue(registry.has(e, TA));
    assertEquals(0, commands.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void applyFromAListenerDuringItsOwnApplyIsRefusedAndAppliesNothingTwice() {
    // Rule: a re-entrant apply is refused (IllegalStateException in the listener); the outer apply
    // applies each command once.
    final CommandBuffer commands = new CommandBuffer(registry);
    final List<Class<?>> refused = new ArrayList<>();
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              try {
                commands.apply();
              } catch (final IllegalStateException expected) {
                refused.add(expected.getClass());
              }
            });
    commands.emplace(commands.create(), TA, new A(1));
    commands.emplace(commands.create(), TA, new A(2));
    commands.apply();
    assertEquals(2, registry.alive());
    assertEquals(2, registry.storage(TA).size());
    assertEquals(List.of(IllegalStateException.class, IllegalStateException.class), refused);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aSetsApplyFromAListenerDuringItIsRefused() {
    final CommandBuffers set = new CommandBuffers(registry);
    final List<Class<?>> refused = new ArrayList<>();
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              try {
                set.apply();
              } catch (final IllegalStateException expected) {
                refused.add(expected.getClass());
              }
              try {
                set.forRun(3).apply();
              } catch (final IllegalStateException expected) {
                refused.add(expected.getClass());
              }
            });
    final CommandBuffer run = set.forRun(0);
    run.emplace(run.create(), TA, new A(1));
    set.forRun(3).emplace(set.forRun(3).create(), TA, new A(2));
    set.apply();
    assertEquals(2, registry.alive());
    assertEquals(2, registry.storage(TA).size());
    assertEquals(4, refused.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aHandleOfAnotherBufferNamesBothBuffers() {
    // Rule: a handle used with a buffer that did not reserve it is refused, naming the handle and
    // both buffers.
    final CommandBuffer mine = new CommandBuffer(registry);
    final CommandBuffer theirs = new CommandBuffer(registry);
    final long handle = theirs.create();
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> mine.destroy(handle));
    final String message = refused.getMessage();
    assertTrue(message.contains(mine.toString()), message);
    assertTrue(message.contains(theirs.toString()), message);
    assertTrue(message.contains(Entity.toString(handle)), message);
    assertEquals(0, mine.size());
  }

  @Test
  void aHandlePassedToTheRegistryIsRefusedAsAReservedHandle() {
    // The registry knows no buffer: it says what the handle is and where to use it; the buffer's
    // own refusals name the buffer (see above).
    final CommandBuffer commands = new CommandBuffer(registry);
    final long handle = commands.create();
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> registry.emplace(handle, TA, new A(1)));
    final String message = refused.getMessage();
    assertTrue(message.contains(Entity.toString(handle)), message);
    assertTrue(message.contains("reserved handle of a command buffer"), message);
    assertTrue(message.contains("entityOf(handle)"), message);
    assertEquals(0, registry.alive());
  }

  @Test
  void theCreatedEntityCanBeLookedUpFromItsHandleAfterApply() {
    final CommandBuffer commands = new CommandBuffer(registry);
    final long handle = commands.create();
    commands.emplace(handle, TA, new A(4));
    commands.apply();
    final long created = commands.entityOf(handle);
    assertTrue(registry.valid(created));
    assertEquals(4, registry.get(created, TA).value());
    final CommandBuffers set = new CommandBuffers(registry);
    final long inSet = set.forRun(9).create();
    set.apply();
    assertTrue(registry.valid(set.entityOf(inSet)));
  }

  @Test
  void refusedDestroysFromParallelBodiesRaiseTheDocumentedExceptionAndLeaveNothingRegistered() {
    // Rule: a destroy refused by a lock is refused before the registry's destroy bookkeeping is
    // written: from many threads at once, each gets ConcurrentModificationException.
    // Under mutation testing (the runtime POM's PIT configuration) 2,000 entities in 5 rounds:
    // still chunks on every worker thread, each refusing hundreds of destroys.
    final int count = Integer.getInteger("phalanx.parallelDestroys", 200_000);
    for (int i = 0; i < count; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
    }
    final OwningGroup group = registry.owningGroup(TA, TB);
    final List<Throwable> seen = new ArrayList<>();
    final int rounds = count >= 200_000 ? 20 : 5;
    for (int round = 0; round < rounds; round++) {
      try {
        group.parallelEachChunk(
            ForkJoinPool.commonPool(),
            (entities, from, to) -> {
              for (int p = from; p < to; p++) {
                try {
                  registry.destroy(entities[p]);
                } catch (final ConcurrentModificationException expected) {
                  // refused, as documented
                }
              }
            });
      } catch (final Throwable thrown) {
        seen.add(thrown);
      }
    }
    assertEquals(List.of(), seen);
    assertEquals(count, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void outOfMemoryWhileRecordingLeavesNoHalfRecordedCommand() {
    // Rule: every array a command needs is grown before anything of it is written: a recording
    // that cannot grow (here a payload beyond the VM's array limit) records nothing.
    final ComponentType<Cell, CellStorage> type =
        CommandBufferTypedRecordingTest.typeWithIdAtLeast(20);
    final CellStorage cells = registry.storage(type);
    final CommandBuffer commands = new CommandBuffer(registry);
    final long e = registry.create();
    commands.emplace(e, TA, new A(1));
    assertThrows(
        OutOfMemoryError.class, () -> commands.beginFields(e, cells, Integer.MAX_VALUE - 8, 0));
    assertEquals(1, commands.size());
    cells.emplace(commands, e, 2, "two");
    commands.apply();
    assertEquals(new Cell(2, "two"), cells.get(e));
    assertEquals(1, registry.get(e, TA).value());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aHandleReservedInAnAppliedRunDuringTheSetsApplyLandsOnItsOwnEntity() {
    final CommandBuffers set = new CommandBuffers(registry);
    final long bystander = registry.create();
    final long[] spawned = {Entity.NULL};
    registry
        .storage(TB)
        .onConstruct()
        .connect(
            (r, entity) -> {
              if (Entity.isNull(spawned[0])) {
                spawned[0] = set.forRun(0).create(); // run 0 is applied already
                set.forRun(9).emplace(spawned[0], TC, new C(3));
              }
            });
    set.forRun(0).emplace(bystander, TA, new A(1));
    set.forRun(5).emplace(registry.create(), TB, new B(2));
    set.apply();
    final long created = set.entityOf(spawned[0]);
    assertTrue(registry.valid(created));
    assertEquals(3, registry.get(created, TC).value());
    assertFalse(registry.has(bystander, TC));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRunAddedDuringTheSetsApplyIsAppliedByIt() {
    final CommandBuffers set = new CommandBuffers(registry);
    final long[] spawned = {Entity.NULL};
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              if (Entity.isNull(spawned[0])) {
                final CommandBuffer added = set.forRun(1_000); // a run the set did not have
                spawned[0] = added.create();
                added.emplace(spawned[0], TB, new B(8));
              }
            });
    set.forRun(0).emplace(registry.create(), TA, new A(1));
    set.apply();
    final long created = set.entityOf(spawned[0]);
    assertEquals(8, registry.get(created, TB).value());
    assertEquals(0, set.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aReusedSlotRefusesItsStaleHandlesAndAnswersEntityOfFromItsFirstNumber() {
    final CommandBuffer dead = new CommandBuffer(registry);
    final long stale = dead.create();
    dead.create();
    dead.apply();
    final CommandBuffers set = new CommandBuffers(registry);
    final long[] spawned = {Entity.NULL, Entity.NULL};
    registry
        .storage(TA)
        .onConstruct()
        .connect(
            (r, entity) -> {
              if (Entity.isNull(spawned[0])) {
                // A run the set did not have: its buffer takes dead's slot, as if dead had been
                // collected, with numbers from where dead's stopped.
                CommandBuffer.reuseSlotOf(dead);
                final CommandBuffer added = set.forRun(1_000);
                spawned[0] = added.create();
                spawned[1] = added.create();
                added.emplace(spawned[1], TB, new B(9));
                assertThrows(
                    IllegalArgumentException.class, () -> added.emplace(stale, TB, new B(1)));
              }
            });
    set.forRun(0).emplace(registry.create(), TA, new A(1));
    set.apply();
    assertEquals(Entity.index(stale), Entity.index(spawned[0]), "the slot is reused");
    assertTrue(Entity.version(spawned[0]) > Entity.version(stale), "numbers go on");
    final long first = set.entityOf(spawned[0]);
    final long second = set.entityOf(spawned[1]);
    assertTrue(registry.valid(first));
    assertFalse(registry.has(first, TB));
    assertEquals(9, registry.get(second, TB).value());
    assertEquals(Entity.NULL, set.entityOf(stale), "a stale handle names no entity");
    assertEquals(List.of(), registry.verify());
  }

  private static void join(final Thread thread) {
    try {
      thread.join();
    } catch (final InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
