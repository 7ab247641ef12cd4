package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Registry rules that only show in corner cases: nesting, clearing, unseen types. */
class RegistryRulesTest {

  private static final AtomicInteger NAMES = new AtomicInteger();

  private final Registry registry = new Registry();

  /** Entities may not be created, one or many, while the registry is being cleared. */
  @Test
  void nothingIsCreatedDuringAClear() {
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    final List<String> refused = new ArrayList<>();
    registry
        .storage(TA)
        .onDestroy()
        .connect(
            (r, entity) -> {
              refused.add(assertThrows(IllegalStateException.class, r::create).getMessage());
              refused.add(
                  assertThrows(IllegalStateException.class, () -> r.create(new long[3]))
                      .getMessage());
            });
    registry.clear();
    assertEquals(2, refused.size());
    assertTrue(refused.get(1).startsWith("cannot create entities: the registry is being cleared"));
    assertEquals(0, registry.alive());
  }

  /** Destroy listeners destroying the next entity, eight deep: every one is destroyed once. */
  @Test
  void deeplyNestedDestroysEachHappenOnce() {
    final long[] chain = new long[8];
    for (int i = 0; i < chain.length; i++) {
      chain[i] = registry.create();
      registry.emplace(chain[i], TA, new A(i));
    }
    final List<Long> destroyed = new ArrayList<>();
    registry
        .storage(TA)
        .onDestroy()
        .connect(
            (r, entity) -> {
              destroyed.add(entity);
              // Destroying itself again is a no-op; the next one nests one level deeper.
              r.destroy(entity);
              final int at = r.get(entity, TA).value();
              if (at + 1 < chain.length) {
                r.destroy(chain[at + 1]);
              }
            });
    registry.destroy(chain[0]);
    assertEquals(chain.length, destroyed.size());
    assertEquals(chain.length, new HashSet<>(destroyed).size());
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  /** Types the registry has never seen have no storage, whatever their id. */
  @Test
  void unseenTypesHaveNoStorageWhateverTheirId() {
    final long e = registry.create();
    registry.storage(ComponentType.named("registry-rules-" + NAMES.incrementAndGet()));
    // Ids are global and sequential: 70 new types cover the sizes the id table may have now.
    for (int i = 0; i < 70; i++) {
      final ComponentType<Void, VoidStorage> type =
          ComponentType.named("registry-rules-" + NAMES.incrementAndGet());
      assertNull(registry.findStorage(type), type.toString());
      assertFalse(registry.has(e, type));
      assertFalse(registry.remove(e, type));
    }
  }

  /** A clear refused because the first storage is iterated changes nothing. */
  @Test
  void aClearRefusedByTheFirstStorageChangesNothing() {
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    registry.emplace(e, TB, new B(0));
    registry
        .view(TA)
        .each(
            entity -> assertThrows(ConcurrentModificationException.class, () -> registry.clear()));
    assertTrue(registry.has(e, TB));
    assertTrue(registry.has(e, TA));
    assertEquals(1, registry.alive());
  }

  /** A clear refused because a group over a storage is iterated changes nothing. */
  @Test
  void aClearRefusedByAnIteratedGroupChangesNothing() {
    final NonOwningGroup group = registry.nonOwningGroup(types(TA), NONE);
    final long e = registry.create();
    registry.emplace(e, TA, new A(0));
    registry.emplace(e, TB, new B(0));
    group.each(
        entity -> assertThrows(ConcurrentModificationException.class, () -> registry.clear()));
    assertTrue(registry.has(e, TB));
    assertTrue(group.contains(e));
    assertEquals(List.of(), registry.verify());
  }

  /** A reactive storage exposes what it collected. */
  @Test
  void aReactiveStorageExposesWhatItCollected() {
    final Reactive reactive =
        Reactive.collect(registry, ComponentType.named("registry-rules-reactive")).onUpdate(TA);
    final long e = registry.create();
    final long f = registry.create();
    registry.emplace(e, TA, new A(0));
    registry.emplace(f, TA, new A(0));
    assertEquals(0, reactive.size());
    registry.replace(e, TA, new A(1));
    assertEquals(1, reactive.size());
    assertTrue(reactive.contains(e));
    assertFalse(reactive.contains(f));
    assertSame(
        registry.storage(ComponentType.named("registry-rules-reactive")), reactive.storage());
    final Set<Long> seen = new HashSet<>();
    reactive.each(seen::add);
    assertEquals(Set.of(e), seen);
  }

  @Test
  void reserveMakesRoomForEntitiesAndRefusesANegativeCount() {
    final Registry registry = new Registry();
    registry.reserve(0);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> registry.reserve(-1));
    assertTrue(refused.getMessage().contains("-1"), refused.getMessage());
    final int room = registry.entities().packed().length + 100;
    registry.reserve(room);
    final long[] packed = registry.entities().packed();
    assertTrue(packed.length >= room, packed.length + " < " + room);
    for (int i = 0; i < room; i++) {
      registry.create();
    }
    assertSame(packed, registry.entities().packed(), "creating the reserved entities grew nothing");
  }

  @Test
  void destroyWithAChosenVersionRefusesAnInvalidEntityNamingTheCall() {
    final Registry registry = new Registry();
    final long dead = registry.create();
    registry.destroy(dead);
    final IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class, () -> registry.destroy(dead, Entity.version(dead) + 2));
    assertTrue(
        refused.getMessage().contains("destroy with a chosen version"), refused.getMessage());
    assertFalse(registry.valid(dead));
  }

  @Test
  void clearAnnouncesEveryEntityOnce() {
    clearAnnouncingEachOnce(
        3,
        (r, e, created, announced) -> {
          if (announced.size() > created.size()) {
            // Announced again: destroying it ends a loop that would not end by itself.
            r.destroy(e);
          }
        });
  }

  /**
   * A destroy listener that destroys other entities during a clear (three at once, which shrinks
   * the live prefix below the next position the clear would announce): each entity is still
   * announced once, and none twice or dead.
   */
  @Test
  void clearAnnouncesEveryEntityOnceWhenAListenerDestroysSeveral() {
    final Registry registry =
        clearAnnouncingEachOnce(
            6,
            (r, e, created, announced) -> {
              if (announced.size() == 1) {
                for (int i = 0; i < 3; i++) {
                  r.destroy(created.get(i));
                }
              }
            });
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  /** What a destroy listener does after recording an announcement, in the clear tests. */
  private interface AfterAnnouncement {
    void accept(Registry registry, long entity, List<Long> created, List<Long> announced);
  }

  /**
   * Clears a registry of {@code count} entities whose destroy listener records each announcement,
   * then runs {@code then}; checks every created entity was announced once. Returns the registry.
   */
  private static Registry clearAnnouncingEachOnce(final int count, final AfterAnnouncement then) {
    final Registry registry = new Registry();
    final List<Long> created = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      created.add(registry.create());
    }
    final List<Long> announced = new ArrayList<>();
    registry
        .onDestroy()
        .connect(
            (r, e) -> {
              announced.add(e);
              then.accept(r, e, created, announced);
            });
    registry.clear();
    assertEquals(new HashSet<>(created), new HashSet<>(announced));
    assertEquals(created.size(), announced.size());
    return registry;
  }

  @Test
  void aBatchDestroyThatWouldBreakAnIterationIsRefusedUnchanged() {
    final Registry registry = new Registry();
    final List<Long> tagged = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(i));
      tagged.add(e);
    }
    final List<Long> visited = new ArrayList<>();
    registry
        .view(TA)
        .each(
            e -> {
              visited.add(e);
              if (visited.size() == 1) {
                // Removing position 0 would move the visited entity there, still to come.
                assertThrows(
                    ConcurrentModificationException.class,
                    () -> registry.destroy(new long[] {tagged.get(0)}, 0, 1));
              }
            });
    assertEquals(4, visited.size());
    assertTrue(registry.valid(tagged.get(0)), "a refused batch changes nothing");
    assertTrue(registry.has(tagged.get(0), TA));
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void aBatchDestroyAnnouncesEveryEntityToTheRegistrysListeners() {
    final Registry registry = new Registry();
    final long[] batch = {registry.create(), registry.create(), registry.create()};
    registry.emplace(batch[1], TA, new A(1));
    final List<Long> announced = new ArrayList<>();
    registry.onDestroy().connect((r, e) -> announced.add(e));
    registry.destroy(batch, 0, batch.length);
    assertEquals(List.of(batch[0], batch[1], batch[2]), announced);
    for (final long e : batch) {
      assertFalse(registry.valid(e));
    }
  }
}
