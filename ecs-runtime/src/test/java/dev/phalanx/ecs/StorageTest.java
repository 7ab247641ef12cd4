package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class StorageTest {

  static Stream<Arguments> policiesAndPageSizes() {
    final List<Arguments> all = new ArrayList<>();
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      for (final int pageSize : new int[] {1, 2, 4, 1024}) {
        all.add(Arguments.of(policy, pageSize));
      }
    }
    return all.stream();
  }

  private static ObjectStorage<Payload> storage(final DeletionPolicy policy) {
    return Fixtures.alpha(policy).createStorage();
  }

  /** Checks that the storage holds exactly {@code model}, payloads by identity. */
  static void assertHolds(final Map<Long, Payload> model, final Storage<Payload> storage) {
    int live = 0;
    for (int position = 0; position < storage.size(); position++) {
      final long entity = storage.packed()[position];
      if (Entity.isTombstone(entity)) {
        continue;
      }
      live++;
      assertTrue(
          model.containsKey(entity),
          () -> Entity.toString(entity) + " should not be in the storage");
      assertSame(model.get(entity), storage.getAt(position), Entity.toString(entity));
    }
    assertEquals(model.size(), live);
    for (final Map.Entry<Long, Payload> entry : model.entrySet()) {
      assertSame(entry.getValue(), storage.get(entry.getKey()));
    }
  }

  /** Everything observable, to compare before and after a refused operation. */
  static String state(final Storage<?> storage) {
    final StringBuilder text = new StringBuilder(storage.size() + ":" + storage.firstHole() + ":");
    for (int position = 0; position < storage.size(); position++) {
      text.append(Entity.toString(storage.packed()[position])).append('=');
      text.append(
              Entity.isTombstone(storage.packed()[position])
                  ? "hole"
                  : String.valueOf(storage.getAt(position)))
          .append(',');
    }
    return text.toString();
  }

  @ParameterizedTest
  @MethodSource("policiesAndPageSizes")
  void payloadPagesOfPageSizeAreAllocatedInOrderAndValuesFollowTheirEntities(
      final DeletionPolicy policy, final int pageSize) {
    final ObjectStorage<Payload> storage = Fixtures.paged(policy, pageSize).createStorage();
    assertEquals(pageSize, storage.pageSize());
    assertEquals(Integer.numberOfTrailingZeros(pageSize), storage.pageShift());
    final Map<Long, Payload> model = new HashMap<>();
    final Random random = new Random(pageSize);
    for (int i = 0; i < 3 * pageSize + 3; i++) {
      final long entity = Entity.of(i * 7, i);
      final Payload value = new Payload(i);
      storage.emplace(entity, value);
      model.put(entity, value);
      assertEquals((storage.size() + pageSize - 1) / pageSize, storage.pageCount());
    }
    assertHolds(model, storage);
    for (int round = 0; round < 200; round++) {
      final List<Long> keys = new ArrayList<>(model.keySet());
      if (random.nextBoolean() && !keys.isEmpty()) {
        final long entity = keys.get(random.nextInt(keys.size()));
        storage.erase(entity);
        model.remove(entity);
      } else {
        final long entity = Entity.of(1_000_000 + round, 0);
        final Payload value = new Payload(round);
        storage.emplace(entity, value);
        model.put(entity, value);
      }
      assertHolds(model, storage);
      if (0 == round % 50) {
        storage.compact();
        assertFalse(storage.hasTombstones());
        assertHolds(model, storage);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("policiesAndPageSizes")
  void aPositionNeverMovesWhenOthersAreAdded(final DeletionPolicy policy, final int pageSize) {
    final ObjectStorage<Payload> storage = Fixtures.paged(policy, pageSize).createStorage();
    final long first = Entity.of(0, 0);
    final Payload value = new Payload(0);
    storage.emplace(first, value);
    final Object[] page = storage.pages()[0];
    for (int i = 1; i < 5 * pageSize; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    assertEquals(0, storage.index(first));
    assertSame(page, storage.pages()[0], "the first page was reallocated");
    assertSame(value, page[0]);
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void inPlaceRemovalKeepsEveryOtherElementInItsSlot(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = Fixtures.paged(policy, 2).createStorage();
    for (int i = 0; i < 7; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    final long[] before = Arrays.copyOf(storage.packed(), 7);
    storage.remove(Entity.of(1, 0));
    final boolean inPlace = DeletionPolicy.IN_PLACE == policy;
    assertEquals(inPlace ? 7 : 6, storage.size());
    assertEquals(inPlace ? Entity.of(6, 0) : Entity.of(6, 0), storage.packed()[inPlace ? 6 : 1]);
    if (inPlace) {
      for (int position = 0; position < 7; position++) {
        if (1 != position) {
          assertEquals(before[position], storage.packed()[position]);
          assertEquals(Entity.index(before[position]), storage.valueAt(position).value);
        }
      }
    } else {
      assertEquals(6, storage.valueAt(1).value);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void getTryGetReplacePatchAndEmplaceOrReplace(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = storage(policy);
    final long entity = Entity.of(3, 1);
    final Payload first = new Payload(1);
    storage.emplace(entity, first);
    assertSame(first, storage.get(entity));
    assertSame(first, storage.tryGet(entity));
    assertNull(storage.tryGet(Entity.of(3, 2)));
    assertNull(storage.tryGet(Entity.NULL));
    final Payload second = new Payload(2);
    storage.replace(entity, second);
    assertSame(second, storage.get(entity));
    storage.patch(entity, value -> value.value = 42);
    assertEquals(42, second.value);
    final Payload third = new Payload(3);
    storage.emplaceOrReplace(entity, third);
    assertSame(third, storage.get(entity));
    final Payload fourth = new Payload(4);
    storage.emplaceOrReplace(Entity.of(4, 0), fourth);
    assertSame(fourth, storage.get(Entity.of(4, 0)));
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void removeIsTolerantAndEraseIsStrict(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = storage(policy);
    final long entity = Entity.of(3, 1);
    storage.emplace(entity, new Payload(1));
    assertFalse(storage.remove(Entity.of(3, 0)));
    assertFalse(storage.remove(Entity.NULL));
    assertTrue(storage.contains(entity));
    assertTrue(storage.remove(entity));
    assertFalse(storage.remove(entity));
    storage.emplace(entity, new Payload(2));
    storage.erase(entity);
    assertFalse(storage.contains(entity));
    final String before = state(storage);
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> storage.erase(entity));
    assertTrue(error.getMessage().contains("index=3, version=1"), error.getMessage());
    assertTrue(
        error.getMessage().contains("AlphaSwap") || error.getMessage().contains("AlphaInPlace"),
        error.getMessage());
    assertEquals(before, state(storage));
  }

  static Stream<Arguments> misuses() {
    final Payload value = new Payload(9);
    final long present = Entity.of(1, 0);
    final long absent = Entity.of(2, 0);
    final List<Arguments> all = new ArrayList<>();
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      all.add(
          Arguments.of(
              policy,
              "emplace of an existing component",
              IllegalArgumentException.class,
              present,
              (StorageAction) s -> s.emplace(present, value)));
      all.add(
          Arguments.of(
              policy,
              "emplace on null",
              IllegalArgumentException.class,
              Entity.NULL,
              (StorageAction) s -> s.emplace(Entity.NULL, value)));
      all.add(
          Arguments.of(
              policy,
              "emplace on a tombstone handle",
              IllegalArgumentException.class,
              Entity.of(2, Entity.TOMBSTONE_VERSION),
              (StorageAction) s -> s.emplace(Entity.of(2, Entity.TOMBSTONE_VERSION), value)));
      all.add(
          Arguments.of(
              policy,
              "emplace of null",
              NullPointerException.class,
              absent,
              (StorageAction) s -> s.emplace(absent, null)));
      all.add(
          Arguments.of(
              policy,
              "replace with null",
              NullPointerException.class,
              present,
              (StorageAction) s -> s.replace(present, null)));
      all.add(
          Arguments.of(
              policy,
              "replace of a missing component",
              IllegalArgumentException.class,
              absent,
              (StorageAction) s -> s.replace(absent, value)));
      all.add(
          Arguments.of(
              policy,
              "patch of a missing component",
              IllegalArgumentException.class,
              absent,
              (StorageAction) s -> s.patch(absent, p -> p.value = 1)));
      all.add(
          Arguments.of(
              policy,
              "patch without a patcher of a missing component",
              IllegalArgumentException.class,
              absent,
              (StorageAction) s -> s.patch(absent)));
      all.add(
          Arguments.of(
              policy,
              "get of a missing component",
              IllegalArgumentException.class,
              absent,
              (StorageAction) s -> s.get(absent)));
      all.add(
          Arguments.of(
              policy,
              "get of a stale version",
              IllegalArgumentException.class,
              Entity.of(1, 1),
              (StorageAction) s -> s.get(Entity.of(1, 1))));
      all.add(
          Arguments.of(
              policy,
              "erase of a missing component",
              IllegalArgumentException.class,
              absent,
              (StorageAction) s -> s.erase(absent)));
      all.add(
          Arguments.of(
              policy,
              "emplaceOrReplace of null",
              NullPointerException.class,
              absent,
              (StorageAction) s -> s.emplaceOrReplace(absent, null)));
    }
    return all.stream();
  }

  interface StorageAction {
    void apply(ObjectStorage<Payload> storage);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("misuses")
  void everyMisuseNamesEntityAndComponentAndChangesNothing(
      final DeletionPolicy policy,
      final String what,
      final Class<? extends Throwable> expected,
      final long entity,
      final StorageAction action) {
    final ObjectStorage<Payload> storage = storage(policy);
    storage.emplace(Entity.of(0, 0), new Payload(0));
    storage.emplace(Entity.of(1, 0), new Payload(1));
    storage.emplace(Entity.of(5, 0), new Payload(5));
    storage.remove(Entity.of(0, 0));
    final int[] events = new int[1];
    storage.onConstruct().connect((registry, e) -> events[0]++);
    storage.onUpdate().connect((registry, e) -> events[0]++);
    storage.onDestroy().connect((registry, e) -> events[0]++);
    final String before = state(storage);
    final Throwable error = assertThrows(expected, () -> action.apply(storage));
    final String message = error.getMessage();
    assertTrue(message.contains(Entity.toString(entity)), message);
    assertTrue(message.contains(storage.type().name()), message);
    assertEquals(before, state(storage));
    assertEquals(0, events[0], "a refused operation published a signal");
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void constructFiresAfterInsertionUpdateAfterWriteAndDestroyBeforeRemoval(
      final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = storage(policy);
    final long entity = Entity.of(8, 2);
    final Payload first = new Payload(1);
    final Payload second = new Payload(2);
    final List<String> events = new ArrayList<>();
    storage
        .onConstruct()
        .connect(
            (registry, e) -> {
              assertNull(registry);
              events.add("construct " + storage.get(e).value);
            });
    storage.onUpdate().connect((registry, e) -> events.add("update " + storage.get(e).value));
    storage
        .onDestroy()
        .connect(
            (registry, e) ->
                events.add("destroy " + storage.contains(e) + " " + storage.get(e).value));
    storage.emplace(entity, first);
    storage.replace(entity, second);
    storage.patch(entity, p -> p.value = 3);
    storage.patch(entity);
    storage.emplaceOrReplace(entity, first);
    storage.remove(entity);
    storage.emplaceOrReplace(entity, second);
    storage.erase(entity);
    assertEquals(
        List.of(
            "construct 1",
            "update 2",
            "update 3",
            "update 3",
            "update 1",
            "destroy true 1",
            "construct 3",
            "destroy true 3"),
        events);
    assertFalse(storage.contains(entity));
  }

  @Test
  void listenersRunInConnectionOrderAndConnectFirstRunsBeforeThem() {
    final ObjectStorage<Payload> storage = storage(DeletionPolicy.SWAP_AND_POP);
    final List<String> order = new ArrayList<>();
    storage.onConstruct().connect((r, e) -> order.add("a"));
    storage.onConstruct().connect((r, e) -> order.add("b"));
    storage.onConstruct().connectFirst((r, e) -> order.add("first"));
    storage.emplace(Entity.of(0, 0), new Payload(0));
    assertEquals(List.of("first", "a", "b"), order);
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void aDestroyListenerMayRemoveAnotherElementThatMovesTheOneBeingRemoved(
      final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = storage(policy);
    final Map<Long, Payload> model = new HashMap<>();
    for (int i = 0; i < 4; i++) {
      final Payload value = new Payload(i);
      storage.emplace(Entity.of(i, 0), value);
      model.put(Entity.of(i, 0), value);
    }
    // Removing 3 (last) first moves nothing; removing 2 then makes 3... so remove 0 and let the
    // listener remove 1: under swap-and-pop the last element moves into 1's slot.
    storage
        .onDestroy()
        .connect(
            (r, e) -> {
              if (Entity.of(0, 0) == e) {
                storage.remove(Entity.of(1, 0));
              }
            });
    storage.remove(Entity.of(3, 0));
    model.remove(Entity.of(3, 0));
    assertTrue(storage.remove(Entity.of(0, 0)));
    model.remove(Entity.of(0, 0));
    model.remove(Entity.of(1, 0));
    assertHolds(model, storage);
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void clearPublishesDestroyForEveryElementLastPositionFirst(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = storage(policy);
    for (int i = 0; i < 5; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    storage.remove(Entity.of(2, 0));
    final List<Integer> destroyed = new ArrayList<>();
    storage.onDestroy().connect((r, e) -> destroyed.add(storage.get(e).value));
    storage.clear();
    assertEquals(0, storage.size());
    assertFalse(storage.hasTombstones());
    assertEquals(
        DeletionPolicy.IN_PLACE == policy ? List.of(4, 3, 1, 0) : List.of(3, 4, 1, 0), destroyed);
    for (final Object[] page : storage.pages()) {
      for (int offset = 0; null != page && offset < page.length; offset++) {
        assertNull(page[offset], "clear kept a reference");
      }
    }
  }

  @Test
  void clearCopesWithListenersThatRemoveOtherElements() {
    final ObjectStorage<Payload> storage = storage(DeletionPolicy.SWAP_AND_POP);
    for (int i = 0; i < 10; i++) {
      storage.emplace(Entity.of(i, 0), new Payload(i));
    }
    final List<Long> destroyed = new ArrayList<>();
    storage
        .onDestroy()
        .connect(
            (r, e) -> {
              destroyed.add(e);
              if (0 == Entity.index(e) % 2) {
                storage.remove(
                    Entity.of(Entity.index(e) + 1, 0)); // its odd partner, possibly already visited
              }
            });
    storage.clear();
    assertEquals(10, destroyed.size());
    assertEquals(10, destroyed.stream().distinct().count());
    assertEquals(0, storage.size());
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void sortingMovesPayloadsWithTheirEntities(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = Fixtures.paged(policy, 2).createStorage();
    final Map<Long, Payload> model = new HashMap<>();
    final Random random = new Random(5);
    for (int i = 0; i < 500; i++) {
      final Payload value = new Payload(random.nextInt(50));
      storage.emplace(Entity.of(i, 0), value);
      model.put(Entity.of(i, 0), value);
    }
    storage.sortByPosition(
        (a, b) -> Integer.compare(storage.valueAt(a).value, storage.valueAt(b).value));
    for (int position = 1; position < storage.size(); position++) {
      assertTrue(storage.valueAt(position - 1).value <= storage.valueAt(position).value);
    }
    assertHolds(model, storage);
    storage.sort((a, b) -> Long.compare(b, a));
    assertEquals(Entity.of(499, 0), storage.packed()[0]);
    assertHolds(model, storage);
    final ObjectStorage<Payload> other = storage(policy);
    other.emplace(Entity.of(17, 0), new Payload(0));
    other.emplace(Entity.of(3, 0), new Payload(0));
    storage.sortAs(other);
    assertEquals(Entity.of(17, 0), storage.packed()[0]);
    assertEquals(Entity.of(3, 0), storage.packed()[1]);
    assertHolds(model, storage);
  }

  @Test
  void anOwnedStorageRefusesEverySortOnItsOwn() {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> storage =
        registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    for (int i = 0; i < 5; i++) {
      storage.emplace(registry.create(), new Payload(i));
    }
    final OwningGroup group = registry.owningGroup(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    assertSame(group, storage.owner());
    final String before = state(storage);
    final List<Executable> sorts =
        List.of(
            () -> storage.sort((a, b) -> Long.compare(b, a)),
            () -> storage.sortByPosition((a, b) -> Integer.compare(b, a)),
            () -> storage.insertionSortByPosition((a, b) -> Integer.compare(b, a)),
            () -> storage.sortAs(storage(DeletionPolicy.IN_PLACE)));
    for (final Executable sort : sorts) {
      final IllegalStateException error = assertThrows(IllegalStateException.class, sort);
      assertTrue(error.getMessage().contains("owned"), error.getMessage());
      assertEquals(before, state(storage));
    }
    assertDoesNotThrow(() -> group.sort((a, b) -> Long.compare(b, a)));
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void aStorageBindsToOneRegistryOnly() {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> storage =
        registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    assertSame(registry, storage.registry());
    final Registry other = new Registry();
    assertThrows(IllegalStateException.class, () -> storage.bind(other, other.groups()));
    assertSame(registry, storage.registry());
    assertNull(storage(DeletionPolicy.SWAP_AND_POP).registry());
  }

  @Test
  void anInPlaceStorageCannotBeOwned() {
    final Registry registry = new Registry();
    final IllegalStateException error =
        assertThrows(
            IllegalStateException.class,
            () -> registry.owningGroup(Fixtures.alpha(DeletionPolicy.IN_PLACE)));
    assertTrue(error.getMessage().contains("in-place"), error.getMessage());
    assertNull(registry.storage(Fixtures.alpha(DeletionPolicy.IN_PLACE)).owner());
    assertEquals(0, registry.groups().size());
  }

  @Test
  void describeNamesTheComponent() {
    assertEquals("storage of AlphaSwap", storage(DeletionPolicy.SWAP_AND_POP).describe());
    assertSame(Fixtures.alpha(DeletionPolicy.IN_PLACE), storage(DeletionPolicy.IN_PLACE).type());
  }

  private static long[] created(final Registry registry, final int count) {
    final long[] entities = new long[count];
    for (int i = 0; i < count; i++) {
      entities[i] = registry.create();
    }
    return entities;
  }

  @Test
  void aBulkInsertionAppendsTheRangeInItsOrderAfterTheElementsThere() {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> storage =
        registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final long[] entities = created(registry, 105);
    storage.emplace(entities[0], new Payload(-1));
    final Payload value = new Payload(7);
    storage.insert(entities, 5, 105, value); // more than the packed array holds, the array's tail
    assertEquals(101, storage.size());
    for (int i = 5; i < 105; i++) {
      assertEquals(i - 4, storage.index(entities[i]));
      assertEquals(7, storage.get(entities[i]).value);
    }
    for (int i = 1; i < 5; i++) {
      assertFalse(storage.contains(entities[i]));
    }
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void aBulkInsertionIntoReservedRoomReallocatesNothing() {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> storage =
        registry.storage(Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 2));
    storage.reserve(10);
    assertEquals(5, storage.pageCount(), "reserve allocates the payload pages too");
    final long[] packed = storage.packed();
    assertEquals(10, packed.length);
    final long[] entities = created(registry, 13);
    storage.insert(entities, 3, 13, new Payload(1)); // exactly the reserved room
    assertSame(packed, storage.packed());
    assertEquals(5, storage.pageCount());
    assertEquals(10, storage.size());
    assertEquals(9, storage.index(entities[12]));
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void aBulkInsertionListingAnEntityTwiceIsRefusedAndLeavesNoTrace() {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> storage =
        registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final long[] e = created(registry, 4);
    storage.emplace(e[3], new Payload(0));
    final String before = state(storage);
    final long[][] ranges = {{e[0], e[1], e[0]}, {e[0], e[1], e[2], e[1]}};
    for (final long[] range : ranges) {
      final IllegalArgumentException error =
          assertThrows(
              IllegalArgumentException.class,
              () -> storage.insert(range, 0, range.length, new Payload(1)));
      assertEquals(
          "cannot insert AlphaSwap on "
              + Entity.toString(range[range.length - 1])
              + ": it is listed twice in entities[0, "
              + range.length
              + ") (offset "
              + (range.length - 1)
              + ")",
          error.getMessage());
      assertEquals(before, state(storage));
      assertTrue(registry.verify().isEmpty(), registry.verify().toString());
    }
    storage.insert(e, 0, 3, new Payload(2));
    assertEquals(4, storage.size());
    assertEquals(3, storage.index(e[2]));
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void aBulkInsertionObservedByAGroupWaitsOnlyWhileAnIterationOrASortRuns() {
    final Registry registry = new Registry();
    final ComponentType<Payload, ObjectStorage<Payload>> type =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final ObjectStorage<Payload> storage = registry.storage(type);
    final NonOwningGroup group =
        registry.nonOwningGroup(new ComponentType<?, ?>[] {type}, new ComponentType<?, ?>[0]);
    for (int i = 0; i < 3; i++) {
      storage.emplace(registry.create(), new Payload(i));
    }
    final long[] batch = created(registry, 2);
    final int[] refused = {0};
    registry
        .view(type)
        .each(
            entity -> {
              assertThrows(
                  ConcurrentModificationException.class,
                  () -> storage.insert(batch, 0, 2, new Payload(9)));
              refused[0]++;
            });
    assertEquals(3, refused[0]);
    // The iteration has ended: the guard it raised is down again.
    storage.insert(batch, 0, 2, new Payload(9));
    assertEquals(5, group.size());
    storage.sort((a, b) -> Long.compare(b, a)); // locks the storage while it compares
    final long[] more = created(registry, 2);
    storage.insert(more, 0, 2, new Payload(10));
    assertEquals(7, group.size());
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }
}
