package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SparseSetTest {

  private static TestSet filled(final DeletionPolicy policy, final int count) {
    final TestSet set = new TestSet(policy);
    for (int i = 0; i < count; i++) {
      set.insert(Entity.of(i, i % 3));
    }
    return set;
  }

  private static long[] packedCopy(final SparseSet set) {
    return Arrays.copyOf(set.packed(), set.size());
  }

  @Test
  void refusesTheSwapOnlyPolicy() {
    assertThrows(IllegalArgumentException.class, () -> new TestSet(DeletionPolicy.SWAP_ONLY));
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void anInsertedEntityIsContainedWithItsVersionOnly(final DeletionPolicy policy) {
    final TestSet set = new TestSet(policy);
    assertEquals(policy, set.policy());
    assertTrue(set.isEmpty());
    final long entity = Entity.of(5, 2);
    assertEquals(0, set.insert(entity));
    assertTrue(set.contains(entity));
    assertEquals(0, set.index(entity));
    assertEquals(0, set.indexOf(entity));
    assertEquals(entity, set.at(0));
    assertFalse(set.contains(Entity.of(5, 3)));
    assertEquals(SparseSet.ABSENT, set.indexOf(Entity.of(5, 1)));
    assertFalse(set.contains(Entity.of(4, 2)));
    assertFalse(set.contains(Entity.NULL));
    assertFalse(set.contains(Entity.of(Entity.MAX_INDEX, 2)));
    assertEquals(1, set.size());
  }

  @Test
  void indexOfAMissingEntityNamesIt() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> set.index(Entity.of(1, 7)));
    assertTrue(error.getMessage().contains("index=1, version=7"), error.getMessage());
  }

  @Test
  void atOutsideTheSetThrows() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    assertThrows(IndexOutOfBoundsException.class, () -> set.at(3));
    assertThrows(IndexOutOfBoundsException.class, () -> set.at(-1));
  }

  @ParameterizedTest
  @ValueSource(ints = {4095, 4096, 4097, 8191, 8192, 12287, 1 << 20, (1 << 20) + 4095})
  void sparsePagesOf4096MapIndicesAcrossPageBoundaries(final int index) {
    assertEquals(4096, SparseSet.SPARSE_PAGE_SIZE);
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.insert(Entity.of(index, 1));
    set.insert(Entity.of(3, 0));
    assertTrue(set.contains(Entity.of(index, 1)));
    assertFalse(set.contains(Entity.of(index - 1, 1)));
    assertFalse(set.contains(Entity.of(index + 1, 1)));
    assertFalse(set.contains(Entity.of(index + 4096, 1)));
    assertFalse(set.contains(Entity.of(index - 4096, 1)));
    set.remove(Entity.of(index, 1));
    assertFalse(set.contains(Entity.of(index, 1)));
    assertTrue(set.contains(Entity.of(3, 0)));
    set.checkInvariants();
  }

  @Test
  void swapAndPopMovesTheLastElementIntoTheHole() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    set.recordHooks = true;
    set.remove(Entity.of(1, 1));
    assertEquals(List.of("move 4->1", "release 4"), set.hooks);
    assertArrayEquals(
        new long[] {Entity.of(0, 0), Entity.of(4, 1), Entity.of(2, 2), Entity.of(3, 0)},
        packedCopy(set));
    assertEquals(4, set.size());
    assertFalse(set.hasTombstones());
    set.checkInvariants();
  }

  @Test
  void swapAndPopOfTheLastElementMovesNothing() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    set.recordHooks = true;
    set.remove(Entity.of(2, 2));
    assertEquals(List.of("release 2"), set.hooks);
    assertEquals(2, set.size());
    set.checkInvariants();
  }

  @Test
  void inPlaceRemovalLeavesATombstoneAndMovesNothing() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 5);
    set.recordHooks = true;
    final long[] before = packedCopy(set);
    set.remove(Entity.of(1, 1));
    assertEquals(List.of("release 1"), set.hooks);
    assertEquals(5, set.size());
    assertTrue(set.hasTombstones());
    assertEquals(1, set.firstHole());
    assertTrue(Entity.isTombstone(set.at(1)));
    assertEquals(SparseSet.ABSENT, Entity.index(set.at(1)));
    for (final int position : new int[] {0, 2, 3, 4}) {
      assertEquals(before[position], set.at(position));
    }
    set.checkInvariants();
  }

  @Test
  void inPlaceHolesFormALastInFirstOutFreeList() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 6);
    set.remove(Entity.of(1, 1));
    set.remove(Entity.of(4, 1));
    set.remove(Entity.of(2, 2));
    assertEquals(2, set.firstHole());
    assertEquals(4, Entity.index(set.at(2)));
    assertEquals(1, Entity.index(set.at(4)));
    set.checkInvariants();
    assertEquals(2, set.insert(Entity.of(10, 0)));
    assertEquals(4, set.insert(Entity.of(11, 0)));
    assertEquals(1, set.insert(Entity.of(12, 0)));
    assertFalse(set.hasTombstones());
    assertEquals(6, set.insert(Entity.of(13, 0)));
    assertEquals(7, set.size());
    set.checkInvariants();
  }

  @Test
  void appendIgnoresHoles() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 3);
    set.remove(Entity.of(0, 0));
    assertEquals(3, set.appendEntity(Entity.of(7, 0)));
    assertEquals(0, set.firstHole());
    set.checkInvariants();
  }

  @Test
  void compactFillsHolesFromTheBackAndMovesOnlyElementsBehindAHole() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 10);
    set.remove(Entity.of(2, 2));
    set.remove(Entity.of(5, 2));
    set.remove(Entity.of(9, 0));
    final int before = set.modifications();
    set.compact();
    assertNotEquals(before, set.modifications());
    assertEquals(7, set.size());
    assertFalse(set.hasTombstones());
    final Map<Long, Integer> live = set.checkInvariants();
    assertEquals(7, live.size());
    for (final int index : new int[] {0, 1, 3, 4}) {
      assertEquals(
          index, live.get(Entity.of(index, index % 3)), "element before the first hole moved");
    }
    assertEquals(7, set.insert(Entity.of(20, 0)));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 10})
  void compactOfOnlyHolesEmptiesTheSet(final int count) {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, count);
    for (int i = 0; i < count; i++) {
      set.remove(Entity.of(i, i % 3));
    }
    set.compact();
    assertEquals(0, set.size());
    assertFalse(set.hasTombstones());
  }

  @Test
  void compactWithoutHolesChangesNothing() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 4);
    final long[] before = packedCopy(set);
    final int modifications = set.modifications();
    set.compact();
    assertArrayEquals(before, packedCopy(set));
    assertEquals(modifications, set.modifications());
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void clearRemovesEverythingIncludingHoles(final DeletionPolicy policy) {
    final TestSet set = filled(policy, 5000);
    set.remove(Entity.of(7, 1));
    set.clear();
    assertEquals(0, set.size());
    assertFalse(set.hasTombstones());
    assertFalse(set.contains(Entity.of(0, 0)));
    assertFalse(set.contains(Entity.of(4999, 4999 % 3)));
    assertEquals(0, set.insert(Entity.of(4999, 0)));
    set.checkInvariants();
  }

  @Test
  void sortByEntityOrdersPackedAndPayloadTogether() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    final Random random = new Random(1);
    for (final int index : random.ints(0, 100_000).distinct().limit(1000).toArray()) {
      set.insert(Entity.of(index, 0));
    }
    set.sort((a, b) -> Integer.compare(Entity.index(a), Entity.index(b)));
    for (int position = 1; position < set.size(); position++) {
      assertTrue(Entity.index(set.at(position - 1)) < Entity.index(set.at(position)));
    }
    set.checkInvariants();
    set.sort((a, b) -> Integer.compare(Entity.index(b), Entity.index(a)));
    for (int position = 1; position < set.size(); position++) {
      assertTrue(Entity.index(set.at(position - 1)) > Entity.index(set.at(position)));
    }
    set.checkInvariants();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 16, 17, 18, 100, 1000, 200_000})
  void sortByPositionSortsRandomArraysOfEverySize(final int count) {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    final long[] keys = new Random(count).longs(count, 0, Math.max(1, count / 3)).toArray();
    for (int i = 0; i < count; i++) {
      set.insert(Entity.of(i, 0));
    }
    // The key of an element is keys[index(entity)].
    set.sortByPosition(
        (a, b) -> Long.compare(keys[Entity.index(set.at(a))], keys[Entity.index(set.at(b))]));
    for (int position = 1; position < count; position++) {
      assertTrue(keys[Entity.index(set.at(position - 1))] <= keys[Entity.index(set.at(position))]);
    }
    assertEquals(count, set.checkInvariants().size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"equal", "sorted", "reversed", "organPipe", "sawtooth"})
  void sortStaysNLogNOnAdversarialInputThroughTheHeapsortFallback(final String shape) {
    final int count = 50_000;
    final long[] keys = new long[count];
    for (int i = 0; i < count; i++) {
      switch (shape) {
        case "equal":
          keys[i] = 7;
          break;
        case "sorted":
          keys[i] = i;
          break;
        case "reversed":
          keys[i] = count - i;
          break;
        case "organPipe":
          keys[i] = Math.min(i, count - i);
          break;
        default:
          keys[i] = i % 5;
          break;
      }
    }
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < count; i++) {
      set.insert(Entity.of(i, 0));
    }
    final long[] comparisons = new long[1];
    set.sortByPosition(
        (a, b) -> {
          comparisons[0]++;
          return Long.compare(keys[Entity.index(set.at(a))], keys[Entity.index(set.at(b))]);
        });
    for (int position = 1; position < count; position++) {
      assertTrue(keys[Entity.index(set.at(position - 1))] <= keys[Entity.index(set.at(position))]);
    }
    set.checkInvariants();
    // A quadratic quicksort needs ~n^2/2 = 1.25e9 comparisons here; the introsort bound is O(n log
    // n).
    final double bound = 8.0 * count * (Math.log(count) / Math.log(2));
    assertTrue(
        comparisons[0] < bound, shape + ": " + comparisons[0] + " comparisons, bound " + bound);
  }

  /**
   * The median of three splits already sorted distinct keys evenly, and each part stays sorted: the
   * introsort needs fewer than n log2 n comparisons there, never reaching the heapsort fallback
   * (which alone takes about twice as many).
   */
  @Test
  void sortOfAlreadySortedDistinctKeysSplitsEvenly() {
    final int count = 1 << 14;
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < count; i++) {
      set.insert(Entity.of(i, 0));
    }
    final long[] comparisons = new long[1];
    set.sortByPosition(
        (a, b) -> {
          comparisons[0]++;
          return Integer.compare(Entity.index(set.at(a)), Entity.index(set.at(b)));
        });
    for (int position = 0; position < count; position++) {
      assertEquals(position, Entity.index(set.at(position)));
    }
    final double bound = count * (Math.log(count) / Math.log(2));
    assertTrue(comparisons[0] < bound, comparisons[0] + " comparisons, bound " + bound);
  }

  @Test
  void insertionSortIsStable() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < 40; i++) {
      set.insert(Entity.of(i, 0));
    }
    final int before = set.modifications();
    set.insertionSortByPosition(
        (a, b) -> Integer.compare(Entity.index(set.at(a)) % 4, Entity.index(set.at(b)) % 4));
    assertNotEquals(before, set.modifications());
    for (int position = 1; position < 40; position++) {
      final int previous = Entity.index(set.at(position - 1));
      final int current = Entity.index(set.at(position));
      assertTrue(
          previous % 4 < current % 4 || (previous % 4 == current % 4 && previous < current),
          previous + " before " + current);
    }
    set.checkInvariants();
  }

  @Test
  void sortAsPutsSharedEntitiesFirstInTheOtherOrder() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 8);
    final TestSet other = new TestSet(DeletionPolicy.IN_PLACE);
    other.insert(Entity.of(5, 2));
    other.insert(Entity.of(100, 0));
    other.insert(Entity.of(1, 1));
    other.insert(Entity.of(6, 1));
    other.insert(Entity.of(3, 0));
    other.remove(Entity.of(6, 1)); // a tombstone in the other set is skipped
    set.sortAs(other);
    assertEquals(Entity.of(5, 2), set.at(0));
    assertEquals(Entity.of(1, 1), set.at(1));
    assertEquals(Entity.of(3, 0), set.at(2));
    assertEquals(8, set.checkInvariants().size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"sort", "sortByPosition", "insertionSort", "sortAs"})
  void everySortIsRefusedWhileThereAreTombstones(final String which) {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 5);
    set.remove(Entity.of(2, 2));
    final long[] before = packedCopy(set);
    final IllegalStateException error =
        assertThrows(
            IllegalStateException.class,
            () -> {
              switch (which) {
                case "sort":
                  set.sort((a, b) -> Long.compare(b, a));
                  break;
                case "sortByPosition":
                  set.sortByPosition((a, b) -> Integer.compare(b, a));
                  break;
                case "insertionSort":
                  set.insertionSortByPosition((a, b) -> Integer.compare(b, a));
                  break;
                default:
                  set.sortAs(filled(DeletionPolicy.SWAP_AND_POP, 5));
                  break;
              }
            });
    assertTrue(error.getMessage().contains("compact"), error.getMessage());
    assertArrayEquals(before, packedCopy(set));
    set.compact();
    assertDoesNotThrow(() -> set.sort((a, b) -> Long.compare(b, a)));
  }

  @Test
  void theChangeLogTellsMovesAcrossAFloorFromMovesOnOneSide() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    final int before = set.modifications();
    // Removing the element at 2 moves the last (4) into 2: across a floor at 3 or 4, not at 2 or 5.
    set.remove(set.at(2));
    assertDoesNotThrow(() -> set.checkLog(before, 2, "a test"));
    assertDoesNotThrow(() -> set.checkLog(before, 5, "a test"));
    final ConcurrentModificationException error =
        assertThrows(
            ConcurrentModificationException.class, () -> set.checkLog(before, 3, "a test"));
    assertTrue(error.getMessage().contains("positions 2 and 4"), error.getMessage());
    final int beforeSort = set.modifications();
    set.sort((a, b) -> Long.compare(a, b));
    assertThrows(
        ConcurrentModificationException.class, () -> set.checkLog(beforeSort, 0, "a test"));
  }

  @Test
  void aFloorRefusesMovesAcrossItBeforeTheyHappen() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    final long[] before = packedCopy(set);
    set.beginIteration();
    set.visit(2);
    // Position 0 is still to come, the last (4) was visited: removing 0 would bring 4 below the
    // floor.
    final ConcurrentModificationException error =
        assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(0)));
    assertTrue(error.getMessage().contains("visited twice or never"), error.getMessage());
    assertArrayEquals(before, packedCopy(set));
    assertThrows(ConcurrentModificationException.class, set::clear);
    assertThrows(ConcurrentModificationException.class, () -> set.sort(Long::compare));
    // The visited element and those above it may go.
    set.remove(set.at(3));
    set.remove(set.at(2));
    set.endIteration();
    assertFalse(set.isIterated());
    assertEquals(3, set.size());
  }

  @Test
  void aSetMayNotShrinkBelowTheVisitedPosition() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    set.beginIteration();
    set.visit(4);
    set.remove(set.at(4)); // the visited element, the last one: allowed
    // Removing an element still to come would move only elements still to come, but leave the set
    // smaller than the next position the walk reads: refused.
    final ConcurrentModificationException error =
        assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(1)));
    assertTrue(
        error.getMessage().contains("smaller than the part already visited"), error.getMessage());
    assertEquals(4, set.size());
    set.endIteration();
  }

  @Test
  void nestedIterationsKeepEveryFloor() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 6);
    set.beginIteration();
    set.visit(4);
    set.beginIteration();
    set.visit(1);
    // Below the inner floor and above the outer one: crosses the outer floor only.
    assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(2)));
    set.endIteration();
    assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(2)));
    set.endIteration();
    set.remove(set.at(2));
    assertEquals(5, set.size());
  }

  @Test
  void inPlaceRemovalDoesNotCountAsAModification() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 5);
    final int before = set.modifications();
    set.remove(Entity.of(2, 2));
    set.remove(Entity.of(3, 0));
    assertEquals(before, set.modifications());
  }

  @Test
  void insertionsAreNotModifications() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    final int before = set.modifications();
    for (int i = 5; i < 100; i++) {
      set.insert(Entity.of(i, 0));
    }
    assertEquals(before, set.modifications());
  }

  @Test
  void reserveAvoidsReallocatingThePackedArray() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.reserve(1000);
    final long[] packed = set.packed();
    for (int i = 0; i < 1000; i++) {
      set.insert(Entity.of(i, 0));
    }
    assertTrue(packed == set.packed());
  }

  @Test
  void inPlaceRemovalsOfDistinctEntitiesMayRunConcurrently() throws InterruptedException {
    final int count = 20_000;
    final TestSet set = filled(DeletionPolicy.IN_PLACE, count);
    final CountDownLatch start = new CountDownLatch(1);
    final List<Thread> threads = new ArrayList<>();
    final Throwable[] failure = new Throwable[1];
    for (int t = 0; t < 2; t++) {
      final int parity = t;
      final Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = parity; i < count; i += 2) {
                    set.removeAt(set.index(Entity.of(i, i % 3)));
                  }
                } catch (Throwable e) {
                  failure[0] = e;
                }
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (final Thread thread : threads) {
      thread.join();
    }
    assertEquals(null, failure[0]);
    assertEquals(0, set.checkInvariants().size());
    int holes = 0;
    for (int hole = set.firstHole(); SparseSet.ABSENT != hole; hole = (int) set.packed()[hole]) {
      holes++;
    }
    assertEquals(count, holes);
  }

  @Test
  void entityWithIndexFindsAnyVersionAndNullOutsideTheSet() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.insert(Entity.of(0, 3));
    set.insert(Entity.of(5000, 1));
    assertEquals(Entity.of(0, 3), set.entityWithIndex(0));
    assertEquals(Entity.of(5000, 1), set.entityWithIndex(5000));
    assertEquals(Entity.NULL, set.entityWithIndex(1)); // a page in use, an empty slot
    assertEquals(Entity.NULL, set.entityWithIndex(-1));
    assertEquals(Entity.NULL, set.entityWithIndex(3 * SparseSet.SPARSE_PAGE_SIZE));
    set.remove(Entity.of(0, 3));
    assertEquals(Entity.NULL, set.entityWithIndex(0));
  }

  @Test
  void endingAnIterationThatDidNotBeginIsRefused() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    final IllegalStateException error =
        assertThrows(IllegalStateException.class, set::endIteration);
    assertEquals("no iteration of sparse set to end", error.getMessage());
    set.beginIteration();
    set.endIteration();
    assertThrows(IllegalStateException.class, set::endIteration);
    assertFalse(set.isIterated());
  }

  @Test
  void locksNestAndMessagesNameTheOutermostHolder() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    final IllegalStateException notLocked = assertThrows(IllegalStateException.class, set::unlock);
    assertEquals("sparse set is not locked", notLocked.getMessage());
    set.lock("a chunk iteration of", "the outer group");
    set.lock("the comparator of a sort of", "an inner set");
    set.unlock();
    assertTrue(set.isLocked());
    final ConcurrentModificationException error =
        assertThrows(ConcurrentModificationException.class, () -> set.remove(set.at(0)));
    assertEquals(
        "cannot remove an element from "
            + Entity.toString(set.at(0))
            + ": sparse set is being read by a chunk iteration of the outer group, and structural"
            + " changes are refused until it ends",
        error.getMessage());
    assertEquals(3, set.size());
    set.unlock();
    assertFalse(set.isLocked());
    set.lock("a parallel iteration", null);
    final ConcurrentModificationException clear =
        assertThrows(ConcurrentModificationException.class, set::clear);
    assertEquals(
        "cannot clear sparse set: a parallel iteration is reading it, and structural changes are"
            + " refused until it ends",
        clear.getMessage());
    set.unlock();
    set.remove(set.at(0));
    assertEquals(2, set.size());
  }

  @Test
  void verifyReportsAnEntityTheSparseArrayDoesNotMapAndABrokenFreeList() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 4);
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(List.of(), problems);
    // Corrupt the packed array behind the set's back: an unmapped entity at 1.
    set.packed()[1] = Entity.of(9000, 0);
    set.verify(problems);
    assertEquals(
        List.of(
            "sparse set: "
                + Entity.toString(Entity.of(9000, 0))
                + " at position 1 is mapped by the sparse array to -1",
            "sparse set: the sparse array maps index 1 to position 1, which does not hold it"),
        problems);
    // An entity whose sparse page exists, mapped elsewhere.
    problems.clear();
    set.packed()[1] = set.at(2);
    set.verify(problems);
    assertEquals(
        List.of(
            "sparse set: "
                + Entity.toString(set.at(2))
                + " at position 1 is mapped by the"
                + " sparse array to 2",
            "sparse set: the sparse array maps index 1 to position 1, which does not hold it"),
        problems);
  }

  @Test
  void verifyNamesTheIndexOfAMappingThatPointsAtAStranger() {
    // Indices beyond the first sparse page: the message gives the whole index, page and slot.
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.insert(Entity.of(5000, 0));
    set.insert(Entity.of(9000, 0));
    set.packed()[0] = Entity.of(9000, 0);
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(
        List.of(
            "sparse set: "
                + Entity.toString(Entity.of(9000, 0))
                + " at position 0 is mapped by the sparse array to 1",
            "sparse set: the sparse array maps index 5000 to position 0, which does not hold it"),
        problems);
  }

  @Test
  void verifyCountsTombstonesAgainstTheFreeList() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 4);
    set.remove(set.at(1));
    set.remove(set.at(3));
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(List.of(), problems);
    // A tombstone the free list does not reach: the list is 3 -> 1 -> end; cut it after 3.
    set.packed()[3] = Entity.of(-1, Entity.TOMBSTONE_VERSION);
    set.verify(problems);
    assertEquals(List.of("sparse set: 2 tombstones but 1 holes in the free list"), problems);
    // A link out of the set.
    problems.clear();
    set.packed()[3] = Entity.of(4, Entity.TOMBSTONE_VERSION);
    set.verify(problems);
    assertEquals(List.of("sparse set: the free list of holes is broken at position 4"), problems);
  }

  @Test
  void verifyReportsLocksAndIterationsLeftBehind() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 2);
    set.lock("a sort of", "a test");
    set.beginIteration();
    set.beginIteration();
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(
        List.of(
            "sparse set: still locked (by a sort of a test)",
            "sparse set: 2 iteration(s) still registered"),
        problems);
  }

  @Test
  void clearReleasesTheLiveElementsAndSkipsHoles() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 4);
    set.remove(set.at(1));
    set.recordHooks = true;
    final int before = set.modifications();
    set.clear();
    assertEquals(List.of("release 3", "release 2", "release 0"), set.hooks);
    assertEquals(0, set.size());
    assertFalse(set.hasTombstones());
    // Clearing is a rearrangement an external iterator must notice.
    assertThrows(ConcurrentModificationException.class, () -> set.checkLog(before, 0, "a test"));
  }

  @Test
  void aSwapIsLoggedForExternalIterators() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 5);
    final int before = set.modifications();
    set.swap(1, 1);
    assertEquals(before, set.modifications());
    set.swap(3, 1);
    final ConcurrentModificationException error =
        assertThrows(ConcurrentModificationException.class, () -> set.checkLog(before, 2, "it"));
    assertTrue(error.getMessage().contains("positions 1 and 3"), error.getMessage());
    assertDoesNotThrow(() -> set.checkLog(before, 1, "it"));
    assertDoesNotThrow(() -> set.checkLog(before, 4, "it"));
  }

  @Test
  void aMoveAcrossAnOuterFloorIsRefusedButTheOuterVisitedElementMayLeave() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 7);
    set.beginIteration();
    set.visit(5);
    set.beginIteration();
    set.visit(2);
    set.remove(set.at(6)); // above both floors, the last: nothing moves
    // Removing 4 would move the last (5, the outer floor) into 4, across the outer floor: refused.
    final long fourth = set.at(4);
    assertThrows(ConcurrentModificationException.class, () -> set.remove(fourth));
    assertTrue(set.contains(fourth));
    // Entities appended meanwhile land above both floors; removing the outer iteration's visited
    // element moves the last one into its slot, which the outer walk has visited: allowed.
    set.insert(Entity.of(100, 0));
    set.insert(Entity.of(101, 0));
    set.remove(set.at(5));
    assertEquals(Entity.of(101, 0), set.at(5));
    set.endIteration();
    set.endIteration();
    assertEquals(7, set.size());
    assertEquals(7, set.checkInvariants().size());
  }

  @Test
  void theChangeLogChecksUpToSixtyFourMovesAndRefusesToGuessPastThem() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 10);
    final int before = set.modifications();
    for (int i = 0; i < 64; i++) {
      set.swap(1, 2); // below a floor at 5
    }
    assertDoesNotThrow(() -> set.checkLog(before, 5, "it"));
    set.swap(1, 2);
    final ConcurrentModificationException error =
        assertThrows(ConcurrentModificationException.class, () -> set.checkLog(before, 5, "it"));
    assertEquals(
        "sparse set changed while it was iterating it: more than 64 elements moved between two"
            + " steps, too many to check",
        error.getMessage());
  }

  /** Every way to sort a set, each ordering it by descending index. */
  static Stream<Arguments> sorts() {
    final List<Arguments> all = new ArrayList<>();
    all.add(sortNamed("sort", set -> set.sort(SparseSetTest::byDescendingIndex)));
    all.add(
        sortNamed(
            "sortByPosition",
            set -> set.sortByPosition((a, b) -> byDescendingIndex(set.at(a), set.at(b)))));
    all.add(
        sortNamed(
            "insertionSortByPosition",
            set -> set.insertionSortByPosition((a, b) -> byDescendingIndex(set.at(a), set.at(b)))));
    all.add(sortNamed("insertionSort", set -> set.insertionSort(SparseSetTest::byDescendingIndex)));
    all.add(sortNamed("sortByLongKey", set -> set.sortByLongKey(e -> -Entity.index(e))));
    all.add(sortNamed("sortByFloatKey", set -> set.sortByFloatKey(e -> -Entity.index(e))));
    all.add(
        sortNamed(
            "insertionSortByLongKey", set -> set.insertionSortByLongKey(e -> -Entity.index(e))));
    all.add(
        sortNamed(
            "insertionSortByFloatKey", set -> set.insertionSortByFloatKey(e -> -Entity.index(e))));
    all.add(
        sortNamed(
            "sortAs",
            set -> {
              final TestSet reversed = new TestSet(DeletionPolicy.SWAP_AND_POP);
              for (int index = 100; index >= 0; index--) {
                if (Entity.NULL != set.entityWithIndex(index)) {
                  reversed.insert(set.entityWithIndex(index));
                }
              }
              set.sortAs(reversed);
            }));
    return all.stream();
  }

  private static int byDescendingIndex(final long left, final long right) {
    return Integer.compare(Entity.index(right), Entity.index(left));
  }

  private static Arguments sortNamed(final String name, final Consumer<TestSet> sort) {
    return Arguments.of(name, sort);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sorts")
  void everySortIsRefusedWhileIteratedOrLockedOrWithHolesAndChangesNothing(
      final String name, final Consumer<TestSet> sort) {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 6);
    final long[] before = packedCopy(set);
    set.beginIteration();
    final ConcurrentModificationException iterated =
        assertThrows(ConcurrentModificationException.class, () -> sort.accept(set), name);
    assertTrue(iterated.getMessage().contains("an iteration over it is in progress"), name);
    assertArrayEquals(before, packedCopy(set), name);
    set.endIteration();
    set.lock("a chunk iteration of", "a test");
    final ConcurrentModificationException locked =
        assertThrows(ConcurrentModificationException.class, () -> sort.accept(set), name);
    assertTrue(locked.getMessage().contains("a chunk iteration of a test"), name);
    assertArrayEquals(before, packedCopy(set), name);
    set.unlock();
    set.remove(Entity.of(2, 2));
    final long[] holed = packedCopy(set);
    final IllegalStateException withHoles =
        assertThrows(IllegalStateException.class, () -> sort.accept(set), name);
    assertTrue(withHoles.getMessage().contains("call compact() first"), name);
    assertArrayEquals(holed, packedCopy(set), name);
    // Once compacted, the same sort runs.
    set.compact();
    sort.accept(set);
    for (int position = 1; position < set.size(); position++) {
      assertTrue(Entity.index(set.at(position - 1)) > Entity.index(set.at(position)), name);
    }
    assertEquals(5, set.checkInvariants().size(), name);
  }

  @Test
  void holdsAtAnswersOnlyForAPositionInsideTheSetHoldingTheEntity() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    assertTrue(set.holdsAt(0, Entity.of(0, 0)));
    assertTrue(set.holdsAt(2, Entity.of(2, 2)));
    assertFalse(set.holdsAt(1, Entity.of(0, 0)));
    assertFalse(set.holdsAt(-1, Entity.of(0, 0)));
    assertFalse(set.holdsAt(3, set.packed()[3]), "past the end");
  }

  @Test
  void samePositionsOfTheSetItselfHoldsForEveryRangeInsideIt() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    assertTrue(set.samePositions(set, 0, 3));
    assertTrue(set.samePositions(set, 1, 1), "an empty range");
    assertTrue(set.samePositions(set, 3, 3), "an empty range at the end");
    assertFalse(set.samePositions(set, 2, 1));
    assertFalse(set.samePositions(set, 0, 4));
    assertFalse(set.samePositions(set, -1, 2));
    final TestSet other = filled(DeletionPolicy.SWAP_AND_POP, 2);
    assertTrue(other.samePositions(set, 2, 2));
    assertTrue(set.samePositions(other, 0, 2));
    assertFalse(set.samePositions(other, 0, 3));
  }

  @Test
  void reservingRoomTheSetAlreadyHasKeepsItsArray() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.reserve(20);
    final long[] packed = set.packed();
    assertEquals(20, packed.length);
    set.reserve(20);
    set.reserve(7);
    assertSame(packed, set.packed());
    set.reserve(21);
    assertEquals(21, set.packed().length);
  }

  @Test
  void fillingAHoleOfAFullInPlaceSetDoesNotGrowIt() {
    final TestSet set = new TestSet(DeletionPolicy.IN_PLACE);
    set.reserve(4);
    for (int i = 0; i < 4; i++) {
      set.insert(Entity.of(i, i % 3));
    }
    final long[] packed = set.packed();
    assertEquals(4, packed.length);
    set.remove(Entity.of(1, 1));
    assertEquals(1, set.insert(Entity.of(9, 0)));
    assertSame(packed, set.packed(), "the hole was filled in place");
    assertEquals(4, set.insert(Entity.of(10, 0)));
    assertNotSame(packed, set.packed(), "a full set grows");
    assertEquals(5, set.checkInvariants().size());
  }

  private static long[] entities(final int count, final int length) {
    final long[] entities = new long[length];
    for (int i = 0; i < count; i++) {
      entities[i] = Entity.of(3 * i, 1);
    }
    return entities;
  }

  private static void assertRestored(final SparseSet set, final long[] entities, final int count) {
    assertEquals(count, set.size());
    for (int i = 0; i < count; i++) {
      assertEquals(i, set.indexOf(entities[i]));
    }
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(List.of(), problems);
  }

  @Test
  void restoreAdoptsAStagingArrayOfSixteenOrMoreWhenTheSetLacksRoom() {
    final long[] staging = entities(16, 16);
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.restore(staging, 16, SparseSet.ABSENT, null);
    assertSame(staging, set.packed());
    assertRestored(set, staging, 16);
    // Fewer than 16 slots: copied into an array of 16.
    final long[] small = entities(2, 2);
    final TestSet fromSmall = new TestSet(DeletionPolicy.SWAP_AND_POP);
    fromSmall.restore(small, 2, SparseSet.ABSENT, null);
    assertNotSame(small, fromSmall.packed());
    assertEquals(16, fromSmall.packed().length);
    assertRestored(fromSmall, small, 2);
  }

  @Test
  void restoreIntoASetWithRoomKeepsItsOwnArray() {
    final TestSet set = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.reserve(16);
    final long[] own = set.packed();
    final long[] staging = entities(16, 16);
    set.restore(staging, 16, SparseSet.ABSENT, null);
    assertSame(own, set.packed());
    assertRestored(set, staging, 16);
  }

  @Test
  void verifyAcceptsAFreeListThatStartsAtPositionZero() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 3);
    set.remove(Entity.of(0, 0));
    assertEquals(0, set.firstHole());
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(List.of(), problems);
  }

  @Test
  void verifyReportsAFreeListLinkToThePositionJustPastTheEnd() {
    final TestSet set = filled(DeletionPolicy.IN_PLACE, 6);
    set.remove(Entity.of(1, 1));
    set.compact(); // 5 moves into 1; position 5, now past the end, keeps a tombstone
    assertEquals(5, set.size());
    set.remove(Entity.of(2, 2));
    set.remove(Entity.of(3, 0));
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(List.of(), problems);
    // The list is 3 -> 2 -> end; point 3 at 5, the size.
    set.packed()[3] = Entity.of(5, Entity.TOMBSTONE_VERSION);
    set.verify(problems);
    assertEquals(List.of("sparse set: the free list of holes is broken at position 5"), problems);
  }

  @Test
  void verifyReportsTombstonesWhenTheFreeListIsEmpty() {
    final long[] staging = {Entity.of(0, 0), Entity.of(-1, Entity.TOMBSTONE_VERSION)};
    final TestSet set = new TestSet(DeletionPolicy.IN_PLACE);
    set.restore(staging, 2, SparseSet.ABSENT, null);
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(List.of("sparse set: 1 tombstones but 0 holes in the free list"), problems);
  }

  @Test
  void verifyReportsAnEntityOnTheSparsePageJustPastTheSparseArray() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 4); // one sparse page
    set.packed()[1] = Entity.of(SparseSet.SPARSE_PAGE_SIZE + 5, 0);
    final List<String> problems = new ArrayList<>();
    set.verify(problems);
    assertEquals(
        List.of(
            "sparse set: "
                + Entity.toString(Entity.of(SparseSet.SPARSE_PAGE_SIZE + 5, 0))
                + " at position 1 is mapped by the sparse array to -1",
            "sparse set: the sparse array maps index 1 to position 1, which does not hold it"),
        problems);
  }

  @Test
  void aRefusalOnBehalfOfAPlainSetCallsItsElementAnElement() {
    final TestSet set = filled(DeletionPolicy.SWAP_AND_POP, 3);
    final TestSet target = new TestSet(DeletionPolicy.SWAP_AND_POP);
    set.lock("a test of", "it");
    final ConcurrentModificationException error =
        assertThrows(
            ConcurrentModificationException.class,
            () -> set.checkUnlocked(false, target, Entity.of(7, 0)));
    assertEquals(
        "cannot emplace an element on "
            + Entity.toString(Entity.of(7, 0))
            + ": sparse set is being read by a test of it, and structural changes are refused"
            + " until it ends",
        error.getMessage());
    set.unlock();
  }
}
