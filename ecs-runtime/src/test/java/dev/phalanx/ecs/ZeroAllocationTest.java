package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest;
import dev.phalanx.ecs.command.CommandBuffers;
import java.lang.management.ManagementFactory;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that the hot paths allocate nothing: view iteration, steady-state add/remove of
 * components, sorting after a first call, and entity recycling. Each body is run until the JIT has
 * compiled it, then measured over many rounds with the thread's allocation counter; the allowed
 * tolerance is zero.
 */
class ZeroAllocationTest {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final int WARM_UP_ROUNDS = 2_000;
  private static final int MEASURED_ROUNDS = 500;
  private static final int ENTITIES = 1_000;

  /** Sink written by the view actions, so the JIT cannot drop the loops. */
  private static long sink;

  @BeforeAll
  static void theCounterIsSupported() {
    assertTrue(THREADS.isThreadAllocatedMemorySupported());
    THREADS.setThreadAllocatedMemoryEnabled(true);
  }

  /**
   * Runs {@code body} to warm it up, then returns the fewest bytes it allocated over a window of
   * measured rounds, out of up to three windows (stopping at the first that allocates nothing).
   *
   * <p>The whole suite shares one JVM, and in about one full-suite run in two one window of the
   * run-buffers test measured 80 bytes, never when this class ran alone: most likely a late
   * deoptimization (profiles left by other tests), during which code runs without the escape
   * analysis that removes a temporary. Code that allocates in its steady state allocates in every
   * window, so the minimum still fails it.
   */
  static long allocatedBy(final Runnable body) {
    for (int round = 0; round < WARM_UP_ROUNDS; round++) {
      body.run();
    }
    long fewest = Long.MAX_VALUE;
    for (int window = 0; window < 3 && 0 != fewest; window++) {
      final long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int round = 0; round < MEASURED_ROUNDS; round++) {
        body.run();
      }
      fewest = Math.min(fewest, THREADS.getCurrentThreadAllocatedBytes() - before);
    }
    return fewest;
  }

  @Test
  void theMeasurementItselfAllocatesNothingAndSeesAnAllocation() {
    assertEquals(0, allocatedBy(() -> sink++));
    // The counter does see allocations, so a zero below means something.
    assertTrue(
        allocatedBy(() -> sink += new long[16].length) >= MEASURED_ROUNDS * 16L * Long.BYTES);
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void viewIterationOverOneTwoAndThreeTypesWithExclusionsAllocatesNothing(
      final DeletionPolicy policy) {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      final long entity = registry.create();
      registry.emplace(entity, Fixtures.alpha(policy), new Payload(i));
      if (0 == i % 2) {
        registry.emplace(entity, Fixtures.beta(policy), new Payload(i));
      }
      if (0 == i % 3) {
        registry.emplace(entity, Fixtures.gamma(policy), new Payload(i));
      }
      if (0 == i % 5) {
        registry.storage(Fixtures.tag(policy)).emplace(entity);
      }
      if (0 == i % 11 && DeletionPolicy.IN_PLACE == policy) {
        registry.remove(entity, Fixtures.alpha(policy)); // tombstones to skip
      }
    }
    final ObjectStorage<Payload> alpha = registry.storage(Fixtures.alpha(policy));
    final ObjectStorage<Payload> beta = registry.storage(Fixtures.beta(policy));
    final View one =
        registry.view(
            new ComponentType<?, ?>[] {Fixtures.alpha(policy)},
            new ComponentType<?, ?>[] {Fixtures.tag(policy)});
    final View two =
        registry.view(
            new ComponentType<?, ?>[] {Fixtures.alpha(policy), Fixtures.beta(policy)},
            new ComponentType<?, ?>[] {Fixtures.tag(policy)});
    final View three =
        registry.view(
            new ComponentType<?, ?>[] {
              Fixtures.alpha(policy), Fixtures.beta(policy), Fixtures.gamma(policy)
            },
            new ComponentType<?, ?>[] {Fixtures.tag(policy)});
    final LongConsumer readAlpha = entity -> sink += alpha.get(entity).value;
    final LongConsumer readBoth =
        entity -> sink += alpha.get(entity).value + beta.get(entity).value;
    final long[] visits = new long[1];
    final LongConsumer count = entity -> visits[0]++;
    assertEquals(0, allocatedBy(() -> one.each(readAlpha)), "one type");
    assertEquals(0, allocatedBy(() -> two.each(readBoth)), "two types");
    assertEquals(0, allocatedBy(() -> three.each(count)), "three types");
    assertTrue(visits[0] > 0);
    final RuntimeView runtime =
        new RuntimeView()
            .iterate(alpha)
            .iterate(beta)
            .exclude(registry.storage(Fixtures.tag(policy)));
    final RuntimeView.PositionVisitor readAt =
        (entity, at) -> sink += alpha.valueAt(at[0]).value + beta.valueAt(at[1]).value;
    assertEquals(0, allocatedBy(() -> runtime.each(readBoth)), "runtime view");
    assertEquals(0, allocatedBy(() -> runtime.each(readAt)), "runtime view, positions");
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void steadyStateAddAndRemoveOfComponentsAllocatesNothing(final DeletionPolicy policy) {
    final Registry registry = new Registry();
    final long[] entities = new long[ENTITIES];
    registry.create(entities);
    final Payload[] values = new Payload[ENTITIES];
    for (int i = 0; i < ENTITIES; i++) {
      values[i] = new Payload(i);
    }
    final ObjectStorage<Payload> objects = registry.storage(Fixtures.beta(policy)); // pages of 2
    final EmptyStorage<Object> tags = registry.storage(Fixtures.tag(policy));
    final ComponentType<Payload, ObjectStorage<Payload>> gamma =
        Fixtures.gamma(policy); // pages of 1
    final Runnable storageCycle =
        () -> {
          for (int i = 0; i < ENTITIES; i++) {
            objects.emplace(entities[i], values[i]);
            tags.emplace(entities[i]);
          }
          for (int i = 0; i < ENTITIES; i += 2) {
            objects.remove(entities[i]);
            tags.erase(entities[i]);
          }
          for (int i = 1; i < ENTITIES; i += 2) {
            objects.erase(entities[i]);
            tags.remove(entities[i]);
          }
        };
    final Runnable registryCycle =
        () -> {
          for (int i = 0; i < ENTITIES; i++) {
            registry.emplace(entities[i], gamma, values[i]);
          }
          for (int i = 0; i < ENTITIES; i++) {
            registry.replace(entities[i], gamma, values[ENTITIES - 1 - i]);
            if (registry.has(entities[i], gamma)) {
              sink += registry.get(entities[i], gamma).value;
            }
          }
          for (int i = ENTITIES - 1; i >= 0; i--) {
            if (0 == i % 2) {
              registry.remove(entities[i], gamma);
            } else {
              registry.erase(entities[i], gamma);
            }
          }
        };
    assertEquals(0, allocatedBy(storageCycle), "object and empty storages");
    assertEquals(0, allocatedBy(registryCycle), "through the registry");
    if (DeletionPolicy.IN_PLACE == policy) {
      objects.compact();
      tags.compact();
    }
    assertEquals(0, objects.size());
  }

  @Test
  void sortingAfterAFirstCallAllocatesNothing() {
    final ObjectStorage<Payload> storage =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP).createStorage();
    // Fewer elements than elsewhere: every round sorts twice, and a sort moves every element.
    final int count = 256;
    for (int i = 0; i < count; i++) {
      storage.emplace(Entity.of(i, 0), new Payload((i * 7919) % count));
    }
    final PositionComparator byValue =
        (a, b) -> Integer.compare(storage.valueAt(a).value, storage.valueAt(b).value);
    final PositionComparator byValueReversed =
        (a, b) -> Integer.compare(storage.valueAt(b).value, storage.valueAt(a).value);
    final EntityComparator byEntity = (a, b) -> Long.compare(a, b);
    final EntityComparator byEntityReversed = (a, b) -> Long.compare(b, a);
    // Alternate directions so every round really sorts (including the heapsort and insertion
    // paths).
    assertEquals(
        0,
        allocatedBy(
            () -> {
              storage.sortByPosition(byValue);
              storage.sortByPosition(byValueReversed);
            }),
        "sortByPosition");
    assertEquals(
        0,
        allocatedBy(
            () -> {
              storage.sort(byEntity);
              storage.sort(byEntityReversed);
            }),
        "sort(EntityComparator)");
    assertEquals(
        0,
        allocatedBy(
            () -> {
              storage.insertionSortByPosition(byValue);
              storage.insertionSortByPosition(byValue);
            }),
        "insertionSortByPosition");
    for (int position = 1; position < storage.size(); position++) {
      assertTrue(storage.valueAt(position - 1).value <= storage.valueAt(position).value);
    }
  }

  @Test
  void entityRecyclingOnceCapacityIsReachedAllocatesNothing() {
    final Registry registry = new Registry();
    final long[] entities = new long[ENTITIES];
    registry.create(entities);
    registry.emplace(entities[0], Fixtures.alpha(DeletionPolicy.SWAP_AND_POP), new Payload(1));
    registry.storage(Fixtures.beta(DeletionPolicy.IN_PLACE));
    final int capacity = registry.entities().packed().length;
    assertEquals(
        0,
        allocatedBy(
            () -> {
              for (int i = 0; i < ENTITIES; i++) {
                registry.destroy(entities[i]);
              }
              for (int i = 0; i < ENTITIES; i++) {
                entities[i] = registry.create();
              }
              registry.destroy(entities, 0, ENTITIES);
              registry.create(entities);
            }),
        "create/destroy, single and bulk");
    assertEquals(ENTITIES, registry.alive());
    assertEquals(ENTITIES, registry.entities().size(), "identifiers were recycled, not created");
    assertEquals(capacity, registry.entities().packed().length);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void addAndRemoveUnderAnOwningGroupAllocateNothing(final boolean listened) {
    // Without listeners the group's upkeep is direct; a listener makes it planned and published.
    final ComponentType<Payload, ObjectStorage<Payload>> first =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final ComponentType<Payload, ObjectStorage<Payload>> second =
        Fixtures.beta(DeletionPolicy.SWAP_AND_POP);
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(first, second);
    if (listened) {
      group.onEnter().connect((r, e) -> sink++);
    }
    final long[] entities = new long[ENTITIES];
    registry.create(entities);
    final Payload value = new Payload(5);
    for (final long e : entities) {
      registry.emplace(e, first, value);
    }
    final Runnable cycle =
        () -> {
          for (final long e : entities) {
            registry.emplace(e, second, value);
          }
          for (final long e : entities) {
            registry.remove(e, second);
          }
          if (0 != group.size()) {
            throw new AssertionError(group.size() + " members");
          }
        };
    assertEquals(0, allocatedBy(cycle), listened ? "planned upkeep" : "direct upkeep");
  }

  @Test
  void bufferedDestroyRunsAndDestroysUnderASpanningGroupAllocateNothing() {
    // A run of recorded destroys applies as one batch; a destroy under a group that spans its
    // owned storages removes every owned element at once. Both must stay allocation-free.
    final ComponentType<Payload, ObjectStorage<Payload>> swap =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final ComponentType<Payload, ObjectStorage<Payload>> other =
        Fixtures.beta(DeletionPolicy.SWAP_AND_POP);
    final Registry buffered = new Registry();
    final CommandBuffer commands = new CommandBuffer(buffered);
    final Registry grouped = new Registry();
    final OwningGroup group = grouped.owningGroup(swap, other);
    final long[] entities = new long[ENTITIES];
    final Payload value = new Payload(3);
    assertEquals(
        0,
        allocatedBy(
            () -> {
              buffered.create(entities);
              for (final long e : entities) {
                buffered.emplace(e, swap, value);
              }
              for (final long e : entities) {
                commands.destroy(e);
              }
              commands.apply();
              if (0 != buffered.alive() || 0 != commands.skipped()) {
                throw new AssertionError(buffered.alive() + " alive");
              }
              grouped.create(entities);
              for (final long e : entities) {
                grouped.emplace(e, swap, value);
                grouped.emplace(e, other, value);
              }
              for (final long e : entities) {
                grouped.destroy(e);
              }
              if (0 != group.size() || 0 != grouped.alive()) {
                throw new AssertionError(group.size() + " members");
              }
            }),
        "buffered destroys, destroys under a spanning group");
  }

  @Test
  void theNewCommandsAndTypedIfAbsentRecordingAllocateNothingWhenWarm() {
    // Typed emplace and emplaceIfAbsent of a high-id type, tags, removeAll, reservations (their
    // numbers drawn afresh by every apply), and the owner check, through a warm buffer.
    final Registry registry = new Registry();
    final CommandBuffer commands = new CommandBuffer(registry);
    final ComponentType<
            CommandBufferTypedRecordingTest.Cell, CommandBufferTypedRecordingTest.CellStorage>
        type = CommandBufferTypedRecordingTest.typeWithIdAtLeast(20);
    final CommandBufferTypedRecordingTest.CellStorage cells = registry.storage(type);
    final ComponentType<Payload, ObjectStorage<Payload>> tag =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final Payload value = new Payload(1);
    final long[] entities = new long[ENTITIES];
    assertEquals(
        0,
        allocatedBy(
            () -> {
              for (int i = 0; i < ENTITIES; i++) {
                final long e = commands.create();
                cells.emplace(commands, e, i, "cell");
                cells.emplaceIfAbsent(commands, e, i + 1, "ignored");
                commands.emplaceIfAbsent(e, tag, value);
              }
              commands.apply();
              System.arraycopy(cells.packed(), 0, entities, 0, ENTITIES);
              // Last first: the test storage's moves build Cell objects, the buffer's none.
              for (int i = ENTITIES - 1; i >= 0; i--) {
                commands.removeAll(entities[i]);
                commands.destroy(entities[i]);
              }
              commands.apply();
              if (0 != registry.alive()) {
                throw new AssertionError(registry.alive() + " alive");
              }
            }),
        "typed emplace and emplaceIfAbsent, removeAll, destroy through a warm buffer");
  }

  @Test
  void aWarmPassOfRunBuffersNamingEachOthersHandlesAllocatesNothing() {
    // Each run reserves an entity and gives the next run's a component: resolved across buffers
    // by id, the ids drawn again by every apply and the set's id table sorted again in place.
    final Registry registry = new Registry();
    final CommandBuffers set = new CommandBuffers(registry);
    final int runs = 40;
    final long[] handles = new long[runs];
    final long[] created = new long[runs];
    final Payload value = new Payload(7);
    final ComponentType<Payload, ?> type = Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    assertEquals(
        0,
        allocatedBy(
            () -> {
              for (int run = 0; run < runs; run++) {
                handles[run] = set.forRun(64 * run).create();
              }
              for (int run = 0; run < runs; run++) {
                set.forRun(64 * run).emplace(handles[(run + 1) % runs], type, value);
              }
              set.apply();
              final Storage<Payload> storage = registry.storage(type);
              if (runs != storage.size() || 0 != set.skipped()) {
                throw new AssertionError(storage.size() + " elements, " + set.skipped());
              }
              System.arraycopy(storage.packed(), 0, created, 0, runs);
              registry.destroy(created, 0, runs);
            }),
        "reserve, name another run's handle, apply");
  }

  @Test
  void typedViewIterationAndEntityChunksAllocateNothing() {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      final long entity = registry.create();
      registry.emplace(entity, CursorFixtures.TA, new CursorFixtures.A(i));
      if (0 == i % 2) {
        registry.emplace(entity, CursorFixtures.TB, new CursorFixtures.B(i));
      }
      if (0 == i % 3) {
        registry.emplace(entity, CursorFixtures.TC, new CursorFixtures.C(i));
      }
      registry.emplace(entity, CursorFixtures.TD, new CursorFixtures.D(i));
      if (0 == i % 7) {
        registry.emplace(entity, Fixtures.alpha(DeletionPolicy.SWAP_AND_POP), new Payload(i));
      }
    }
    final View1<CursorFixtures.IntCursor> one = registry.typedView(CursorFixtures.TA);
    final View2<CursorFixtures.IntCursor, CursorFixtures.IntCursor> two =
        registry
            .typedView(CursorFixtures.TA, CursorFixtures.TB)
            .exclude(registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP)));
    final View3<CursorFixtures.IntCursor, CursorFixtures.IntCursor, CursorFixtures.IntCursor>
        three = registry.typedView(CursorFixtures.TA, CursorFixtures.TB, CursorFixtures.TC);
    final View4<
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor>
        four =
            registry.typedView(
                CursorFixtures.TA, CursorFixtures.TB, CursorFixtures.TC, CursorFixtures.TD);
    final long[] visits = new long[1];
    final View1.Visitor<CursorFixtures.IntCursor> read1 = (e, a) -> sink += a.value();
    final View2.Visitor<CursorFixtures.IntCursor, CursorFixtures.IntCursor> read2 =
        (e, a, b) -> {
          b.setValue(b.value() + 1);
          sink += a.value();
          visits[0]++;
        };
    final View3.Visitor<
            CursorFixtures.IntCursor, CursorFixtures.IntCursor, CursorFixtures.IntCursor>
        read3 = (e, a, b, c) -> sink += a.value() + b.value() + c.value();
    final View4.Visitor<
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor>
        read4 = (e, a, b, c, d) -> sink += d.value() + e;
    assertEquals(0, allocatedBy(() -> one.each(read1)), "one type");
    assertEquals(0, allocatedBy(() -> two.each(read2)), "two types, one excluded");
    assertEquals(0, allocatedBy(() -> three.each(read3)), "three types");
    assertEquals(0, allocatedBy(() -> four.each(read4)), "four types");
    assertTrue(visits[0] > 0);

    final OwningGroup group = registry.owningGroup(CursorFixtures.TA, CursorFixtures.TD);
    final EntityRangeConsumer entities =
        (packed, from, to) -> {
          for (int p = from; p < to; p++) {
            sink += packed[p];
          }
        };
    assertEquals(0, allocatedBy(() -> group.eachChunk(entities)), "entity chunks");
  }

  /**
   * The typed views' aligned runs (every storage of one page size, filled in one order), as well as
   * their per-entity path, allocate nothing; so do the plain and runtime views over the same sets.
   * The in-place leader of the two-type view has holes.
   */
  @Test
  void typedViewAlignedRunsAndEveryIterateFormAllocateNothing() {
    final Registry registry = new Registry();
    for (int i = 0; i < ENTITIES; i++) {
      final long entity = registry.create();
      registry.emplace(entity, CursorFixtures.TE, new CursorFixtures.E(i));
      registry.emplace(entity, CursorFixtures.TF, new CursorFixtures.F(i));
      registry.emplace(entity, CursorFixtures.TG, new CursorFixtures.G(i));
      registry.emplace(entity, CursorFixtures.TH, new CursorFixtures.H(i));
      registry.emplace(entity, CursorFixtures.TA, new CursorFixtures.A(i));
      registry.emplace(entity, CursorFixtures.TP, new CursorFixtures.P(i));
      if (0 == i % 13) {
        registry.remove(entity, CursorFixtures.TP); // holes in the in-place storage
        registry.emplace(entity, Fixtures.alpha(DeletionPolicy.SWAP_AND_POP), new Payload(i));
      }
    }
    final SparseSet excluded = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final View2<CursorFixtures.IntCursor, CursorFixtures.IntCursor> two =
        registry.typedView(CursorFixtures.TP, CursorFixtures.TA).exclude(excluded);
    final View3<CursorFixtures.IntCursor, CursorFixtures.IntCursor, CursorFixtures.IntCursor>
        three = registry.typedView(CursorFixtures.TE, CursorFixtures.TF, CursorFixtures.TG);
    final View4<
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor>
        four =
            registry
                .typedView(
                    CursorFixtures.TE, CursorFixtures.TF, CursorFixtures.TG, CursorFixtures.TH)
                .exclude(excluded);
    final long[] visits = new long[1];
    final View2.Visitor<CursorFixtures.IntCursor, CursorFixtures.IntCursor> read2 =
        (e, a, b) -> {
          sink += a.value() + b.value();
          visits[0]++;
        };
    final View3.Visitor<
            CursorFixtures.IntCursor, CursorFixtures.IntCursor, CursorFixtures.IntCursor>
        read3 = (e, a, b, c) -> sink += a.value() + b.value() + c.value();
    final View4.Visitor<
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor,
            CursorFixtures.IntCursor>
        read4 =
            (e, a, b, c, d) -> {
              d.setValue(d.value() + 1);
              sink += a.value() + b.value() + c.value();
            };
    assertEquals(0, allocatedBy(() -> two.each(read2)), "two types, in-place leader with holes");
    assertEquals(0, allocatedBy(() -> three.each(read3)), "three types, aligned");
    assertEquals(0, allocatedBy(() -> four.each(read4)), "four types, aligned, one excluded");
    assertTrue(visits[0] > 0);
    final LongConsumer count = entity -> sink += entity;
    assertEquals(0, allocatedBy(() -> four.each(count)), "a typed view's plain each");
    final RuntimeView runtime =
        new RuntimeView()
            .iterate(registry.storage(CursorFixtures.TE))
            .iterate(registry.storage(CursorFixtures.TF))
            .exclude(excluded);
    final RuntimeView.PositionVisitor positions = (entity, at) -> sink += at[0] + at[1];
    assertEquals(0, allocatedBy(() -> runtime.each(count)), "runtime view, aligned");
    assertEquals(0, allocatedBy(() -> runtime.each(positions)), "runtime view positions, aligned");
  }
}
