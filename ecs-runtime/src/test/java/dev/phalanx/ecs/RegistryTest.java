package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

public class RegistryTest {

  /** JUnit makes one instance per test; other tests use only the static members. */
  public RegistryTest() {}

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);
  private static final ComponentType<Object, EmptyStorage<Object>> TAG =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  private final Registry registry = new Registry();

  /** Everything observable in a registry, to compare before and after a refused operation. */
  public static String snapshot(final Registry registry) {
    final StringBuilder text = new StringBuilder();
    text.append(registry.alive()).append('/').append(registry.entities().size()).append(' ');
    text.append(
        Arrays.toString(Arrays.copyOf(registry.entities().packed(), registry.entities().size())));
    for (int n = 0; n < registry.storageCount(); n++) {
      final Storage<?> storage = registry.storageAt(n);
      text.append("\n")
          .append(storage.describe())
          .append(' ')
          .append(storage.firstHole())
          .append(": ");
      for (int position = 0; position < storage.size(); position++) {
        final long entity = storage.packed()[position];
        text.append(Entity.toString(entity)).append('=');
        text.append(Entity.isTombstone(entity) ? "hole" : String.valueOf(storage.get(entity)))
            .append(' ');
      }
    }
    return text.toString();
  }

  @Test
  void createMakesValidEntitiesAndCountsThem() {
    final long a = registry.create();
    final long b = registry.create();
    assertTrue(registry.valid(a));
    assertTrue(registry.valid(b));
    assertEquals(2, registry.alive());
    final long[] bulk = new long[5];
    registry.create(bulk);
    assertEquals(7, registry.alive());
    assertEquals(5, Arrays.stream(bulk).distinct().count());
    assertFalse(registry.valid(Entity.NULL));
  }

  @Test
  void destroyRemovesEveryComponentPublishingDestroyThenBumpsTheVersion() {
    final long entity = registry.create();
    final Payload value = registry.emplace(entity, A, new Payload(1));
    registry.emplace(entity, B, new Payload(2));
    registry.storage(TAG).emplace(entity);
    final List<String> events = new ArrayList<>();
    registry
        .storage(A)
        .onDestroy()
        .connect(
            (r, e) -> {
              assertSame(registry, r);
              assertTrue(r.valid(e), "destroy listeners run while the entity is still valid");
              events.add("A " + r.get(e, A).value);
            });
    registry.storage(B).onDestroy().connect((r, e) -> events.add("B"));
    registry.destroy(entity);
    assertTrue(events.containsAll(List.of("A 1", "B")));
    assertEquals(2, events.size());
    assertFalse(registry.valid(entity));
    assertFalse(registry.storage(A).contains(entity));
    assertFalse(registry.storage(B).contains(entity));
    assertFalse(registry.storage(TAG).contains(entity));
    assertEquals(1, value.value);
    final long recycled = registry.create();
    assertEquals(Entity.index(entity), Entity.index(recycled));
    assertEquals(Entity.version(entity) + 1, Entity.version(recycled));
    assertTrue(registry.orphan(recycled));
  }

  @Test
  void destroyingABatchDestroysEachEntity() {
    final long[] batch = new long[6];
    registry.create(batch);
    for (final long entity : batch) {
      registry.emplace(entity, A, new Payload(0));
    }
    registry.destroy(batch, 1, 5);
    assertTrue(registry.valid(batch[0]));
    assertTrue(registry.valid(batch[5]));
    assertEquals(2, registry.alive());
    assertEquals(2, registry.storage(A).size());
  }

  @Test
  void aBatchWithAnInvalidEntityDestroysNone() {
    final long[] batch = new long[4];
    registry.create(batch);
    registry.destroy(batch[2]);
    assertThrows(IllegalArgumentException.class, () -> registry.destroy(batch, 0, 4));
    assertTrue(registry.valid(batch[0]));
    assertTrue(registry.valid(batch[1]));
    assertTrue(registry.valid(batch[3]));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.destroy(batch, 3, 5));
    assertTrue(registry.valid(batch[3]));
  }

  @Test
  void anEntityListedTwiceInABatchIsDestroyedOnce() {
    final long[] batch = new long[3];
    registry.create(batch);
    registry.destroy(new long[] {batch[0], batch[1], batch[0]}, 0, 3);
    assertFalse(registry.valid(batch[0]));
    assertFalse(registry.valid(batch[1]));
    assertTrue(registry.valid(batch[2]));
  }

  @Test
  void componentOperationsAgreeWithEachOther() {
    final long entity = registry.create();
    assertTrue(registry.orphan(entity));
    assertNull(registry.tryGet(entity, A));
    assertFalse(registry.has(entity, A));
    final Payload first = registry.emplace(entity, A, new Payload(1));
    assertSame(first, registry.get(entity, A));
    assertSame(first, registry.tryGet(entity, A));
    assertTrue(registry.has(entity, A));
    assertFalse(registry.orphan(entity));
    final Payload second = registry.replace(entity, A, new Payload(2));
    assertSame(second, registry.get(entity, A));
    registry.patch(entity, A, p -> p.value = 20);
    assertEquals(20, second.value);
    final Payload third = registry.emplaceOrReplace(entity, A, new Payload(3));
    assertSame(third, registry.get(entity, A));
    final Payload fourth = registry.emplaceOrReplace(entity, B, new Payload(4));
    assertSame(fourth, registry.get(entity, B));
    assertSame(fourth, registry.getOrEmplace(entity, B, () -> new Payload(5)));
    final Payload sixth = new Payload(6);
    final long other = registry.create();
    assertSame(sixth, registry.getOrEmplace(other, B, () -> sixth));
    assertTrue(registry.allOf(entity, A, B));
    assertTrue(registry.allOf(entity, new ComponentType<?, ?>[] {A, B}));
    assertFalse(registry.allOf(entity, new ComponentType<?, ?>[] {A, B, TAG}));
    assertTrue(registry.anyOf(other, A, B));
    assertFalse(registry.anyOf(other, A, TAG));
    assertFalse(registry.anyOf(other, new ComponentType<?, ?>[] {A, TAG}));
    assertTrue(registry.remove(entity, A));
    assertFalse(registry.remove(entity, A));
    assertFalse(registry.remove(entity, TAG));
    registry.erase(entity, B);
    assertTrue(registry.orphan(entity));
  }

  @Test
  void storagesAreFoundByTypeNameAndClassAndBoundToTheRegistry() {
    assertNull(registry.findStorage(A));
    final ObjectStorage<Payload> storage = registry.storage(A);
    assertSame(storage, registry.storage(A));
    assertSame(storage, registry.findStorage(A));
    assertSame(registry, storage.registry());
    assertSame(registry.storage("registry-test-tag"), registry.storage("registry-test-tag"));
    assertEquals(2, registry.storageCount());
    assertSame(storage, registry.storageAt(0));
    assertThrows(IndexOutOfBoundsException.class, () -> registry.storageAt(2));
    final Registry other = new Registry();
    assertFalse(storage == other.storage(A), "each registry has its own storages");
    final Storage<ContextTest.Gravity> byClass = registry.storage(ContextTest.Gravity.class);
    assertSame(byClass, registry.storage(ComponentType.of(ContextTest.Gravity.class)));
  }

  @Test
  void clearOfOneTypeAndClearOfEverything() {
    final long[] entities = new long[4];
    registry.create(entities);
    for (final long entity : entities) {
      registry.emplace(entity, A, new Payload(0));
      registry.emplace(entity, B, new Payload(0));
    }
    final int[] destroyed = new int[1];
    registry.storage(A).onDestroy().connect((r, e) -> destroyed[0]++);
    registry.clear(A);
    assertEquals(4, destroyed[0]);
    assertEquals(0, registry.storage(A).size());
    assertTrue(registry.has(entities[0], B));
    registry.clear(TAG); // no storage yet: nothing to do
    registry.clear();
    assertEquals(0, registry.alive());
    for (final long entity : entities) {
      assertFalse(registry.valid(entity));
    }
    assertEquals(0, registry.storage(B).size());
    final long recycled = registry.create();
    assertEquals(1, Entity.version(recycled));
  }

  @Test
  void creatingMoreEntitiesThanTheLimitThrowsAndChangesNothing() {
    final Registry limited = new Registry(3);
    final long a = limited.create();
    limited.create();
    limited.create();
    limited.emplace(a, A, new Payload(1));
    final String before = snapshot(limited);
    assertThrows(IllegalStateException.class, limited::create);
    assertThrows(IllegalStateException.class, () -> limited.create(new long[1]));
    assertEquals(before, snapshot(limited));
    limited.destroy(a);
    final long[] two = new long[2];
    final String beforeBulk = snapshot(limited);
    assertThrows(IllegalStateException.class, () -> limited.create(two));
    assertEquals(beforeBulk, snapshot(limited));
    assertArrayEquals(new long[2], two);
    assertThrows(IllegalArgumentException.class, () -> new Registry(0));
  }

  // ---------------------------------------------------------------------------------------------
  // Bad input: every misuse names the entity (and the component where there is one) and changes
  // nothing.
  // ---------------------------------------------------------------------------------------------

  public interface Misuse {
    void apply(Registry registry, long entity);
  }

  static Stream<Arguments> misusesOfAnInvalidHandle() {
    final List<Arguments> all = new ArrayList<>();
    final Payload value = new Payload(9);
    final Object[][] methods = {
      {"destroy", null, (Misuse) (r, e) -> r.destroy(e)},
      {"destroy batch", null, (Misuse) (r, e) -> r.destroy(new long[] {e}, 0, 1)},
      {"orphan", null, (Misuse) (r, e) -> r.orphan(e)},
      {"emplace", A, (Misuse) (r, e) -> r.emplace(e, A, value)},
      {"emplace tag", TAG, (Misuse) (r, e) -> r.storage(TAG).emplace(e)},
      {"emplaceOrReplace", A, (Misuse) (r, e) -> r.emplaceOrReplace(e, A, value)},
      {"replace", A, (Misuse) (r, e) -> r.replace(e, A, value)},
      {"patch", A, (Misuse) (r, e) -> r.patch(e, A, p -> p.value = 0)},
      {"get", A, (Misuse) (r, e) -> r.get(e, A)},
      {"tryGet", A, (Misuse) (r, e) -> r.tryGet(e, A)},
      {"getOrEmplace", B, (Misuse) (r, e) -> r.getOrEmplace(e, B, () -> value)},
      {"remove", A, (Misuse) (r, e) -> r.remove(e, A)},
      {"erase", A, (Misuse) (r, e) -> r.erase(e, A)},
      {"has", A, (Misuse) (r, e) -> r.has(e, A)},
      {"allOf", A, (Misuse) (r, e) -> r.allOf(e, A, B)},
      {"allOf array", null, (Misuse) (r, e) -> r.allOf(e, new ComponentType<?, ?>[] {A})},
      {"anyOf", A, (Misuse) (r, e) -> r.anyOf(e, A, B)},
      {"anyOf array", null, (Misuse) (r, e) -> r.anyOf(e, new ComponentType<?, ?>[] {A})},
    };
    for (final String handle : new String[] {"destroyed", "never created", "null", "tombstone"}) {
      for (final Object[] method : methods) {
        all.add(Arguments.of(handle, method[0], method[1], method[2]));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{1} with a {0} handle")
  @MethodSource("misusesOfAnInvalidHandle")
  void everyMethodRefusesAnInvalidHandleNamingItAndChangesNothing(
      final String handle,
      final String method,
      final ComponentType<?, ?> type,
      final Misuse misuse) {
    final long kept = registry.create();
    final long destroyed = registry.create();
    registry.emplace(kept, A, new Payload(1));
    registry.emplace(kept, B, new Payload(2));
    registry.emplace(destroyed, A, new Payload(3));
    registry.storage(TAG).emplace(kept);
    registry.destroy(destroyed);
    final long bad;
    switch (handle) {
      case "destroyed":
        bad = destroyed;
        break;
      case "never created":
        bad = Entity.of(1000, 0);
        break;
      case "null":
        bad = Entity.NULL;
        break;
      default:
        bad = Entity.of(Entity.index(kept), Entity.TOMBSTONE_VERSION);
        break;
    }
    final String before = snapshot(registry);
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> misuse.apply(registry, bad));
    final String message = error.getMessage();
    assertTrue(message.contains(Entity.toString(bad)), message);
    if (null != type) {
      assertTrue(message.contains(type.name()), message);
    }
    assertEquals(before, snapshot(registry));
    assertTrue(registry.valid(kept));
  }

  static Stream<Arguments> misusesOfAValidHandle() {
    return Stream.of(
        Arguments.of(
            "emplace of an existing component",
            A,
            IllegalArgumentException.class,
            (Misuse) (r, e) -> r.emplace(e, A, new Payload(0))),
        Arguments.of(
            "emplace of an existing tag",
            TAG,
            IllegalArgumentException.class,
            (Misuse) (r, e) -> r.storage(TAG).emplace(e)),
        Arguments.of(
            "erase of a missing component",
            B,
            IllegalArgumentException.class,
            (Misuse) (r, e) -> r.erase(e, B)),
        Arguments.of(
            "get of a missing component",
            B,
            IllegalArgumentException.class,
            (Misuse) (r, e) -> r.get(e, B)),
        Arguments.of(
            "replace of a missing component",
            B,
            IllegalArgumentException.class,
            (Misuse) (r, e) -> r.replace(e, B, new Payload(0))),
        Arguments.of(
            "patch of a missing component",
            B,
            IllegalArgumentException.class,
            (Misuse) (r, e) -> r.patch(e, B, p -> p.value = 0)),
        Arguments.of(
            "emplace of null",
            B,
            NullPointerException.class,
            (Misuse) (r, e) -> r.emplace(e, B, null)),
        Arguments.of(
            "replace with null",
            A,
            NullPointerException.class,
            (Misuse) (r, e) -> r.replace(e, A, null)),
        Arguments.of(
            "emplaceOrReplace with null",
            A,
            NullPointerException.class,
            (Misuse) (r, e) -> r.emplaceOrReplace(e, A, null)),
        Arguments.of(
            "getOrEmplace of a null supplied value",
            B,
            NullPointerException.class,
            (Misuse) (r, e) -> r.getOrEmplace(e, B, () -> null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("misusesOfAValidHandle")
  void everyComponentMisuseNamesEntityAndComponentAndChangesNothing(
      final String what,
      final ComponentType<?, ?> type,
      final Class<? extends Throwable> expected,
      final Misuse misuse) {
    registry.create();
    final long entity = registry.create();
    registry.destroy(entity);
    final long recycled = registry.create(); // version 1: the message must name it
    registry.emplace(recycled, A, new Payload(1));
    registry.storage(TAG).emplace(recycled);
    registry.storage(B);
    final int[] events = new int[1];
    for (int n = 0; n < registry.storageCount(); n++) {
      registry.storageAt(n).onConstruct().connect((r, e) -> events[0]++);
      registry.storageAt(n).onUpdate().connect((r, e) -> events[0]++);
      registry.storageAt(n).onDestroy().connect((r, e) -> events[0]++);
    }
    final String before = snapshot(registry);
    final Throwable error = assertThrows(expected, () -> misuse.apply(registry, recycled));
    assertTrue(error.getMessage().contains("Entity(index=1, version=1)"), error.getMessage());
    assertTrue(error.getMessage().contains(type.name()), error.getMessage());
    assertEquals(before, snapshot(registry));
    assertEquals(0, events[0]);
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void staleHandlesNeverSeeTheRecycledEntitysComponents(final DeletionPolicy policy) {
    final ComponentType<Payload, ObjectStorage<Payload>> type = Fixtures.alpha(policy);
    final long old = registry.create();
    registry.emplace(old, type, new Payload(1));
    registry.destroy(old);
    final long recycled = registry.create();
    registry.emplace(recycled, type, new Payload(2));
    assertEquals(Entity.index(old), Entity.index(recycled));
    assertFalse(registry.valid(old));
    assertFalse(registry.storage(type).contains(old));
    assertNull(registry.storage(type).tryGet(old));
    assertThrows(IllegalArgumentException.class, () -> registry.get(old, type));
    assertEquals(2, registry.get(recycled, type).value);
  }

  @Test
  void versionWrapAroundThroughTheRegistryKeepsStaleHandlesInvalid() {
    registry.entities().restore(new long[] {Entity.of(0, 0xFFFF_FFFE)}, 1, 1);
    final long old = Entity.of(0, 0xFFFF_FFFE);
    registry.emplace(old, A, new Payload(1));
    registry.destroy(old);
    final long wrapped = registry.create();
    assertEquals(Entity.of(0, 0), wrapped);
    assertFalse(registry.valid(old));
    assertFalse(registry.has(wrapped, A));
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> registry.destroy(old));
    assertTrue(error.getMessage().contains("version=4294967294"), error.getMessage());
  }

  @Test
  void allOfAndAnyOfRefuseAnInvalidEntityEvenWithNoTypes() {
    final long entity = registry.create();
    registry.destroy(entity);
    final ComponentType<?, ?>[] none = new ComponentType<?, ?>[0];
    final IllegalArgumentException all =
        assertThrows(IllegalArgumentException.class, () -> registry.allOf(entity, none));
    assertEquals(
        "cannot inspect "
            + Entity.toString(entity)
            + ": the entity is not valid (destroyed or never created)",
        all.getMessage());
    assertThrows(IllegalArgumentException.class, () -> registry.anyOf(entity, none));
    final long live = registry.create();
    registry.storage(TAG).emplace(live);
    assertTrue(registry.anyOf(live, new ComponentType<?, ?>[] {A, TAG}));
    assertFalse(registry.anyOf(live, new ComponentType<?, ?>[] {A, B}));
    assertTrue(registry.allOf(live, none));
  }

  @Test
  void changeTicksStartAtOneAndAdvanceByOne() {
    assertEquals(1, registry.changeTick());
    assertEquals(1, registry.advanceChangeTick());
    assertEquals(2, registry.changeTick());
    assertEquals(2, registry.advanceChangeTick());
    assertEquals(3, registry.changeTick());
  }

  @Test
  void verifyReportsACorruptedEntityStorageAndACorruptedComponentStorage() {
    final long first = registry.create();
    final long second = registry.create();
    registry.storage(TAG).emplace(first);
    assertEquals(List.of(), registry.verify());
    registry.storage(TAG).packed()[0] = second; // behind the storage's back
    final List<String> storageProblems = registry.verify();
    // Both directions are broken: the element is not mapped, the mapping points at a stranger.
    assertEquals(2, storageProblems.size(), storageProblems.toString());
    assertTrue(
        storageProblems.get(0).contains(Entity.toString(second) + " at position 0"),
        storageProblems.toString());
    assertTrue(
        storageProblems
            .get(1)
            .contains(
                "maps index " + Entity.index(first) + " to position 0, which does not hold it"),
        storageProblems.toString());
    registry.storage(TAG).packed()[0] = first;
    registry.entities().packed()[1] = first;
    final List<String> entityProblems = registry.verify();
    assertTrue(
        entityProblems.contains(
            "entity storage: " + Entity.toString(first) + " at position 1 is not indexed there"),
        entityProblems.toString());
  }
}
