package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scenarios that once left the world half-changed (a throwing listener, accessor or comparator, a
 * change refused inside an iteration, a re-entrant destroy or clear, a stale handle): each checks
 * that the operation is applied in full or not at all and that {@link Registry#verify()} stays
 * empty.
 */
class NeverHalfChangedScenariosTest {

  private final Registry registry = new Registry();

  private void assertConsistent() {
    final List<String> problems = registry.verify();
    assertTrue(problems.isEmpty(), problems.toString());
  }

  private long entity(final ComponentType<?, ?>... types) {
    final long e = registry.create();
    for (final ComponentType<?, ?> type : types) {
      put(e, type, (int) e);
    }
    return e;
  }

  private <T> void put(final long e, final ComponentType<T, ?> type, final int v) {
    registry.emplace(e, type, value(type, v));
  }

  private static Set<Long> members(final Group group) {
    final Set<Long> result = new HashSet<>();
    for (int p = 0; p < group.size(); p++) {
      result.add(group.entityAt(p));
    }
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // A throwing destroy listener: the removal still happens, groups follow, exception rethrown.
  // ---------------------------------------------------------------------------------------------

  static Stream<Arguments> removals() {
    return Stream.of(
        Arguments.of("remove", (RemovalPath) (r, e, type) -> r.remove(e, type)),
        Arguments.of("erase", (RemovalPath) (r, e, type) -> r.erase(e, type)),
        Arguments.of("destroy", (RemovalPath) (r, e, type) -> r.destroy(e)),
        Arguments.of(
            "destroy batch", (RemovalPath) (r, e, type) -> r.destroy(new long[] {e}, 0, 1)),
        Arguments.of("clear(type)", (RemovalPath) (r, e, type) -> r.clear(type)),
        Arguments.of("storage.clear()", (RemovalPath) (r, e, type) -> r.storage(type).clear()),
        Arguments.of("registry.clear()", (RemovalPath) (r, e, type) -> r.clear()));
  }

  interface RemovalPath {
    void remove(Registry registry, long entity, ComponentType<?, ?> type);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("removals")
  void aThrowingDestroyListenerStillRemovesAndGroupsFollow(
      final String name, final RemovalPath path) {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final OwningGroup abc = registry.owningGroup(types(TA, TB, TC), NONE, types(TX));
    final NonOwningGroup nb = registry.nonOwningGroup(types(TB, TS), types(TX));
    final long other = entity(TA, TB, TC, TS);
    final long e = entity(TA, TB, TC, TS);
    final RuntimeException boom = new IllegalStateException("boom");
    final int[] calls = {0};
    registry
        .storage(TB)
        .onDestroy()
        .connect(
            (r, x) -> {
              calls[0]++;
              assertTrue(r.has(x, TB), "the component is still readable");
              throw boom;
            });
    registry.storage(TB).onDestroy().connect((r, x) -> calls[0]++);
    final Throwable thrown = assertThrows(Throwable.class, () -> path.remove(registry, e, TB));
    assertSame(boom, thrown);
    assertTrue(calls[0] >= 2, "the second listener ran");
    if (registry.valid(e)) {
      assertFalse(registry.has(e, TB));
    }
    assertFalse(ab.contains(e));
    assertFalse(abc.contains(e));
    assertFalse(nb.contains(e));
    assertConsistent();
    if (!name.contains("clear")) {
      assertTrue(ab.contains(other) && abc.contains(other) && nb.contains(other));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("removals")
  void aThrowingDestroyListenerOnAnExcludedTypeLetsTheEntityEnter(
      final String name, final RemovalPath path) {
    final OwningGroup abc = registry.owningGroup(types(TA, TB, TC), NONE, types(TX));
    final NonOwningGroup nb = registry.nonOwningGroup(types(TB, TS), types(TX));
    final long e = entity(TA, TB, TC, TS, TX);
    registry
        .storage(TX)
        .onDestroy()
        .connect(
            (r, x) -> {
              throw new IllegalStateException("boom");
            });
    assertThrows(IllegalStateException.class, () -> path.remove(registry, e, TX));
    assertConsistent();
    if (registry.valid(e)) {
      assertFalse(registry.has(e, TX));
      assertTrue(abc.contains(e), "X removed: the entity is in the group that excludes X");
      assertTrue(nb.contains(e));
    } else {
      assertEquals(0, abc.size());
      assertEquals(0, nb.size());
    }
  }

  @Test
  void aThrowingConstructListenerConnectedFirstDoesNotMakeGroupsMissTheEntity() {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final OwningGroup abc = registry.owningGroup(types(TA, TB, TC), NONE, types(TX));
    final NonOwningGroup nc = registry.nonOwningGroup(types(TC), types(TX));
    final List<Boolean> seenInGroup = new ArrayList<>();
    registry
        .storage(TC)
        .onConstruct()
        .connectFirst(
            (r, x) -> {
              seenInGroup.add(abc.contains(x) && nc.contains(x));
              throw new IllegalStateException("first");
            });
    registry
        .storage(TC)
        .onConstruct()
        .connect(
            (r, x) -> {
              throw new IllegalArgumentException("second");
            });
    final long e = entity(TA, TB);
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> put(e, TC, 1));
    assertEquals("second", error.getSuppressed()[0].getMessage());
    assertEquals(List.of(true), seenInGroup, "group upkeep ran before the listeners");
    assertTrue(registry.has(e, TC));
    assertTrue(ab.contains(e) && abc.contains(e) && nc.contains(e));
    assertConsistent();
  }

  // ---------------------------------------------------------------------------------------------
  // Refused changes inside eachChunk / parallelEachChunk.
  // ---------------------------------------------------------------------------------------------

  @Test
  void changesRefusedInsideEachChunkChangeNothingAndFireNothing() {
    final OwningGroup ab = registry.owningGroup(types(TA, TB), NONE, types(TC));
    final OwningGroup d = registry.owningGroup(types(TD), types(TB), NONE);
    // The storages that the refused group creations name exist already: the check is about groups.
    registry.storage(TX);
    registry.storage(TE);
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      es.add(entity(TA, TB, TD));
    }
    final long outsider = entity(TA);
    final int[] destroyCalls = {0};
    for (final ComponentType<?, ?> type : types(TA, TB, TC, TD)) {
      registry.storage(type).onDestroy().connect((r, x) -> destroyCalls[0]++);
    }
    final FaultWorldLikeSnapshot before = new FaultWorldLikeSnapshot(registry);
    final List<Class<?>> refusals = new ArrayList<>();
    ab.eachChunk(
        (from, to) -> {
          final List<Runnable> attempts =
              List.of(
                  () -> registry.remove(es.get(1), TB), // B is owned: the member would leave
                  () -> registry.destroy(es.get(0)), // D is unlocked, A and B are locked
                  () -> registry.emplace(es.get(3), TC, new C(1)), // C is excluded: locked
                  () -> registry.emplace(outsider, TB, new B(1)),
                  () -> registry.clear(TA),
                  () -> registry.clear(),
                  () -> registry.owningGroup(types(TA, TB), NONE, types(TC, TX)),
                  () -> registry.group(types(TA, TB, TE), NONE, types(TC)));
          for (int i = 0; i < attempts.size(); i++) {
            final FaultWorldLikeSnapshot inside = new FaultWorldLikeSnapshot(registry);
            final RuntimeException refused =
                assertThrows(RuntimeException.class, attempts.get(i)::run, "attempt " + i);
            refusals.add(refused.getClass());
            assertEquals(
                inside,
                new FaultWorldLikeSnapshot(registry),
                "attempt " + i + " changed something: " + refused);
          }
        });
    for (final Class<?> refusal : refusals) {
      assertEquals(ConcurrentModificationException.class, refusal);
    }
    assertEquals(before, new FaultWorldLikeSnapshot(registry));
    assertEquals(0, destroyCalls[0], "listeners fired for a refused removal");
    assertEquals(2, registry.groups().size(), "a refused group creation left a group registered");
    assertEquals(5, ab.size());
    assertEquals(5, d.size());
    assertConsistent();
  }

  @Test
  void removingAThenTheLockOfBRefusesBeforeSwappingA() {
    // <A,B> owns A and B; a chunk iteration of <D> get B locks B (not A). Removing A from a member
    // of <A,B> would swap A and B: refused before A moves.
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final OwningGroup dGetB = registry.owningGroup(types(TD), types(TB), NONE);
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      es.add(entity(TA, TB, TD));
    }
    final List<Long> packedA = new ArrayList<>();
    dGetB.eachChunk(
        (from, to) -> {
          final long[] a = registry.storage(TA).packed();
          for (int p = 0; p < registry.storage(TA).size(); p++) {
            packedA.add(a[p]);
          }
          assertThrows(ConcurrentModificationException.class, () -> registry.remove(es.get(0), TA));
          assertTrue(registry.has(es.get(0), TA));
          for (int p = 0; p < packedA.size(); p++) {
            assertEquals(packedA.get(p), registry.storage(TA).packed()[p], "A moved at " + p);
          }
        });
    assertEquals(6, ab.size());
    assertConsistent();
  }

  @Test
  void parallelEachChunkRefusesChangesFromWorkersAndUnlocksAfter() {
    final OwningGroup ef = registry.owningGroup(TE, TF);
    for (int i = 0; i < 40_000; i++) {
      entity(TE, TF);
    }
    final FaultWorldLikeSnapshot before = new FaultWorldLikeSnapshot(registry);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final AtomicInteger refused = new AtomicInteger();
      final AtomicInteger allowed = new AtomicInteger();
      ef.parallelEachChunk(
          pool,
          (from, to) -> {
            if (0 == from % 4096) {
              try {
                registry.remove(ef.entityAt(from), TF);
              } catch (final ConcurrentModificationException expected) {
                refused.incrementAndGet();
              }
            }
            allowed.incrementAndGet();
          });
      assertTrue(refused.get() >= 9, "refusals: " + refused.get());
      assertEquals(before, new FaultWorldLikeSnapshot(registry));
      assertFalse(registry.storage(TE).isLocked() || registry.storage(TF).isLocked());
    } finally {
      pool.shutdown();
    }
    assertConsistent();
  }

  @Test
  void parallelEachChunkReturnsOnlyWhenEveryTaskIsDoneAndKeepsEveryFailure() throws Exception {
    final OwningGroup ef = registry.owningGroup(TE, TF);
    final int count = 100_000;
    for (int i = 0; i < count; i++) {
      entity(TE, TF);
    }
    final ForkJoinPool pool = new ForkJoinPool(4);
    try {
      final AtomicInteger running = new AtomicInteger();
      final AtomicBoolean returned = new AtomicBoolean();
      final AtomicBoolean ranAfterReturn = new AtomicBoolean();
      final ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
      final AtomicBoolean claimed = new AtomicBoolean();
      final java.util.concurrent.CountDownLatch otherStarted =
          new java.util.concurrent.CountDownLatch(1);
      final Throwable failure =
          FaultInjectionTest.catchThrowable(
              () ->
                  ef.parallelEachChunk(
                      pool,
                      (from, to) -> {
                        running.incrementAndGet();
                        try {
                          if (returned.get()) {
                            ranAfterReturn.set(true);
                          }
                          if (0 == from) {
                            // Fail fast, but only once another task is running (and will fail
                            // slowly).
                            await(otherStarted);
                            final RuntimeException boom = new IllegalStateException("first chunk");
                            thrown.add(boom);
                            throw boom;
                          }
                          if (claimed.compareAndSet(false, true)) {
                            otherStarted.countDown();
                            sleep(150);
                            final RuntimeException late =
                                new IllegalArgumentException("chunk at " + from);
                            thrown.add(late);
                            throw late;
                          }
                        } finally {
                          running.decrementAndGet();
                        }
                      }));
      returned.set(true);
      assertEquals(0, running.get(), "parallelEachChunk returned while chunks were running");
      sleep(200);
      assertFalse(ranAfterReturn.get(), "a chunk ran after parallelEachChunk returned");
      assertEquals(2, thrown.size(), "two chunks failed");
      assertTrue(thrown.contains(failure), "rethrew a failure of a chunk: " + failure);
      final Set<Throwable> reachable = FaultWorld.reachable(failure);
      for (final Throwable t : thrown) {
        assertTrue(reachable.contains(t), "lost failure " + t);
      }
      assertFalse(registry.storage(TE).isLocked() || registry.storage(TF).isLocked());
      registry.destroy(ef.entityAt(0));
      assertConsistent();
    } finally {
      pool.shutdown();
    }
  }

  private static void await(final java.util.concurrent.CountDownLatch latch) {
    try {
      assertTrue(latch.await(5, java.util.concurrent.TimeUnit.SECONDS), "no other task started");
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(final long millis) {
    try {
      Thread.sleep(millis);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Group sorts.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aThrowingGroupComparatorMovesNothing() {
    final OwningGroup abc = registry.owningGroup(TA, TB, TC);
    for (int i = 0; i < 40; i++) {
      entity(TA, TB, TC);
    }
    final FaultWorldLikeSnapshot before = new FaultWorldLikeSnapshot(registry);
    final int[] calls = {0};
    assertThrows(
        IllegalStateException.class,
        () ->
            abc.sort(
                (l, r) -> {
                  if (++calls[0] == 50) {
                    throw new IllegalStateException("comparator");
                  }
                  return Long.compare(r, l);
                }));
    assertEquals(50, calls[0]);
    assertEquals(before, new FaultWorldLikeSnapshot(registry));
    assertConsistent();
  }

  @Test
  void aComparatorChangingTheWorldGetsACmeAndTheSortStillCompletes() {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final NonOwningGroup nc = registry.nonOwningGroup(types(TC), NONE);
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      es.add(entity(TA, TB, TC));
    }
    final FaultWorldLikeSnapshot before = new FaultWorldLikeSnapshot(registry);
    final int[] refused = {0};
    final Runnable[] changes = {
      () -> registry.remove(es.get(3), TA),
      () -> registry.destroy(es.get(4)),
      () -> registry.emplace(registry.create(), TA, new A(1)),
      () -> registry.clear(TB),
    };
    ab.sort(
        (l, r) -> {
          try {
            changes[refused[0] % changes.length].run();
          } catch (final ConcurrentModificationException expected) {
            refused[0]++;
          }
          return Long.compare(r, l);
        });
    assertTrue(refused[0] > 40, "every change was refused: " + refused[0]);
    for (int p = 1; p < ab.size(); p++) {
      assertTrue(ab.entityAt(p - 1) > ab.entityAt(p), "sorted at " + p);
    }
    assertEquals(before.contents, new FaultWorldLikeSnapshot(registry).contents);
    assertConsistent();
    // The same for a non-owning group's and a storage's comparator.
    nc.sort(
        (l, r) -> {
          assertThrows(ConcurrentModificationException.class, () -> registry.remove(es.get(5), TC));
          return Long.compare(l, r);
        });
    registry.storage(TD).emplace(es.get(0), value(TD, 1));
    registry.storage(TD).emplace(es.get(1), value(TD, 1));
    registry
        .storage(TD)
        .sort(
            (l, r) -> {
              assertThrows(
                  ConcurrentModificationException.class, () -> registry.remove(es.get(0), TD));
              return Long.compare(r, l);
            });
    assertTrue(registry.storage(TD).at(0) > registry.storage(TD).at(1));
    assertEquals(before.contents.size() + 2, new FaultWorldLikeSnapshot(registry).contents.size());
    assertConsistent();
  }

  @Test
  void sortByPositionMayReadTheSecondOwnedStorage() {
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B((i * 7919) % 200));
      es.add(e);
    }
    final ObjectStorage<B> bs = registry.storage(TB);
    ab.sortByPosition((l, r) -> Integer.compare(bs.valueAt(l).value(), bs.valueAt(r).value()));
    for (int p = 0; p < ab.size(); p++) {
      assertEquals(p, bs.valueAt(p).value(), "B sorted ascending at " + p);
      final long e = ab.entityAt(p);
      assertEquals(registry.get(e, TA).value() * 7919 % 200, registry.get(e, TB).value());
    }
    assertConsistent();
  }

  // ---------------------------------------------------------------------------------------------
  // Destroy and clear.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aDestroyListenerEmplacingIntoAStrippedStorageIsRefused() {
    registry.owningGroup(TA, TB);
    final long e = entity(TA, TB, TC);
    // C was created last, so it is stripped first; B's listener tries to put C back.
    registry.storage(TB).onDestroy().connect((r, x) -> r.emplace(x, TC, new C(9)));
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> registry.destroy(e));
    assertTrue(error.getMessage().contains("being destroyed"), error.getMessage());
    assertFalse(registry.valid(e));
    assertFalse(registry.storage(TC).contains(e));
    assertConsistent();
    // The index is recycled: emplacing works.
    final long recycled = registry.create();
    assertEquals(Entity.index(e), Entity.index(recycled));
    registry.emplace(recycled, TC, new C(1));
    assertConsistent();
  }

  @Test
  void spawningDuringRegistryClearIsRefused() {
    registry.owningGroup(TA, TB);
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      es.add(entity(TA, TB, TC));
    }
    final List<Class<?>> refusals = new ArrayList<>();
    registry
        .storage(TC)
        .onDestroy()
        .connect(
            (r, x) -> {
              try {
                r.create();
              } catch (final IllegalStateException refused) {
                refusals.add(refused.getClass());
              }
            });
    registry.storage(TA).onDestroy().connect((r, x) -> r.emplace(x, TC, new C(2)));
    final IllegalStateException error = assertThrows(IllegalStateException.class, registry::clear);
    assertTrue(error.getMessage().contains("being cleared"), error.getMessage());
    assertEquals(5, refusals.size());
    assertEquals(0, registry.alive());
    for (int i = 0; i < registry.storageCount(); i++) {
      assertEquals(0, countLive(registry.storageAt(i)), registry.storageAt(i).describe());
    }
    assertConsistent();
    for (final long e : es) {
      final long recycled = registry.create();
      assertNotEquals(e, recycled);
      registry.emplace(recycled, TC, new C(1));
      registry.emplace(recycled, TA, new A(1));
    }
    assertConsistent();
  }

  private static int countLive(final SparseSet set) {
    int live = 0;
    for (int p = 0; p < set.size(); p++) {
      live += Entity.isTombstone(set.packed()[p]) ? 0 : 1;
    }
    return live;
  }

  @Test
  void destroyingAnEntityAgainFromItsOwnDestroyListenerIsANoOp() {
    registry.owningGroup(TA, TB);
    final long e = entity(TA, TB, TC);
    final int[] calls = {0};
    registry
        .storage(TB)
        .onDestroy()
        .connect(
            (r, x) -> {
              calls[0]++;
              r.destroy(x);
            });
    registry.destroy(e);
    assertEquals(1, calls[0]);
    assertFalse(registry.valid(e));
    assertConsistent();
    // Also through a batch, and for a removal that triggers a destroy of the entity.
    final long f = entity(TA, TB, TC);
    registry.destroy(new long[] {f}, 0, 1);
    assertFalse(registry.valid(f));
    final long g = entity(TA, TB, TC);
    registry.remove(g, TB);
    assertFalse(registry.valid(g), "B's listener destroyed the entity");
    assertConsistent();
  }

  @Test
  void aDestroyListenerClearingTheRegistryLetsTheDestroyComplete() {
    final long e = entity(TA, TB);
    entity(TA);
    registry.storage(TB).onDestroy().connect((r, x) -> r.clear());
    registry.destroy(e);
    assertEquals(0, registry.alive());
    assertConsistent();
  }

  @Test
  void aDestroyListenerClearingTheRegistryLetsABatchComplete() {
    final long e = entity(TA, TB);
    final long f = entity(TA);
    registry.storage(TB).onDestroy().connect((r, x) -> r.clear());
    registry.destroy(new long[] {e, f}, 0, 2);
    assertEquals(0, registry.alive());
    assertConsistent();
  }

  // ---------------------------------------------------------------------------------------------
  // Iterators.
  // ---------------------------------------------------------------------------------------------

  static Stream<Arguments> iterators() {
    return Stream.of(
        Arguments.of("view", (IteratorFactory) (r, lead) -> r.view(TA, TB).leadBy(lead).iterator()),
        Arguments.of(
            "runtime view",
            (IteratorFactory)
                (r, lead) -> new RuntimeView().iterate(lead).iterate(r.storage(TB)).iterator()));
  }

  interface IteratorFactory {
    EntityIterator make(Registry registry, SparseSet lead);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("iterators")
  void iteratorsCheckBeforeTheFirstStep(final String name, final IteratorFactory factory) {
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      es.add(entity(TA, TB));
    }
    final ObjectStorage<A> as = registry.storage(TA);
    final EntityIterator sorted = factory.make(registry, as);
    as.sort((l, r) -> Long.compare(r, l));
    assertThrows(ConcurrentModificationException.class, sorted::hasNext);
    final EntityIterator sortedNext = factory.make(registry, as);
    as.sort((l, r) -> Long.compare(l, r));
    assertThrows(ConcurrentModificationException.class, sortedNext::nextLong);
    final EntityIterator cleared = factory.make(registry, as);
    registry.clear(TA);
    assertThrows(ConcurrentModificationException.class, cleared::hasNext);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("iterators")
  void iteratorsCheckBetweenHasNextAndNextLong(final String name, final IteratorFactory factory) {
    final List<Long> es = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      es.add(entity(TA, TB));
    }
    final ObjectStorage<A> as = registry.storage(TA);
    // Removing the promised (still to come) entity moves an already returned one below the floor.
    final EntityIterator iterator = factory.make(registry, as);
    final long first = iterator.nextLong();
    assertTrue(iterator.hasNext());
    registry.remove(as.packed()[as.index(first) - 1], TA);
    assertThrows(ConcurrentModificationException.class, iterator::nextLong);
    // The remaining entities leave the view (not the leader) between hasNext and nextLong: a CME,
    // never a NoSuchElementException.
    final EntityIterator again = factory.make(registry, as);
    final long returned = again.nextLong();
    assertTrue(again.hasNext());
    for (final long e : es) {
      if (e != returned && registry.valid(e) && registry.has(e, TB)) {
        registry.remove(e, TB);
      }
    }
    final Throwable thrown = assertThrows(RuntimeException.class, again::nextLong);
    assertEquals(ConcurrentModificationException.class, thrown.getClass());
    assertFalse(thrown instanceof NoSuchElementException);
  }

  // ---------------------------------------------------------------------------------------------
  // Partial inserts.
  // ---------------------------------------------------------------------------------------------

  /**
   * A mutable component whose accessor may throw or run user code, as a generated storage reads
   * them.
   */
  static final class Probe {
    final int value;
    final Runnable onRead;

    Probe(final int value, final Runnable onRead) {
      this.value = value;
      this.onRead = onRead;
    }

    int value() {
      onRead.run();
      return value;
    }
  }

  /**
   * A storage that reads the instance's accessor in {@code stage} and writes in {@code writeStaged}
   * (as generated storages do), keeps ints in pages, and can fail to allocate a page once.
   */
  static final class ProbeStorage extends Storage<Probe> {
    private int[][] pages = new int[0][];
    private int staged;
    boolean failNextPage;

    ProbeStorage(final ComponentType<Probe, ?> type) {
      super(type);
    }

    @Override
    protected void allocatePage(final int page) {
      if (failNextPage) {
        failNextPage = false;
        throw new OutOfMemoryError("simulated");
      }
      if (page >= pages.length) {
        pages = java.util.Arrays.copyOf(pages, Math.max(page + 1, pages.length * 2));
      }
      if (null == pages[page]) {
        pages[page] = new int[pageSize()];
      }
    }

    @Override
    protected Probe getAt(final int position) {
      return new Probe(pages[position >>> pageShift()][position & (pageSize() - 1)], () -> {});
    }

    @Override
    protected void setAt(final int position, final Probe value) {
      stage(value);
      writeStaged(position);
    }

    @Override
    protected void stage(final Probe value) {
      staged = value.value(); // user code: runs before any position is chosen
    }

    @Override
    protected void writeStaged(final int position) {
      pages[position >>> pageShift()][position & (pageSize() - 1)] = staged;
    }

    @Override
    protected void moveElement(final int from, final int to) {
      pages[to >>> pageShift()][to & (pageSize() - 1)] =
          pages[from >>> pageShift()][from & (pageSize() - 1)];
    }

    @Override
    protected void swapElements(final int left, final int right) {
      final int v = pages[left >>> pageShift()][left & (pageSize() - 1)];
      pages[left >>> pageShift()][left & (pageSize() - 1)] =
          pages[right >>> pageShift()][right & (pageSize() - 1)];
      pages[right >>> pageShift()][right & (pageSize() - 1)] = v;
    }

    @Override
    protected void releaseElement(final int position) {
      pages[position >>> pageShift()][position & (pageSize() - 1)] = -1;
    }
  }

  static final ComponentType<Probe, ProbeStorage> PROBE =
      ComponentType.define(Probe.class, ComponentTraits.DEFAULT.withPageSize(2), ProbeStorage::new);

  @Test
  void aThrowingAccessorInsertsNothingAndPublishesNothing() {
    final ProbeStorage probes = registry.storage(PROBE);
    final NonOwningGroup group = registry.nonOwningGroup(types(PROBE, TA), NONE);
    final int[] constructs = {0};
    probes.onConstruct().connect((r, x) -> constructs[0]++);
    final long e = entity(TA);
    final RuntimeException boom = new IllegalStateException("accessor");
    assertSame(
        boom,
        assertThrows(
            IllegalStateException.class,
            () ->
                probes.emplace(
                    e,
                    new Probe(
                        1,
                        () -> {
                          throw boom;
                        }))));
    assertFalse(probes.contains(e));
    assertEquals(0, probes.size());
    assertEquals(0, constructs[0]);
    assertFalse(group.contains(e));
    assertConsistent();
    probes.emplace(e, new Probe(5, () -> {}));
    assertEquals(5, probes.get(e).value);
    assertTrue(group.contains(e));
    // replace with a throwing accessor: nothing written.
    assertThrows(
        IllegalStateException.class,
        () ->
            probes.replace(
                e,
                new Probe(
                    6,
                    () -> {
                      throw boom;
                    })));
    assertEquals(5, probes.get(e).value);
    assertConsistent();
  }

  @Test
  void aPageThatCannotBeAllocatedInsertsNothing() {
    final ProbeStorage probes = registry.storage(PROBE);
    registry.nonOwningGroup(types(PROBE), NONE);
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    probes.emplace(a, new Probe(1, () -> {}));
    probes.emplace(b, new Probe(2, () -> {}));
    probes.failNextPage = true; // page 1 (positions 2, 3)
    assertThrows(OutOfMemoryError.class, () -> probes.emplace(c, new Probe(3, () -> {})));
    assertFalse(probes.contains(c));
    assertEquals(2, probes.size());
    assertEquals(null, probes.tryGet(c));
    assertConsistent();
    probes.emplace(c, new Probe(3, () -> {}));
    assertEquals(3, probes.get(c).value);
    assertEquals(2, probes.pageCount());
    assertConsistent();
  }

  @Test
  void pageSizesAboveTheMaximumAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ComponentTraits.DEFAULT.withPageSize(ComponentTraits.MAX_PAGE_SIZE * 2));
    assertThrows(
        IllegalArgumentException.class, () -> ComponentTraits.DEFAULT.withPageSize(1 << 30));
    assertEquals(
        ComponentTraits.MAX_PAGE_SIZE,
        ComponentTraits.DEFAULT.withPageSize(ComponentTraits.MAX_PAGE_SIZE).pageSize());
  }

  @Test
  void anAccessorThatInsertsIntoTheSameStorageDoesNotOverwriteTheOtherElement() {
    final ProbeStorage probes = registry.storage(PROBE);
    final long first = registry.create();
    final long other = registry.create();
    final long e = registry.create();
    probes.emplace(first, new Probe(1, () -> {}));
    // Reading e's value inserts 'other' at the position e was prepared for.
    final Throwable thrown =
        FaultInjectionTest.catchThrowable(
            () ->
                probes.emplace(
                    e,
                    new Probe(
                        3,
                        () -> {
                          if (!probes.contains(other)) {
                            probes.emplace(other, new Probe(2, () -> {}));
                          }
                        })));
    assertTrue(probes.contains(other));
    assertEquals(
        2, probes.get(other).value, "the other element's payload was overwritten (" + thrown + ")");
    assertConsistent();
  }

  @Test
  void anAccessorThatRemovesTheReplacedComponentDoesNotOverwriteTheMovedElement() {
    final ProbeStorage probes = registry.storage(PROBE);
    final long e = registry.create();
    final long last = registry.create();
    probes.emplace(e, new Probe(1, () -> {}));
    probes.emplace(last, new Probe(2, () -> {}));
    final Throwable thrown =
        FaultInjectionTest.catchThrowable(
            () -> probes.replace(e, new Probe(3, () -> probes.remove(e))));
    assertEquals(
        2, probes.get(last).value, "the moved element's payload was overwritten (" + thrown + ")");
    assertConsistent();
  }

  // ---------------------------------------------------------------------------------------------
  // Ranges, null storages, stale handles, EntityStorage.current.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aDestroyBatchPastTheEndDestroysNothing() {
    final long[] batch = {entity(TA), entity(TB), entity(TA, TB)};
    assertThrows(IndexOutOfBoundsException.class, () -> registry.destroy(batch, 0, 4));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.destroy(batch, -1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.destroy(batch, 2, 1));
    for (final long e : batch) {
      assertTrue(registry.valid(e));
    }
    final long stale = registry.create();
    registry.destroy(stale);
    final long[] withStale = {batch[0], stale, batch[1]};
    assertThrows(IllegalArgumentException.class, () -> registry.destroy(withStale, 0, 3));
    assertTrue(registry.valid(batch[0]) && registry.valid(batch[1]), "all or none");
    registry.destroy(new long[] {batch[0], batch[0], batch[2]}, 0, 3);
    assertFalse(registry.valid(batch[0]) || registry.valid(batch[2]));
    assertConsistent();
  }

  @Test
  void createWithAnOverflowingRangeLeaksNoEntity() {
    final long[] out = new long[4];
    final int size = registry.entities().size();
    assertThrows(IndexOutOfBoundsException.class, () -> registry.create(out, Integer.MAX_VALUE, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.create(out, 3, Integer.MAX_VALUE));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.create(out, -1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.create(out, 0, -1));
    assertEquals(0, registry.alive());
    assertEquals(size, registry.entities().size());
    assertEquals(0, Entity.index(registry.create()));
  }

  @Test
  void viewsRefuseNullStorages() {
    final SparseSet a = registry.storage(TA);
    assertThrows(
        NullPointerException.class, () -> View.of(new SparseSet[] {a, null}, new SparseSet[0]));
    assertThrows(
        NullPointerException.class, () -> View.of(new SparseSet[] {a}, new SparseSet[] {null}));
    assertThrows(NullPointerException.class, () -> View.of(a, null));
    assertThrows(NullPointerException.class, () -> View.of(a).exclude((SparseSet) null));
    assertThrows(NullPointerException.class, () -> new RuntimeView().iterate(null));
  }

  /** A type whose storage no test creates except through the calls below. */
  static final class Untouched {
    int value;
  }

  static final ComponentType<Untouched, ObjectStorage<Untouched>> UNTOUCHED =
      ComponentType.object(Untouched.class);

  @Test
  void refusedCallsOnAStaleHandleCreateNoStorage() {
    final long stale = registry.create();
    registry.destroy(stale);
    final int storages = registry.storageCount();
    final List<Runnable> calls =
        List.of(
            () -> registry.emplace(stale, UNTOUCHED, new Untouched()),
            () -> registry.emplaceOrReplace(stale, UNTOUCHED, new Untouched()),
            () -> registry.replace(stale, UNTOUCHED, new Untouched()),
            () -> registry.patch(stale, UNTOUCHED, u -> u.value++),
            () -> registry.get(stale, UNTOUCHED),
            () -> registry.tryGet(stale, UNTOUCHED),
            () -> registry.getOrEmplace(stale, UNTOUCHED, Untouched::new),
            () -> registry.remove(stale, UNTOUCHED),
            () -> registry.erase(stale, UNTOUCHED),
            () -> registry.has(stale, UNTOUCHED),
            () -> registry.destroy(stale));
    for (int i = 0; i < calls.size(); i++) {
      assertThrows(IllegalArgumentException.class, calls.get(i)::run, "call " + i);
      assertEquals(storages, registry.storageCount(), "call " + i + " created a storage");
    }
    assertEquals(null, registry.findStorage(UNTOUCHED));
  }

  @Test
  void entityStorageCurrentReturnsTheHandleAsItIsNow() {
    final long e = registry.create();
    assertEquals(e, registry.entities().current(Entity.index(e)));
    registry.destroy(e);
    final long next = registry.entities().current(Entity.index(e));
    assertEquals(Entity.index(e), Entity.index(next));
    assertEquals(Entity.nextVersion(Entity.version(e)), Entity.version(next));
    assertFalse(registry.valid(next));
    assertEquals(next, registry.create(), "the next incarnation is the handle current() announced");
    assertEquals(Entity.NULL, registry.entities().current(99));
    assertEquals(Entity.NULL, registry.entities().current(-1));
  }

  // ---------------------------------------------------------------------------------------------

  /** Contents and layout of a registry without listener counters, for the tests above. */
  static final class FaultWorldLikeSnapshot {
    final List<List<Long>> packed = new ArrayList<>();
    final Set<Object> contents = new HashSet<>();
    final List<List<Long>> groups = new ArrayList<>();
    final List<Long> handles = new ArrayList<>();

    FaultWorldLikeSnapshot(final Registry registry) {
      for (int i = 0; i < registry.storageCount(); i++) {
        final Storage<?> storage = registry.storageAt(i);
        final List<Long> order = new ArrayList<>();
        for (int p = 0; p < storage.size(); p++) {
          final long e = storage.packed()[p];
          order.add(e);
          if (!Entity.isTombstone(e)) {
            contents.add(List.of(storage.describe(), e, String.valueOf(storage.get(e))));
          }
        }
        packed.add(order);
      }
      for (int g = 0; g < registry.groups().size(); g++) {
        final Group group = registry.groups().get(g);
        final List<Long> order = new ArrayList<>();
        for (int p = 0; p < group.size(); p++) {
          order.add(group.entityAt(p));
        }
        groups.add(order);
      }
      for (int i = 0; i < registry.entities().size(); i++) {
        handles.add(registry.entities().current(i));
      }
      handles.add((long) registry.alive());
      handles.add((long) registry.storageCount());
    }

    @Override
    public boolean equals(final Object other) {
      return other instanceof FaultWorldLikeSnapshot o
          && packed.equals(o.packed)
          && contents.equals(o.contents)
          && groups.equals(o.groups)
          && handles.equals(o.handles);
    }

    @Override
    public int hashCode() {
      return packed.hashCode();
    }

    @Override
    public String toString() {
      return "packed=" + packed + " groups=" + groups + " handles=" + handles;
    }
  }
}
