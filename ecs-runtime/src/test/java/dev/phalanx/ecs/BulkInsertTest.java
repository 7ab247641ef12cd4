package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@code storage.insert(entities, from, to, value)} (EnTT's {@code insert(first, last, value)}) is
 * one change: checked whole before anything changes, then every element in, every group up to date,
 * then every listener told, entity by entity in range order. Seeded twins against the same entities
 * emplaced one by one, with and without listeners and groups; refusals that change nothing;
 * listeners that throw at every call in turn.
 */
class BulkInsertTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  /** What a world is observed by, built the same way in both twins. */
  private enum Setup {
    NOTHING,
    LISTENER,
    DIRECT_GROUP,
    PLANNED_GROUP,
    NON_OWNING_GROUP
  }

  private static List<String> prepare(final Registry registry, final Setup setup) {
    final List<String> events = new ArrayList<>();
    switch (setup) {
      case NOTHING -> {}
      case LISTENER ->
          registry.storage(A).onConstruct().connect((r, e) -> events.add("construct " + e));
      case DIRECT_GROUP -> registry.owningGroup(A, B);
      case PLANNED_GROUP ->
          registry.owningGroup(A, B).onEnter().connect((r, e) -> events.add("enter " + e));
      case NON_OWNING_GROUP ->
          registry
              .nonOwningGroup(new ComponentType<?, ?>[] {A, B}, new ComponentType<?, ?>[] {})
              .onEnter()
              .connect((r, e) -> events.add("enter " + e));
    }
    registry.storage(A).onConstruct().connect((r, e) -> events.add("A " + e));
    return events;
  }

  @Test
  void aBulkInsertLeavesWhatEmplacingOneByOneLeaves() {
    for (final Setup setup : Setup.values()) {
      for (int seed = 0; seed < 20; seed++) {
        final Registry bulk = new Registry();
        final Registry single = new Registry();
        final List<String> bulkEvents = prepare(bulk, setup);
        final List<String> singleEvents = prepare(single, setup);
        final Random random = new Random(seed);
        final int n = 50 + random.nextInt(100);
        final long[] entities = new long[n];
        bulk.create(entities);
        final long[] twins = new long[n];
        single.create(twins);
        // Some entities get B first, so that inserting A makes them enter the groups.
        for (int i = 0; i < n; i++) {
          if (random.nextInt(3) == 0) {
            bulk.emplace(entities[i], B, new Payload(-i));
            single.emplace(twins[i], B, new Payload(-i));
          }
        }
        int from = 0;
        while (from < n) {
          // A range of 0 to 19 entities; an empty one inserts nothing.
          final int to = Math.min(n, from + random.nextInt(20));
          final Payload value = new Payload(from);
          bulk.storage(A).insert(entities, from, to, value);
          for (int i = from; i < to; i++) {
            single.emplace(twins[i], A, value);
          }
          if (to == from) {
            bulk.emplace(entities[from], A, value);
            single.emplace(twins[from], A, value);
            from++;
          } else {
            from = to;
          }
        }
        final String where = setup + ", seed " + seed;
        assertEquals(RegistryTest.snapshot(single), RegistryTest.snapshot(bulk), where);
        assertEquals(singleEvents, bulkEvents, where);
        assertEquals(List.of(), bulk.verify(), where);
      }
    }
  }

  /** A refused insertion and its expected message fragment. */
  private record Refusal(
      String name, BiConsumer<Registry, long[]> attempt, Class<?> thrown, String words) {}

  /**
   * A bulk insert made by a group's enter listener, while that entry is still being announced,
   * announces its own entries, entity by entity, and the outer one is announced once.
   */
  @Test
  void aBulkInsertFromAGroupListenerAnnouncesItsOwnEntries() {
    final Registry registry = new Registry();
    final long first = registry.create();
    final long[] others = new long[3];
    registry.create(others);
    final List<String> events = new ArrayList<>();
    registry
        .nonOwningGroup(new ComponentType<?, ?>[] {A}, new ComponentType<?, ?>[] {})
        .onEnter()
        .connect(
            (r, e) -> {
              events.add("enter A " + e);
              r.storage(B).insert(others, 0, others.length, new Payload(1));
            });
    registry
        .nonOwningGroup(new ComponentType<?, ?>[] {B}, new ComponentType<?, ?>[] {})
        .onEnter()
        .connect((r, e) -> events.add("enter B " + e));
    registry.emplace(first, A, new Payload(0));
    assertEquals(
        List.of(
            "enter A " + first,
            "enter B " + others[0],
            "enter B " + others[1],
            "enter B " + others[2]),
        events);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRefusedBulkInsertChangesNothing() {
    final List<Refusal> refusals =
        List.of(
            new Refusal(
                "listed twice",
                (r, e) -> r.storage(A).insert(new long[] {e[1], e[2], e[1]}, 0, 3, new Payload(0)),
                IllegalArgumentException.class,
                "listed twice"),
            new Refusal(
                "already has it",
                (r, e) -> r.storage(A).insert(new long[] {e[3], e[0], e[4]}, 0, 3, new Payload(0)),
                IllegalArgumentException.class,
                "already"),
            new Refusal(
                "not valid",
                (r, e) ->
                    r.storage(A)
                        .insert(new long[] {e[3], Entity.of((int) e[4], 7)}, 0, 2, new Payload(0)),
                IllegalArgumentException.class,
                "not valid"),
            new Refusal(
                "range out of bounds",
                (r, e) -> r.storage(A).insert(new long[] {e[3], e[4]}, 1, 3, new Payload(0)),
                IndexOutOfBoundsException.class,
                ""),
            new Refusal(
                "locked",
                (r, e) -> {
                  CoreTestAccess.lock(r.storage(A), "a test");
                  try {
                    r.storage(A).insert(new long[] {e[3], e[4]}, 0, 2, new Payload(0));
                  } finally {
                    CoreTestAccess.unlock(r.storage(A));
                  }
                },
                ConcurrentModificationException.class,
                ""),
            new Refusal(
                "groups observe it during an iteration",
                (r, e) -> {
                  r.owningGroup(A, B);
                  r.view(B)
                      .each(
                          x -> r.storage(A).insert(new long[] {e[3], e[4]}, 0, 2, new Payload(0)));
                },
                ConcurrentModificationException.class,
                "one by one"));
    for (final Refusal refusal : refusals) {
      final Registry registry = new Registry();
      final long[] entities = new long[6];
      registry.create(entities);
      registry.emplace(entities[0], A, new Payload(0));
      registry.emplace(entities[5], B, new Payload(5));
      final String before = RegistryTest.snapshot(registry);
      final Throwable thrown =
          assertThrows(
              Throwable.class, () -> refusal.attempt().accept(registry, entities), refusal.name());
      assertTrue(refusal.thrown().isInstance(thrown), refusal.name() + ": " + thrown);
      assertTrue(
          String.valueOf(thrown.getMessage()).contains(refusal.words()),
          refusal.name() + ": " + thrown.getMessage());
      if (!refusal.name().startsWith("groups")) {
        assertEquals(before, RegistryTest.snapshot(registry), refusal.name());
      }
      assertFalse(registry.storage(A).contains(entities[3]), refusal.name());
      assertEquals(List.of(), registry.verify(), refusal.name());
    }
  }

  @Test
  void aListenerThatThrowsStopsNoInsertionAndNoOtherListener() {
    final int n = 8;
    for (final boolean grouped : new boolean[] {false, true}) {
      for (int k = 1; k <= n + 1; k++) {
        final Registry registry = new Registry();
        final long[] entities = new long[n];
        registry.create(entities);
        final int throwAt = k;
        final int[] calls = {0};
        final List<Long> second = new ArrayList<>();
        final List<Long> entered = new ArrayList<>();
        final ObjectStorage<Payload> storage = registry.storage(A);
        storage
            .onConstruct()
            .connect(
                (r, e) -> {
                  if (++calls[0] == throwAt) {
                    throw new IllegalStateException("listener " + throwAt);
                  }
                });
        storage.onConstruct().connect((r, e) -> second.add(e));
        if (grouped) {
          // Entries are then pending until every element is in, and published in range order.
          registry.owningGroup(A).onEnter().connect((r, e) -> entered.add(e));
        }
        final Payload value = new Payload(1);
        final RuntimeException thrown = insertCatching(storage, entities, value);
        final String where = (grouped ? "grouped" : "plain") + ", k = " + k;
        assertEquals(n, calls[0], where);
        if (throwAt <= n) {
          assertEquals("listener " + throwAt, thrown.getMessage(), where);
        } else {
          assertEquals(null, thrown, where);
        }
        final List<Long> all = new ArrayList<>();
        for (final long e : entities) {
          all.add(e);
          assertTrue(value == storage.get(e), where);
        }
        assertEquals(all, second, where);
        assertEquals(grouped ? all : List.of(), entered, where);
        assertEquals(List.of(), registry.verify(), where);
      }
    }
  }

  private static RuntimeException insertCatching(
      final ObjectStorage<Payload> storage, final long[] entities, final Payload value) {
    try {
      storage.insert(entities, 0, entities.length, value);
      return null;
    } catch (final RuntimeException thrown) {
      return thrown;
    }
  }

  @Test
  void aBulkInsertIsSilentOnlyWhenNothingListensOrIteratesWithGroups() {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> a = registry.storage(A);
    assertTrue(a.bulkSilent());
    final ComponentListener listener = (r, e) -> {};
    a.onConstruct().connect(listener);
    assertFalse(a.bulkSilent());
    a.onConstruct().disconnect(listener);
    assertTrue(a.bulkSilent());
    final OwningGroup group = registry.owningGroup(A);
    assertTrue(a.bulkSilent());
    group.onEnter().connect(listener);
    assertFalse(a.bulkSilent());
    group.onEnter().disconnect(listener);
    group.onLeave().connect(listener);
    assertFalse(a.bulkSilent());
    group.onLeave().disconnect(listener);
    // An exclusion counts as well.
    final NonOwningGroup without =
        registry.nonOwningGroup(new ComponentType<?, ?>[] {B}, new ComponentType<?, ?>[] {A});
    assertTrue(a.bulkSilent());
    without.onEnter().connect(listener);
    assertFalse(a.bulkSilent());
    without.onEnter().disconnect(listener);
    without.onLeave().connect(listener);
    assertFalse(a.bulkSilent());
    without.onLeave().disconnect(listener);
    assertTrue(a.bulkSilent());
    // Groups observe it and something iterates: not silent.
    final long e = registry.create();
    registry.emplace(e, B, new Payload(1));
    final boolean[] during = {true};
    registry.view(B).each(x -> during[0] = a.bulkSilent());
    assertFalse(during[0]);
    // Without groups, an iteration does not matter.
    final Registry plain = new Registry();
    final ObjectStorage<Payload> p = plain.storage(A);
    final long f = plain.create();
    plain.emplace(f, B, new Payload(1));
    plain.view(B).each(x -> during[0] = p.bulkSilent());
    assertTrue(during[0]);
  }
}
