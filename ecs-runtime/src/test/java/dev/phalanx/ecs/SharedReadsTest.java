package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * Shared reads (see {@link SparseSet}): a frozen set (locked, no thread permitted to change it) is
 * iterated by any number of threads at once, each loop keeping no floor; while any runs the set
 * stays frozen; an iteration that would race a thread keeping floors or permitted to change the set
 * is refused before it starts.
 */
class SharedReadsTest {

  private static final int ENTITIES = 64;

  private static TestSet filled(final int count) {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < count; i++) {
      set.insert(Entity.of(i, 0));
    }
    return set;
  }

  /** Runs {@code body} on a new thread and returns what it threw, or {@code null}. */
  private static Throwable onAnotherThread(final Runnable body) throws InterruptedException {
    return onAnotherThreadWhile(body, () -> {});
  }

  private static void await(final CyclicBarrier barrier) {
    try {
      barrier.await(10, TimeUnit.SECONDS);
    } catch (final InterruptedException | BrokenBarrierException | TimeoutException failure) {
      throw new AssertionError("the other reader never arrived", failure);
    }
  }

  @Test
  void twoThreadsIterateAFrozenSetAtOnceAndLeaveItAsItWas() throws InterruptedException {
    final TestSet set = filled(ENTITIES);
    set.lock("a test", null);
    assertTrue(set.isFrozen());
    final CyclicBarrier both = new CyclicBarrier(2);
    final Runnable reader =
        () -> {
          set.beginIteration();
          try {
            // Both loops are inside their iteration here: without shared reads, the second begin
            // would have been refused as racing the first thread's floors.
            await(both);
            for (int position = set.size() - 1; position >= 0; position--) {
              set.visit(position);
            }
            await(both);
          } finally {
            set.endIteration();
          }
        };
    final Thread other = new Thread(reader, "reader");
    other.start();
    reader.run();
    other.join();
    assertFalse(set.isIterated());
    set.unlock();
    assertFalse(set.isFrozen());
    // No floor was left behind: every change is allowed again.
    set.remove(set.at(0));
    set.sort(Long::compare);
    assertEquals(ENTITIES - 1, set.size());
  }

  @Test
  void manyRoundsOfSharedReadsAndLocksBalanceOut() throws InterruptedException {
    final TestSet set = filled(ENTITIES);
    set.lock("a test", null);
    final int threads = 4;
    final CyclicBarrier start = new CyclicBarrier(threads);
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final Thread reader =
          new Thread(
              () -> {
                try {
                  await(start);
                  for (int round = 0; round < 2_000; round++) {
                    set.lock("a chunk pass", null);
                    set.beginIteration();
                    set.beginIteration();
                    set.visit(round % ENTITIES);
                    set.endIteration();
                    set.endIteration();
                    set.unlock();
                  }
                } catch (final RuntimeException | Error thrown) {
                  failure.compareAndSet(null, thrown);
                }
              });
      readers.add(reader);
      reader.start();
    }
    for (final Thread reader : readers) {
      reader.join();
    }
    assertNull(failure.get());
    assertFalse(set.isIterated(), "every shared read counted out");
    assertEquals("a test", set.lockDescription(), "the outermost lock is still the test's");
    set.unlock();
    assertFalse(set.isLocked(), "every lock counted out");
    set.remove(set.at(3));
    assertEquals(List.of(), verified(set));
  }

  private static List<String> verified(final SparseSet set) {
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    return problems;
  }

  @Test
  void whileSharedReadsRunTheSetStaysFrozen() throws InterruptedException {
    final TestSet set = filled(ENTITIES);
    set.lock("a test", null);
    set.beginIteration();
    final IllegalStateException unlock = assertThrows(IllegalStateException.class, set::unlock);
    assertEquals(
        "cannot release the last lock of sparse set: shared reads of it still run",
        unlock.getMessage());
    assertTrue(set.isLocked(), "the refused unlock released nothing");
    final ConcurrentModificationException permit =
        assertThrows(
            ConcurrentModificationException.class, () -> set.permit(Thread.currentThread()));
    assertTrue(permit.getMessage().contains("cannot permit thread main"), permit.getMessage());
    assertTrue(set.isFrozen(), "the refused permit changed nothing");
    // A nested lock and its release are not the last one.
    set.lock("a nested pass", null);
    set.unlock();
    set.permit(null);
    set.endIteration();
    set.unlock();
    assertFalse(set.isLocked());
  }

  @Test
  void aSharedReadKeepsTheFloorOfTheTrackerThatWaits() throws InterruptedException {
    final TestSet set = filled(6);
    // The tracker's loop visits position 4; a schedule frozen inside its body lets another thread
    // read the whole set.
    set.beginIteration();
    set.visit(4);
    set.lock("a wave", null);
    final Throwable reader =
        onAnotherThread(
            () -> {
              set.beginIteration();
              try {
                for (int position = set.size() - 1; position >= 0; position--) {
                  set.visit(position);
                }
              } finally {
                set.endIteration();
              }
            });
    assertNull(reader);
    set.unlock();
    // Still at 4: removing position 0 would bring the last element below it.
    assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(0)));
    set.remove(set.at(4));
    set.endIteration();
    assertFalse(set.isIterated());
  }

  @Test
  void theTrackersNestedLoopInsideALockStaysTracked() {
    final TestSet set = filled(6);
    set.beginIteration();
    set.visit(4);
    set.lock("a chunk pass", null);
    // Nested on the tracker's thread: a tracked iteration, whose end restores the outer floor.
    set.beginIteration();
    set.visit(1);
    set.endIteration();
    set.unlock();
    assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(0)));
    set.endIteration();
    assertFalse(set.isIterated());
    set.remove(set.at(0));
  }

  @Test
  void aSecondThreadMayNotIterateASetThatIsNotFrozen() throws InterruptedException {
    final TestSet set = filled(ENTITIES);
    set.beginIteration();
    final Throwable refused = onAnotherThread(set::beginIteration);
    assertTrue(refused instanceof ConcurrentModificationException, String.valueOf(refused));
    assertEquals(
        "cannot iterate sparse set on thread other: thread main is iterating it, and it is not"
            + " frozen (locked with no thread permitted to change it), the only state in which"
            + " threads may iterate one set at once",
        refused.getMessage());
    final Throwable unbalanced = onAnotherThread(set::endIteration);
    assertTrue(unbalanced instanceof IllegalStateException, String.valueOf(unbalanced));
    assertTrue(set.isIterated(), "the refused calls changed nothing");
    set.endIteration();
    assertFalse(set.isIterated());
  }

  @Test
  void noThreadMayIterateASetAnotherThreadIsPermittedToChange() throws InterruptedException {
    final TestSet set = filled(ENTITIES);
    set.lock("a wave", null);
    set.permit(Thread.currentThread());
    assertFalse(set.isFrozen());
    final Throwable refused = onAnotherThread(set::beginIteration);
    assertTrue(refused instanceof ConcurrentModificationException, String.valueOf(refused));
    assertEquals(
        "cannot iterate sparse set on thread other: thread main may change its structure; declare"
            + " the iteration so that the schedule orders the two",
        refused.getMessage());
    // The permitted thread iterates with floors, and may change what it has visited.
    set.beginIteration();
    set.visit(ENTITIES - 1);
    assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(0)));
    set.remove(set.at(ENTITIES - 1));
    set.endIteration();
    set.unlock();
    assertFalse(set.isIterated());
  }

  @Test
  void aNonOwningGroupsMembersAreFrozenWhileItsStoragesAre() throws InterruptedException {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
      if (0 == i % 4) {
        registry.emplace(e, TC, new C(i));
      }
    }
    final Group group =
        registry.group(GroupTypes.NONE, GroupTypes.types(TA, TB), GroupTypes.types(TC));
    final SparseSet members = ((NonOwningGroup) group).members();
    assertFalse(members.isFrozen());
    registry.lockAll("a wave", this);
    assertTrue(members.isFrozen(), "every observed storage is frozen");
    registry.storage(TC).permit(Thread.currentThread());
    assertFalse(members.isFrozen(), "a thread may change who is excluded");
    registry.storage(TC).permit(null);
    final CyclicBarrier both = new CyclicBarrier(2);
    final AtomicInteger visited = new AtomicInteger();
    final LongConsumer reader =
        entity -> {
          if (0 == visited.getAndIncrement() % (ENTITIES * 3 / 4)) {
            await(both);
          }
        };
    final Throwable other =
        onAnotherThreadWhile(() -> group.each(reader), () -> group.each(reader));
    assertNull(other);
    assertEquals(2 * ENTITIES * 3 / 4, visited.get());
    assertFalse(members.isIterated());
    registry.unlockAll();
    assertEquals(List.of(), registry.verify());
    registry.remove(registry.storage(TA).at(0), TA);
    assertEquals(List.of(), registry.verify());
  }

  /** Runs {@code mine} here while {@code theirs} runs on another thread; returns what it threw. */
  private static Throwable onAnotherThreadWhile(final Runnable theirs, final Runnable mine)
      throws InterruptedException {
    final AtomicReference<Throwable> thrown = new AtomicReference<>();
    final Thread thread =
        new Thread(
            () -> {
              try {
                theirs.run();
              } catch (final RuntimeException | Error failure) {
                thrown.set(failure);
              }
            },
            "other");
    thread.start();
    mine.run();
    thread.join();
    return thrown.get();
  }

  @Test
  void twoViewsOverOneLockedStorageRunAtOnceAndAChangeIsRefused() throws InterruptedException {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      registry.emplace(registry.create(), TA, new A(i));
    }
    registry.lockAll("a wave", this);
    final CyclicBarrier both = new CyclicBarrier(2);
    final AtomicReference<Throwable> refused = new AtomicReference<>();
    final View mine = registry.view(TA);
    final View theirs = registry.view(TA);
    final Throwable other =
        onAnotherThreadWhile(
            () ->
                theirs.each(
                    entity -> {
                      if (entity == registry.storage(TA).at(ENTITIES - 1)) {
                        await(both);
                        await(both);
                      }
                    }),
            () ->
                mine.each(
                    entity -> {
                      if (entity == registry.storage(TA).at(ENTITIES - 1)) {
                        await(both);
                        try {
                          registry.remove(entity, TA);
                        } catch (final ConcurrentModificationException expected) {
                          refused.set(expected);
                        }
                        await(both);
                      }
                    }));
    assertNull(other);
    assertTrue(refused.get() != null, "a change of a frozen storage is refused");
    registry.unlockAll();
    assertEquals(ENTITIES, registry.storage(TA).size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aReaderThatThrowsAtAnyEntityLeavesNoReadBehind() throws InterruptedException {
    final Registry registry = new Registry();
    for (int i = 0; i < 16; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
    }
    final Group group = registry.group(GroupTypes.NONE, GroupTypes.types(TA, TB), GroupTypes.NONE);
    for (int k = 0; k < 16; k++) {
      final int failAt = k;
      registry.lockAll("a wave", this);
      final int[] visits = new int[1];
      final LongConsumer failing =
          entity -> {
            if (visits[0]++ == failAt) {
              throw new IllegalStateException("injected at " + failAt);
            }
          };
      final View view = registry.view(TA, TB);
      final Throwable other =
          onAnotherThreadWhile(
              () -> {
                registry.view(TA).each(entity -> {});
                group.each(entity -> {});
              },
              () -> {
                assertThrows(IllegalStateException.class, () -> view.each(failing));
                visits[0] = 0;
                assertThrows(IllegalStateException.class, () -> group.each(failing));
              });
      assertNull(other, "k = " + k);
      assertFalse(registry.storage(TA).isIterated(), "k = " + k);
      assertFalse(((NonOwningGroup) group).members().isIterated(), "k = " + k);
      registry.unlockAll();
      assertEquals(List.of(), registry.verify(), "k = " + k);
      // Nothing left frozen or iterated: a change goes through.
      final long moved = registry.storage(TA).at(0);
      registry.remove(moved, TA);
      registry.emplace(moved, TA, new A(k));
    }
  }
}
