package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Views, and every rule of what may change during an iteration, in both forms (callback and
 * iterator) and under both deletion policies of the leading pool.
 */
class ViewTest {

  /** The two ways to walk a view. */
  enum Form {
    CALLBACK,
    ITERATOR;

    void walk(final View view, final LongConsumer action) {
      if (CALLBACK == this) {
        view.each(action);
      } else {
        final EntityIterator iterator = view.iterator();
        while (iterator.hasNext()) {
          action.accept(iterator.nextLong());
        }
      }
    }
  }

  private final Registry registry = new Registry();

  private static Set<Long> collect(final Form form, final View view) {
    final Set<Long> seen = new HashSet<>();
    form.walk(
        view, entity -> assertTrue(seen.add(entity), "visited twice: " + Entity.toString(entity)));
    return seen;
  }

  /**
   * Creates {@code count} entities with alpha; every other one also with beta; every third with
   * gamma.
   */
  private long[] populate(final DeletionPolicy policy, final int count) {
    final long[] entities = new long[count];
    for (int i = 0; i < count; i++) {
      entities[i] = registry.create();
      registry.emplace(entities[i], Fixtures.alpha(policy), new Payload(i));
      if (0 == i % 2) {
        registry.emplace(entities[i], Fixtures.beta(policy), new Payload(i));
      }
      if (0 == i % 3) {
        registry.emplace(entities[i], Fixtures.gamma(policy), new Payload(i));
      }
    }
    return entities;
  }

  private Set<Long> expected(final long[] entities, final java.util.function.LongPredicate keep) {
    final Set<Long> result = new HashSet<>();
    for (final long entity : entities) {
      if (registry.valid(entity) && keep.test(entity)) {
        result.add(entity);
      }
    }
    return result;
  }

  @ParameterizedTest
  @EnumSource(Form.class)
  void aViewVisitsEntitiesThatHaveEveryIncludedTypeAndNoExcludedOne(final Form form) {
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      final long[] entities = populate(policy, 60);
      final ComponentType<Payload, ObjectStorage<Payload>> a = Fixtures.alpha(policy);
      final ComponentType<Payload, ObjectStorage<Payload>> b = Fixtures.beta(policy);
      final ComponentType<Payload, ObjectStorage<Payload>> c = Fixtures.gamma(policy);
      registry.remove(entities[6], b);
      assertEquals(expected(entities, e -> registry.has(e, a)), collect(form, registry.view(a)));
      assertEquals(
          expected(entities, e -> registry.allOf(e, a, b)), collect(form, registry.view(a, b)));
      assertEquals(
          expected(entities, e -> registry.allOf(e, new ComponentType<?, ?>[] {a, b, c})),
          collect(form, registry.view(a, b, c)));
      final Set<Long> onlyAB =
          expected(entities, e -> registry.allOf(e, a, b) && !registry.has(e, c));
      assertEquals(
          onlyAB,
          collect(
              form,
              registry.view(new ComponentType<?, ?>[] {a, b}, new ComponentType<?, ?>[] {c})));
      assertEquals(onlyAB, collect(form, registry.view(a, b).exclude(registry.storage(c))));
      assertEquals(20, onlyAB.size());
      for (final long entity : entities) {
        assertEquals(
            onlyAB.contains(entity),
            registry.view(a, b).exclude(registry.storage(c)).contains(entity));
      }
      registry.clear();
    }
  }

  @Test
  void theSmallestIncludedSetLeadsUnlessTheUserChooses() {
    populate(DeletionPolicy.SWAP_AND_POP, 30);
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> c = registry.storage(Fixtures.gamma(DeletionPolicy.SWAP_AND_POP));
    final View view = View.of(a, b, c);
    assertSame(c, view.leader());
    assertEquals(c.size(), view.sizeHint());
    final View ledByA = view.leadBy(a);
    assertSame(a, ledByA.leader());
    assertEquals(30, ledByA.sizeHint());
    final List<Long> order = new ArrayList<>();
    ledByA.each(order::add);
    final List<Long> expected = new ArrayList<>();
    for (int position = a.size() - 1; position >= 0; position--) {
      final long entity = a.packed()[position];
      if (b.contains(entity) && c.contains(entity)) {
        expected.add(entity);
      }
    }
    assertEquals(expected, order, "a view walks its leader from the last position to the first");
    assertSame(
        a, ledByA.exclude(registry.storage("nothing")).leader(), "exclude keeps the chosen leader");
    // The leader is chosen when the iteration starts: it follows the sizes.
    for (int i = 0; i < 40; i++) {
      final long entity = registry.create();
      c.emplace(entity, new Payload(i));
    }
    assertSame(b, view.leader());
  }

  @Test
  void aViewListsItsSetsInTheOrderGiven() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> c = registry.storage(Fixtures.gamma(DeletionPolicy.SWAP_AND_POP));
    final VoidStorage d = registry.storage("d");
    final View view = View.of(b, a).exclude(c).exclude(d).leadBy(a);
    assertEquals(2, view.includeCount());
    assertSame(b, view.include(0));
    assertSame(a, view.include(1));
    assertEquals(2, view.excludeCount());
    assertSame(c, view.exclude(0));
    assertSame(d, view.exclude(1));
    assertEquals(0, View.of(c).excludeCount());
    assertThrows(IndexOutOfBoundsException.class, () -> view.include(2));
  }

  @Test
  void malformedViewsAreRefused() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    assertThrows(IllegalArgumentException.class, () -> View.of(new SparseSet[0], new SparseSet[0]));
    final IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () -> View.of(new SparseSet[] {a}, new SparseSet[] {a}));
    assertTrue(both.getMessage().contains("AlphaSwap"), both.getMessage());
    assertThrows(IllegalArgumentException.class, () -> View.of(a).exclude(a));
    final IllegalArgumentException lead =
        assertThrows(IllegalArgumentException.class, () -> View.of(a).leadBy(b));
    assertTrue(lead.getMessage().contains("BetaSwap"), lead.getMessage());
  }

  @Test
  void anIteratorEndsWithNoSuchElement() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    a.emplace(registry.create(), new Payload(0));
    final EntityIterator iterator = View.of(a).iterator();
    assertTrue(iterator.hasNext());
    iterator.nextLong();
    assertFalse(iterator.hasNext());
    assertThrows(java.util.NoSuchElementException.class, iterator::nextLong);
  }

  // ---------------------------------------------------------------------------------------------
  // What may change during an iteration.
  // ---------------------------------------------------------------------------------------------

  @ParameterizedTest
  @EnumSource(Form.class)
  void addingEntitiesAndComponentsDuringAnIterationIsSafeAndNewOnesAreNotVisited(final Form form) {
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      final long[] entities = populate(policy, 100);
      final ComponentType<Payload, ObjectStorage<Payload>> a = Fixtures.alpha(policy);
      final ComponentType<Payload, ObjectStorage<Payload>> b = Fixtures.beta(policy);
      final Set<Long> before = expected(entities, e -> registry.allOf(e, a, b));
      final Set<Long> added = new HashSet<>();
      final Set<Long> seen = new HashSet<>();
      form.walk(
          registry.view(a, b),
          entity -> {
            assertTrue(seen.add(entity));
            for (int i = 0; i < 3; i++) {
              final long fresh = registry.create();
              registry.emplace(fresh, a, new Payload(-1));
              registry.emplace(fresh, b, new Payload(-1));
              added.add(fresh);
            }
            // Entities that had alpha only gain beta: they join the view but are not visited.
            for (final long other : entities) {
              if (registry.valid(other) && !registry.has(other, b)) {
                registry.emplace(other, b, new Payload(-2));
                added.add(other);
                break;
              }
            }
          });
      assertEquals(before, seen, policy.toString());
      registry.clear();
    }
  }

  /**
   * The one exception to "new elements are not visited": a single insertion into an in-place set
   * reuses its most recent hole, which may lie ahead of the iteration (EnTT behaves alike). Every
   * element that was there when the iteration began is still visited exactly once, and the only
   * extra visits are of elements that landed in a hole not reached yet.
   */
  @ParameterizedTest
  @EnumSource(Form.class)
  void componentsAddedIntoHolesOfAnInPlaceLeaderMayBeVisitedButNothingIsSkippedOrRepeated(
      final Form form) {
    final DeletionPolicy policy = DeletionPolicy.IN_PLACE;
    final long[] entities = populate(policy, 100);
    final ComponentType<Payload, ObjectStorage<Payload>> a = Fixtures.alpha(policy);
    final ObjectStorage<Payload> storage = registry.storage(a);
    for (int i = 0; i < 10; i++) {
      registry.remove(entities[i], a);
    }
    final Set<Long> before = expected(entities, e -> registry.has(e, a));
    final Set<Long> inHoles = new HashSet<>();
    final Set<Long> seen = new HashSet<>();
    form.walk(
        registry.view(a),
        entity -> {
          assertTrue(seen.add(entity), "visited twice: " + Entity.toString(entity));
          final long fresh = registry.create();
          registry.emplace(fresh, a, new Payload(-1));
          if (storage.index(fresh) < storage.index(entity)) {
            inHoles.add(fresh);
          }
        });
    assertTrue(seen.containsAll(before), "an element present at the start was skipped");
    final Set<Long> extra = new HashSet<>(seen);
    extra.removeAll(before);
    assertEquals(
        inHoles, extra, "only elements placed in holes ahead of the iteration may be visited");
    assertEquals(10, extra.size());
  }

  @ParameterizedTest
  @EnumSource(Form.class)
  void changingOrRemovingTheVisitedEntitysComponentsNeitherSkipsNorRepeats(final Form form) {
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      final long[] entities = populate(policy, 200);
      final ComponentType<Payload, ObjectStorage<Payload>> a = Fixtures.alpha(policy);
      final ComponentType<Payload, ObjectStorage<Payload>> b = Fixtures.beta(policy);
      final Set<Long> before = expected(entities, e -> registry.allOf(e, a, b));
      final int[] counter = new int[1];
      final Set<Long> seen =
          collectWhile(
              form,
              registry.view(a, b),
              entity -> {
                switch (counter[0]++ % 5) {
                  case 0:
                    registry.replace(entity, a, new Payload(7));
                    break;
                  case 1:
                    registry.patch(entity, b, p -> p.value++);
                    break;
                  case 2:
                    registry.erase(entity, a);
                    break;
                  case 3:
                    registry.remove(entity, b);
                    break;
                  default:
                    registry.destroy(entity);
                    break;
                }
              });
      assertEquals(before, seen, policy.toString());
      registry.clear();
    }
  }

  @ParameterizedTest
  @EnumSource(Form.class)
  void destroyingEveryVisitedEntityEmptiesTheView(final Form form) {
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      final long[] entities = populate(policy, 100);
      final ComponentType<Payload, ObjectStorage<Payload>> a = Fixtures.alpha(policy);
      final Set<Long> before = expected(entities, e -> registry.has(e, a));
      assertEquals(before, collectWhile(form, registry.view(a), registry::destroy));
      assertEquals(0, registry.alive());
      registry.clear();
    }
  }

  private static Set<Long> collectWhile(
      final Form form, final View view, final LongConsumer action) {
    final Set<Long> seen = new HashSet<>();
    form.walk(
        view,
        entity -> {
          assertTrue(seen.add(entity), "visited twice: " + Entity.toString(entity));
          action.accept(entity);
        });
    return seen;
  }

  @ParameterizedTest
  @EnumSource(Form.class)
  void removingAnotherEntitysComponentFromASwapAndPopLeaderThrows(final Form form) {
    final long[] entities = populate(DeletionPolicy.SWAP_AND_POP, 20);
    final ComponentType<Payload, ObjectStorage<Payload>> a =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    final View view = registry.view(a);
    final ConcurrentModificationException error =
        assertThrows(
            ConcurrentModificationException.class,
            () ->
                form.walk(
                    view,
                    entity -> {
                      final long other = entities[0] == entity ? entities[1] : entities[0];
                      if (registry.has(other, a)) {
                        registry.remove(other, a);
                      }
                    }));
    assertTrue(error.getMessage().contains("AlphaSwap"), error.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Form.class)
  void destroyingAnotherEntityFromASwapAndPopLeaderThrows(final Form form) {
    final long[] entities = populate(DeletionPolicy.SWAP_AND_POP, 20);
    final ComponentType<Payload, ObjectStorage<Payload>> a =
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            form.walk(
                registry.view(a),
                entity -> {
                  final long other = entities[0] == entity ? entities[1] : entities[0];
                  if (registry.valid(other)) {
                    registry.destroy(other);
                  }
                }));
  }

  @ParameterizedTest
  @EnumSource(Form.class)
  void removingOtherEntitiesFromAnInPlaceLeaderIsFineAndTheyAreNotVisitedLater(final Form form) {
    final long[] entities = populate(DeletionPolicy.IN_PLACE, 100);
    final ComponentType<Payload, ObjectStorage<Payload>> a =
        Fixtures.alpha(DeletionPolicy.IN_PLACE);
    final ObjectStorage<Payload> storage = registry.storage(a);
    final Set<Long> removedBeforeVisit = new HashSet<>();
    final Set<Long> seen =
        collectWhile(
            form,
            registry.view(a),
            entity -> {
              // Remove the element two positions ahead (not yet visited), and the visited one's
              // neighbour behind.
              final int position = storage.index(entity);
              if (position >= 2 && !Entity.isTombstone(storage.packed()[position - 2])) {
                final long ahead = storage.packed()[position - 2];
                registry.remove(ahead, a);
                removedBeforeVisit.add(ahead);
              }
              if (position + 1 < storage.size()
                  && !Entity.isTombstone(storage.packed()[position + 1])) {
                registry.destroy(storage.packed()[position + 1]);
              }
            });
    assertFalse(removedBeforeVisit.isEmpty());
    for (final long entity : removedBeforeVisit) {
      assertFalse(seen.contains(entity), "visited after its removal: " + Entity.toString(entity));
    }
    assertEquals(100, seen.size() + removedBeforeVisit.size());
  }

  enum Disruption {
    SORT,
    SORT_BY_POSITION,
    INSERTION_SORT,
    SORT_AS,
    COMPACT,
    CLEAR
  }

  @ParameterizedTest
  @EnumSource(Disruption.class)
  void sortingCompactingOrClearingTheLeaderDuringAnIterationThrows(final Disruption disruption) {
    for (final DeletionPolicy policy :
        new DeletionPolicy[] {DeletionPolicy.SWAP_AND_POP, DeletionPolicy.IN_PLACE}) {
      for (final Form form : Form.values()) {
        final long[] entities = populate(policy, 30);
        final ComponentType<Payload, ObjectStorage<Payload>> a = Fixtures.alpha(policy);
        final ObjectStorage<Payload> storage = registry.storage(a);
        final ObjectStorage<Payload> other = registry.storage(Fixtures.gamma(policy));
        if (DeletionPolicy.SWAP_AND_POP == policy && Disruption.COMPACT == disruption) {
          continue; // compact of a set without holes changes nothing
        }
        final boolean[] done = {false};
        assertThrows(
            ConcurrentModificationException.class,
            () ->
                form.walk(
                    registry.view(a),
                    entity -> {
                      if (done[0]) {
                        return;
                      }
                      done[0] = true;
                      switch (disruption) {
                        case SORT:
                          storage.sort((x, y) -> Long.compare(x, y));
                          break;
                        case SORT_BY_POSITION:
                          storage.sortByPosition((x, y) -> Integer.compare(y, x));
                          break;
                        case INSERTION_SORT:
                          storage.insertionSortByPosition((x, y) -> Integer.compare(y, x));
                          break;
                        case SORT_AS:
                          storage.sortAs(other);
                          break;
                        case COMPACT:
                          registry.remove(entities[0] == entity ? entities[1] : entities[0], a);
                          storage.compact();
                          break;
                        default:
                          storage.clear();
                          break;
                      }
                    }),
            policy + " " + form);
        registry.clear();
        storage.compact();
      }
    }
  }
}
