package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.E;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The runs an owning group hands out (eachChunk, parallelEachChunk): non-empty, page-aligned,
 * covering the members exactly once; positions, sorting and bounds.
 */
class OwningGroupRunsTest {

  /** A component stored in pages of 16384 positions. */
  record Big(int value) {}

  static final ComponentType<Big, ObjectStorage<Big>> BIG =
      ComponentType.object(Big.class, ComponentTraits.DEFAULT.withPageSize(16_384));

  private final Registry registry = new Registry();

  /** Creates {@code count} members of a group owning E (8-element pages). */
  private OwningGroup eGroup(final int count) {
    final OwningGroup group = registry.owningGroup(TE);
    for (int i = 0; i < count; i++) {
      registry.emplace(registry.create(), TE, new E(i));
    }
    return group;
  }

  @Test
  void eachChunkHandsNonEmptyPageRunsCoveringTheMembers() {
    // Rule: runs are non-empty, within one page, in order and cover [0, size()) exactly; an
    // empty group gets no run.
    final OwningGroup group = eGroup(0);
    final List<String> runs = new ArrayList<>();
    group.eachChunk((from, to) -> runs.add(from + ".." + to));
    group.eachChunk((entities, from, to) -> runs.add(from + ".." + to));
    assertEquals(List.of(), runs);
    for (int i = 0; i < 16; i++) {
      registry.emplace(registry.create(), TE, new E(i));
    }
    group.eachChunk((from, to) -> runs.add(from + ".." + to));
    assertEquals(List.of("0..8", "8..16"), runs);
    runs.clear();
    registry.emplace(registry.create(), TE, new E(16));
    group.eachChunk((entities, from, to) -> runs.add(from + ".." + to));
    assertEquals(List.of("0..8", "8..16", "16..17"), runs);
  }

  @Test
  void parallelRunsAreNonEmptyAndCoverEveryMemberOnce() {
    // Rule: the parallel forms (given pool or common pool) hand every position once, in
    // non-empty runs within one page.
    final OwningGroup group = eGroup(64);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      final List<String> runs = Collections.synchronizedList(new ArrayList<>());
      final AtomicIntegerArray hits = new AtomicIntegerArray(64);
      final RangeConsumer body =
          (from, to) -> {
            runs.add(from + ".." + to);
            for (int p = from; p < to; p++) {
              hits.incrementAndGet(p);
            }
          };
      group.parallelEachChunk(pool, body);
      group.parallelEachChunk(body);
      group.parallelEachChunk(pool, (entities, from, to) -> body.accept(from, to));
      group.parallelEachChunk((entities, from, to) -> body.accept(from, to));
      for (int p = 0; p < 64; p++) {
        assertEquals(4, hits.get(p), "position " + p);
      }
      assertEquals(4 * 8, runs.size(), runs.toString());
      for (final String run : runs) {
        final String[] bounds = run.split("\\.\\.");
        final int from = Integer.parseInt(bounds[0]);
        final int to = Integer.parseInt(bounds[1]);
        assertTrue(from < to && from % 8 == 0 && to - from <= 8, run);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void pagesAsLargeAsTheParallelGrainAreSplitPageByPage() {
    // Rule: with a grain of a page, a group of one page is one run and a group of one page and
    // one more member is two runs (the automatic grain would split the page into tasks).
    final OwningGroup group = registry.owningGroup(BIG);
    final ForkJoinPool pool = new ForkJoinPool(2);
    try {
      for (final int size : new int[] {16_384, 16_385}) {
        while (group.size() < size) {
          registry.emplace(registry.create(), BIG, new Big(group.size()));
        }
        final List<String> runs = Collections.synchronizedList(new ArrayList<>());
        group.parallelEachChunk(pool, 16_384, (from, to) -> runs.add(from + ".." + to));
        Collections.sort(runs);
        assertEquals(
            size == 16_384 ? List.of("0..16384") : List.of("0..16384", "16384..16385"), runs);
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void entityAtAcceptsOnlyMemberPositions() {
    // Rule: entityAt takes a position in [0, size()); others are refused.
    final OwningGroup group = eGroup(3);
    final long last = group.entityAt(2);
    assertTrue(group.contains(last));
    assertThrows(IndexOutOfBoundsException.class, () -> group.entityAt(3));
    assertThrows(IndexOutOfBoundsException.class, () -> group.entityAt(-1));
  }

  @Test
  void onlyTheMostRestrictiveGroupCanBeSortedByPosition() {
    // Rule: sortByPosition, like sort, is refused on a group that has a nested group.
    final OwningGroup outer = registry.owningGroup(TA);
    final OwningGroup inner = registry.owningGroup(TA, TB);
    for (int i = 0; i < 5; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      registry.emplace(e, TB, new B(-i));
    }
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, () -> outer.sortByPosition((l, r) -> 0));
    assertTrue(error.getMessage().contains("only the most restrictive group"), error.getMessage());
    final ObjectStorage<A> as = registry.storage(TA);
    inner.sortByPosition((l, r) -> Integer.compare(as.valueAt(r).value(), as.valueAt(l).value()));
    for (int p = 0; p < 5; p++) {
      assertEquals(4 - p, as.valueAt(p).value());
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aPartialGroupCountsItsListsForTheRunLength() {
    // Rule: the run length is the smallest page size among the owned storages only.
    final OwningGroup group = registry.owningGroup(types(TE), types(TA), NONE);
    assertEquals(8, group.chunkSize());
  }
}
