package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.intOf;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.D;
import dev.phalanx.ecs.GroupTypes.E;
import dev.phalanx.ecs.GroupTypes.F;
import dev.phalanx.ecs.GroupTypes.S;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Eight threads remove distinct entities from one in-place storage (S) that groups observe: it is a
 * get type of an owning group, part of a non-owning group and excluded by another owning group (so
 * that every removal moves elements of owned storages or of a member set). Group upkeep must be
 * serialized: after every round the registry is consistent, group sizes are right and every
 * survivor is intact.
 */
class ConcurrentInPlaceRemovalTest {

  private static final int THREADS = 8;
  private static final int PER_THREAD = 600;
  private static final int ROUNDS = 20;

  @Test
  void eightThreadsRemovingDistinctEntitiesKeepGroupsExact() throws Exception {
    final Registry registry = new Registry();
    final OwningGroup abGetS = registry.owningGroup(types(TA, TB), types(TS), NONE);
    final NonOwningGroup sd = registry.nonOwningGroup(types(TS, TD), NONE);
    final OwningGroup efNoS = registry.owningGroup(types(TE, TF), NONE, types(TS));
    final int count = THREADS * PER_THREAD;
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final long e = registry.create();
      entities.add(e);
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(i));
      registry.emplace(e, TD, new D(i));
      registry.emplace(e, TE, new E(i));
      registry.emplace(e, TF, new F(i));
    }
    final ObjectStorage<S> ss = registry.storage(TS);
    final AtomicInteger destroySignals = new AtomicInteger();
    final AtomicInteger unreadable = new AtomicInteger();
    // A thread-safe listener: the component is still readable while its removal is announced.
    ss.onDestroy()
        .connect(
            (r, e) -> {
              destroySignals.incrementAndGet();
              if (null == ss.tryGet(e) || ss.tryGet(e).value() != (int) e) {
                unreadable.incrementAndGet();
              }
            });
    final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        // Every entity gets S back (single-threaded): it enters <A,B|S>, <S,D> and leaves <E,F> !S.
        for (final long e : entities) {
          registry.emplace(e, TS, new S((int) e));
        }
        assertEquals(count, abGetS.size());
        assertEquals(count, sd.size());
        assertEquals(0, efNoS.size());
        // Every thread removes S from its own interleaved slice (all but one entity in eight per
        // round in the last round, so that survivors stay).
        final boolean partial = round == ROUNDS - 1;
        final CyclicBarrier start = new CyclicBarrier(THREADS);
        final List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          final int thread = t;
          done.add(
              pool.submit(
                  () -> {
                    start.await();
                    for (int i = thread; i < count; i += THREADS) {
                      if (!partial || i % 7 != 0) {
                        assertTrue(ss.remove(entities.get(i)));
                      }
                    }
                    return null;
                  }));
        }
        for (final Future<?> future : done) {
          future.get();
        }
        final List<String> problems = registry.verify();
        assertTrue(problems.isEmpty(), "round " + round + ": " + problems);
        final int kept = partial ? (count + 6) / 7 : 0;
        assertEquals(kept, abGetS.size(), "round " + round);
        assertEquals(kept, sd.size(), "round " + round);
        assertEquals(count - kept, efNoS.size(), "round " + round);
        assertEquals(0, unreadable.get());
        for (int i = 0; i < count; i++) {
          final long e = entities.get(i);
          assertEquals(partial && i % 7 == 0, ss.contains(e));
          assertEquals(i, intOf(registry.storage(TA), e));
          assertEquals(i, intOf(registry.storage(TB), e));
          assertEquals(i, intOf(registry.storage(TD), e));
          assertEquals(i, intOf(registry.storage(TE), e));
          assertEquals(i, intOf(registry.storage(TF), e));
        }
        if (!partial) {
          ss.compact();
          assertFalse(ss.hasTombstones());
        }
      }
      assertEquals((long) count * ROUNDS - (count + 6) / 7, destroySignals.get());
    } finally {
      pool.shutdownNow();
    }
  }
}
