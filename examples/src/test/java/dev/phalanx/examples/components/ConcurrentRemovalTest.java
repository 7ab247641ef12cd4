package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The concurrent-removal contract of an in-place generated storage ({@link Slot_Storage}): several
 * threads remove the components of distinct entities at once; afterwards no hole is lost or handed
 * out twice, every survivor keeps its position and value, and each destroy listener call happened
 * exactly once.
 */
class ConcurrentRemovalTest {

  private static final int ENTITIES = 60_000;
  private static final int THREADS = 4;
  private static final int ROUNDS = 12;

  @Test
  void distinctEntitiesRemovedConcurrentlyLoseNoHole() throws InterruptedException {
    final Random random = new Random(42);
    final Registry registry = new Registry();
    final Slot_Storage slots = registry.storage(Slot_Traits.TYPE);
    final long[] entities = new long[ENTITIES];
    for (int i = 0; i < ENTITIES; i++) {
      entities[i] = registry.create();
      slots.emplace(entities[i], i, "n" + i);
    }
    // A thread-safe listener: counts each destroy, by entity index.
    final AtomicIntegerArray destroyed = new AtomicIntegerArray(ENTITIES);
    slots.onDestroy().connect((owner, entity) -> destroyed.incrementAndGet(Entity.index(entity)));

    for (int round = 0; round < ROUNDS; round++) {
      // Choose about a third of the live entities, split among the threads.
      final List<List<Long>> work = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        work.add(new ArrayList<>());
      }
      final BitSet removedPositions = new BitSet();
      for (int i = 0; i < ENTITIES; i++) {
        if (slots.contains(entities[i]) && random.nextInt(3) == 0) {
          work.get(random.nextInt(THREADS)).add(entities[i]);
          removedPositions.set(slots.index(entities[i]));
        }
      }
      final int[] positionsBefore = new int[ENTITIES];
      for (int i = 0; i < ENTITIES; i++) {
        positionsBefore[i] = slots.indexOf(entities[i]);
      }
      final int sizeBefore = slots.size();
      final int holesBefore = countHoles(slots, new BitSet());

      removeConcurrently(slots, work);

      // Survivors: same position, same value. Removed: gone, and destroyed exactly once.
      for (int i = 0; i < ENTITIES; i++) {
        final int before = positionsBefore[i];
        if (SparseSet.ABSENT == before) {
          continue;
        }
        if (removedPositions.get(before)) {
          assertFalse(slots.contains(entities[i]));
          assertEquals(1, destroyed.get(Entity.index(entities[i])));
          destroyed.set(Entity.index(entities[i]), 0);
        } else {
          assertEquals(before, slots.index(entities[i]));
          assertEquals(new Slot(i, "n" + i), slots.get(entities[i]));
        }
      }
      assertEquals(sizeBefore, slots.size(), "nothing moved and nothing was appended");
      // The free list holds exactly the old holes plus one per removal, each once, no cycle.
      final BitSet holes = new BitSet();
      assertEquals(holesBefore + removedPositions.cardinality(), countHoles(slots, holes));
      final BitSet expected = new BitSet();
      expected.or(removedPositions);
      expected.andNot(holes);
      assertTrue(expected.isEmpty(), "every removed position is a hole");

      // Refill half of the removed: each insertion takes a distinct hole.
      final BitSet reused = new BitSet();
      int refill = removedPositions.cardinality() / 2;
      for (int i = 0; i < ENTITIES && refill > 0; i++) {
        if (!slots.contains(entities[i])) {
          slots.emplace(entities[i], i, "n" + i);
          final int position = slots.index(entities[i]);
          assertTrue(holes.get(position), "an insertion takes a hole while there is one");
          assertFalse(reused.get(position), "a hole is handed out once");
          reused.set(position);
          refill--;
        }
      }
      assertEquals(sizeBefore, slots.size());
    }
  }

  private static void removeConcurrently(final Slot_Storage slots, final List<List<Long>> work)
      throws InterruptedException {
    final CountDownLatch start = new CountDownLatch(1);
    final List<Thread> threads = new ArrayList<>();
    final Throwable[] failure = new Throwable[1];
    for (final List<Long> mine : work) {
      final Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (final long entity : mine) {
                    assertTrue(slots.remove(entity));
                  }
                } catch (InterruptedException | RuntimeException | AssertionError e) {
                  synchronized (failure) {
                    failure[0] = e;
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (final Thread thread : threads) {
      // join() publishes the removals to this thread.
      thread.join();
    }
    synchronized (failure) {
      if (null != failure[0]) {
        throw new AssertionError("a removing thread failed", failure[0]);
      }
    }
  }

  /** Walks the free list, marking each hole in {@code holes}; fails on a cycle or a live slot. */
  private static int countHoles(final Slot_Storage slots, final BitSet holes) {
    int count = 0;
    for (int hole = slots.firstHole();
        SparseSet.ABSENT != hole;
        hole = Entity.index(slots.packed()[hole])) {
      assertTrue(Entity.isTombstone(slots.packed()[hole]), "the free list reaches a live slot");
      assertFalse(holes.get(hole), "the free list has a cycle at " + hole);
      holes.set(hole);
      count++;
    }
    return count;
  }
}
