package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.Registry;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Rules of recording and applying at their edges: ownership after a parallel pass, reservation
 * numbers, handles not handed out yet, what a buffer answers during its own apply.
 */
class CommandBufferRulesTest {

  private final Registry registry = new Registry();
  private final CommandBuffer commands = new CommandBuffer(registry);

  /** Runs a parallel pass (over an empty group): a pass's end frees every buffer's claim. */
  private void endParallelPass() {
    final int before = registry.parallelPasses();
    registry.owningGroup(TX).parallelEachChunk(ForkJoinPool.commonPool(), (from, to) -> {});
    assertNotEquals(before, registry.parallelPasses(), "a pass ran");
  }

  @Test
  void theOwnersDestroyAfterAParallelPassTakesTheBufferForTheNextPass() {
    // Rule: a claim ends with a parallel pass; the owner's next recording, a destroy included,
    // takes the buffer again, so another thread is still refused.
    final long e = registry.create();
    final long f = registry.create();
    commands.destroy(e);
    endParallelPass();
    commands.destroy(f);
    assertTrue(
        recordFromAnotherThread(e) instanceof ConcurrentModificationException,
        "the owner took the buffer again");
    assertEquals(2, commands.size());
  }

  @Test
  void theOwnersCommandAfterAParallelPassTakesTheBufferForTheNextPass() {
    // Rule: as above, for a command recorded through the general path.
    final long e = registry.create();
    commands.destroy(e);
    endParallelPass();
    commands.remove(e, TA);
    assertTrue(
        recordFromAnotherThread(e) instanceof ConcurrentModificationException,
        "the owner took the buffer again");
    assertEquals(2, commands.size());
  }

  @Test
  void aReservationTakesTheBuffer() {
    // Rule: create() records (a reservation): the thread that reserves owns the buffer.
    final long handle = commands.create();
    assertTrue(
        recordFromAnotherThread(registry.create()) instanceof ConcurrentModificationException,
        "the reserving thread owns the buffer");
    commands.emplace(handle, TA, new A(1));
    commands.apply();
    assertEquals(1, registry.get(commands.entityOf(handle), TA).value());
  }

  @Test
  void theNextBufferOfASlotNeverHandsOutAHandleOfThePreviousOne() {
    // Rule: no two handles are ever equal, even when a buffer's slot is reused after a single
    // reservation of its previous buffer.
    final CommandBuffer previous = new CommandBuffer(registry);
    final long first = previous.create();
    CommandBuffer.reuseSlotOf(previous);
    final CommandBuffer next = new CommandBuffer(registry);
    assertEquals(previous.slot(), next.slot(), "the slot is reused");
    final long second = next.create();
    assertNotEquals(first, second);
    assertTrue(Entity.version(second) > Entity.version(first), "numbers go on");
  }

  @Test
  void clearingFromItsOwnApplyIsRefusedAndChangesNothing() {
    // Rule: clear() during the buffer's own apply (here from a queued action) throws; the apply
    // goes on with every command.
    final long e = registry.create();
    final AtomicReference<Throwable> refused = new AtomicReference<>();
    commands.queue(
        r -> {
          try {
            commands.clear();
          } catch (final IllegalStateException thrown) {
            refused.set(thrown);
          }
        });
    commands.emplace(e, TA, new A(1));
    commands.apply();
    assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
    assertTrue(refused.get().getMessage().contains("during its own apply"));
    assertEquals(1, registry.get(e, TA).value());
  }

  @Test
  void sizeDuringApplyCountsTheCommandsNotAppliedYet() {
    // Rule: size() is the number of commands recorded and not applied yet, during an apply too.
    final long e = registry.create();
    final int[] seen = {-1};
    commands.queue(r -> seen[0] = commands.size());
    commands.emplace(e, TA, new A(1));
    commands.emplace(e, TB, new B(2));
    assertEquals(3, commands.size());
    commands.apply();
    assertEquals(2, seen[0]);
    assertEquals(0, commands.size());
  }

  @Test
  void entityOfNamesOnlyTheLastApplysReservationsOfThisBuffer() {
    // Rule: entityOf answers the entity of a handle of this buffer's last apply; NULL for an
    // entity, another buffer's handle, an earlier apply's handle, or one reserved since.
    final CommandBuffer other = new CommandBuffer(registry);
    assertEquals(Entity.NULL, commands.entityOf(registry.create()), "not a handle");
    assertEquals(Entity.NULL, commands.entityOf(other.create()), "another buffer's handle");
    final long a = commands.create();
    final long b = commands.create();
    commands.apply();
    final long first = commands.entityOf(a);
    assertTrue(registry.valid(first));
    assertTrue(registry.valid(commands.entityOf(b)));
    final long c = commands.create();
    commands.apply();
    assertEquals(Entity.NULL, commands.entityOf(a), "an earlier apply's handle");
    assertEquals(Entity.NULL, commands.entityOf(b), "an earlier apply's handle");
    assertTrue(registry.valid(commands.entityOf(c)));
    final long d = commands.create();
    assertEquals(Entity.NULL, commands.entityOf(d), "not created yet");
  }

  @Test
  void aHandleNotHandedOutYetIsRefused() {
    // Rule: only handles the buffer handed out may be named; the next one, made up from the
    // last, is refused before anything is recorded.
    final long handle = commands.create();
    final long made = Entity.of(Entity.index(handle), Entity.version(handle) + 1);
    assertTrue(CommandBuffer.isReserved(made));
    assertThrows(IllegalArgumentException.class, () -> commands.destroy(made));
    assertEquals(0, commands.size());
  }

  @Test
  void manyReservationsMadeDuringApplyAreAllCreated() {
    // Rule: reservations made during the apply that no command names are created at its end,
    // however many they are.
    final long[] late = new long[40];
    // On one thread, the recorder's: a buffer that never ended its apply would fail by time.
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () -> {
          commands.queue(
              r -> {
                for (int i = 0; i < late.length; i++) {
                  late[i] = commands.create();
                }
              });
          commands.apply();
        });
    final Set<Long> entities = new HashSet<>();
    for (final long handle : late) {
      final long entity = commands.entityOf(handle);
      assertTrue(registry.valid(entity));
      entities.add(entity);
    }
    assertEquals(late.length, entities.size());
    assertTrue(commands.isEmpty());
  }

  @Test
  void aQueuedFailureBeforeARunOfDestroysIsRethrown() {
    // Rule: the first exception of an apply is rethrown at its end, though a batched run of
    // destroys follows the command that threw.
    final long a = registry.create();
    final long b = registry.create();
    final IllegalStateException boom = new IllegalStateException("boom");
    commands.queue(
        r -> {
          throw boom;
        });
    commands.destroy(a);
    commands.destroy(b);
    assertSame(boom, assertThrows(IllegalStateException.class, commands::apply));
    assertFalse(registry.valid(a));
    assertFalse(registry.valid(b));
  }

  @Test
  void aBufferThatSpentItsNumbersMovesToAFreshSlotAtItsNextSyncPoint() {
    // Rule: past 2^30 reservation numbers, a buffer takes a fresh slot when emptied; its old
    // handles name no live buffer, and its new handles work as before.
    final int oldSlot = commands.slot();
    final long stale = spendNumbers(commands);
    commands.clear();
    assertNotEquals(oldSlot, commands.slot());
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> commands.destroy(stale));
    assertTrue(refused.getMessage().contains("no longer exists"), refused.getMessage());
    final long handle = commands.create();
    assertEquals(commands.slot(), Entity.index(handle) & 0x7FFF_FFFF);
    commands.emplace(handle, TA, new A(1));
    commands.apply();
    assertEquals(1, registry.get(commands.entityOf(handle), TA).value());
  }

  @Test
  void aBufferOfASetThatMovesToAFreshSlotIsStillFoundByItsSiblings() {
    // Rule: the handles of a set's buffer that moved to a fresh slot are still resolved by the
    // other buffers of the set.
    final CommandBuffers set = new CommandBuffers(registry);
    final CommandBuffer first = set.forRun(0);
    final CommandBuffer second = set.forRun(1);
    final int oldSlot = first.slot();
    spendNumbers(first);
    set.clear();
    assertNotEquals(oldSlot, first.slot());
    final long handle = first.create();
    second.emplace(handle, TA, new A(2));
    set.apply();
    assertEquals(2, registry.get(set.entityOf(handle), TA).value());
  }

  /**
   * After a buffer of a set moved to a fresh slot, the set still finds every buffer by its slot: a
   * handle of either buffer, named in the other, lands on its entity.
   */
  @Test
  void afterASlotMoveEverySiblingsHandlesStillResolve() {
    final CommandBuffers set = new CommandBuffers(registry);
    final CommandBuffer first = set.forRun(0);
    final CommandBuffer second = set.forRun(1);
    spendNumbers(first);
    set.clear();
    final long fromFirst = first.create();
    final long fromSecond = second.create();
    second.emplace(fromFirst, TA, new A(1));
    first.emplace(fromSecond, TA, new A(2));
    set.apply();
    assertEquals(0, set.skipped());
    assertEquals(1, registry.get(set.entityOf(fromFirst), TA).value());
    assertEquals(2, registry.get(set.entityOf(fromSecond), TA).value());
  }

  @Test
  void aBufferRefusesToReservePastItsLastNumberSayingHowManyItMay() {
    // Rule: one apply's reservations may not run past the last number; the refusal says how many
    // the buffer may reserve at once, from the first number of its slot.
    final CommandBuffer previous = new CommandBuffer(registry);
    previous.create();
    CommandBuffer.reuseSlotOf(previous);
    final CommandBuffer buffer = new CommandBuffer(registry);
    long handle = buffer.create();
    final int base = Entity.version(handle);
    assertTrue(base > 0, "numbers go on from the previous buffer's");
    while (Entity.version(handle) < Integer.MAX_VALUE - 1) {
      handle = buffer.create();
    }
    final IllegalStateException refused = assertThrows(IllegalStateException.class, buffer::create);
    assertTrue(
        refused
            .getMessage()
            .contains("cannot reserve more than " + (Integer.MAX_VALUE - base) + " entities"),
        refused.getMessage());
    buffer.clear();
  }

  @Test
  void aSiblingsHandleSpentByItsOwnApplyIsSkippedBySetApply() {
    // Rule: a handle is valid until its buffer is applied; a command of another buffer of the set
    // naming it after that apply lands on no entity (the first entity of the registry included).
    final long bystander = registry.create();
    assertEquals(0L, bystander, "the entity whose bits are all zero");
    final CommandBuffers set = new CommandBuffers(registry);
    final CommandBuffer first = set.forRun(0);
    final CommandBuffer second = set.forRun(1);
    final long handle = first.create();
    second.emplace(handle, TA, new A(1));
    first.apply();
    final long created = first.entityOf(handle);
    assertTrue(registry.valid(created));
    set.apply();
    assertFalse(registry.has(bystander, TA));
    assertFalse(registry.has(created, TA));
    assertEquals(1, set.skipped());
  }

  /** Reserves until {@code buffer}'s numbers reach 2^30; returns the last handle. */
  private static long spendNumbers(final CommandBuffer buffer) {
    long handle = buffer.create();
    while (Entity.version(handle) < (1 << 30) - 1) {
      handle = buffer.create();
    }
    return handle;
  }

  /** Records a destroy of {@code entity} from another thread; returns what it threw, or null. */
  private Throwable recordFromAnotherThread(final long entity) {
    final AtomicReference<Throwable> thrown = new AtomicReference<>();
    final Thread thread =
        new Thread(
            () -> {
              try {
                commands.destroy(entity);
              } catch (final RuntimeException refused) {
                thrown.set(refused);
              }
            },
            "intruder");
    thread.start();
    try {
      thread.join();
    } catch (final InterruptedException interrupted) {
      throw new AssertionError(interrupted);
    }
    return thrown.get();
  }

  /**
   * A buffer names itself in messages as "command buffer #n", and a buffer of a set with its run
   * key: the name a refusal carries.
   */
  @Test
  void aBufferNamesItselfWithItsSerialAndRun() {
    final Registry registry = new Registry();
    final CommandBuffer alone = new CommandBuffer(registry);
    assertTrue(alone.toString().matches("command buffer #\\d+"), alone.toString());
    final CommandBuffer ofRun = new CommandBuffers(registry).forRun(3);
    assertTrue(
        ofRun.toString().matches("command buffer #\\d+ \\(run 3 of a CommandBuffers\\)"),
        ofRun.toString());
    assertNotEquals(alone.toString(), new CommandBuffer(registry).toString());
  }
}
