package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RuntimeViewTest {

  private final Registry registry = new Registry();

  private static Set<Long> viaEach(final RuntimeView view) {
    final Set<Long> seen = new HashSet<>();
    view.each(entity -> assertTrue(seen.add(entity)));
    return seen;
  }

  private static Set<Long> viaIterator(final RuntimeView view) {
    final Set<Long> seen = new HashSet<>();
    final EntityIterator iterator = view.iterator();
    while (iterator.hasNext()) {
      assertTrue(seen.add(iterator.nextLong()));
    }
    return seen;
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void storagesChosenAtRunTimeIncludingNamedVoidOnesFilterLikeAView(final DeletionPolicy policy) {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(policy));
    final VoidStorage selected = registry.storage("runtime-selected");
    final VoidStorage hidden = registry.storage("runtime-hidden");
    final Set<Long> expected = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      final long entity = registry.create();
      a.emplace(entity, new Payload(i));
      if (0 == i % 2) {
        selected.emplace(entity);
      }
      if (0 == i % 5) {
        hidden.emplace(entity);
      }
      if (0 == i % 2 && 0 != i % 5) {
        expected.add(entity);
      }
    }
    final RuntimeView view = new RuntimeView().iterate(a).iterate(selected).exclude(hidden);
    assertEquals(expected, viaEach(view));
    assertEquals(expected, viaIterator(view));
    assertEquals(selected.size(), view.sizeHint());
    for (final long entity : expected) {
      assertTrue(view.contains(entity));
    }
    assertEquals(20, expected.size());
  }

  @Test
  void anEmptyRuntimeViewVisitsNothing() {
    registry
        .storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP))
        .emplace(registry.create(), new Payload(0));
    final RuntimeView view = new RuntimeView();
    assertEquals(0, view.sizeHint());
    assertTrue(viaEach(view).isEmpty());
    assertTrue(viaIterator(view).isEmpty());
    assertFalse(view.contains(0));
    final RuntimeView onlyExcluded =
        new RuntimeView().exclude(registry.storage("nothing-included"));
    assertTrue(viaEach(onlyExcluded).isEmpty());
  }

  @Test
  void nullSetsAreRefused() {
    assertThrows(NullPointerException.class, () -> new RuntimeView().iterate(null));
    assertThrows(NullPointerException.class, () -> new RuntimeView().exclude(null));
  }

  @Test
  void theSmallestIncludedSetLeadsAndIsCheckedForConcurrentRemoval() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final VoidStorage few = registry.storage("runtime-few");
    final long[] entities = new long[10];
    for (int i = 0; i < 10; i++) {
      entities[i] = registry.create();
      a.emplace(entities[i], new Payload(i));
      if (i < 3) {
        few.emplace(entities[i]);
      }
    }
    final RuntimeView view = new RuntimeView().iterate(a).iterate(few);
    assertEquals(3, view.sizeHint());
    // Removing another entity from 'few' (the leader) is detected; from 'a' it is not the leader.
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            view.each(
                entity -> {
                  final long other = entities[0] == entity ? entities[1] : entities[0];
                  few.remove(other);
                }));
  }

  /**
   * The positions form against a reference model: random emplaces, removals and destroys over
   * storages of both deletion policies (so sets fall out of step and holes appear), then each pass
   * must visit exactly the entities the model says match, once each, with every position equal to
   * that set's {@code indexOf}.
   */
  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void thePositionsFormVisitsWhatTheModelMatchesWithEachSetsPosition(final DeletionPolicy policy) {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(policy));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final VoidStorage c = registry.storage("runtime-c");
    final VoidStorage out = registry.storage("runtime-out");
    final SparseSet[] included = {a, b, c, a};
    final RuntimeView view =
        new RuntimeView().iterate(a).iterate(b).iterate(c).iterate(a).exclude(out);
    final Random random = new Random(33);
    final List<Long> live = new ArrayList<>();
    for (int round = 0; round < 40; round++) {
      for (int op = 0; op < 50; op++) {
        final int choice = random.nextInt(10);
        if (choice < 3 || live.isEmpty()) {
          final long entity = registry.create();
          live.add(entity);
          a.emplace(entity, new Payload(op));
          b.emplace(entity, new Payload(op));
          c.emplace(entity);
          continue;
        }
        final long entity = live.get(random.nextInt(live.size()));
        switch (choice) {
          case 3 -> a.remove(entity);
          case 4 -> b.remove(entity);
          case 5 -> c.remove(entity);
          case 6 -> {
            if (!out.contains(entity)) {
              out.emplace(entity);
            } else {
              out.remove(entity);
            }
          }
          case 7 -> {
            registry.destroy(entity);
            live.remove(entity);
          }
          default -> {
            if (!a.contains(entity)) {
              a.emplace(entity, new Payload(op));
            }
            if (!b.contains(entity)) {
              b.emplace(entity, new Payload(op));
            }
          }
        }
      }
      final Set<Long> expected = new HashSet<>();
      for (final long entity : live) {
        if (a.contains(entity)
            && b.contains(entity)
            && c.contains(entity)
            && !out.contains(entity)) {
          expected.add(entity);
        }
      }
      final Map<Long, int[]> seen = new HashMap<>();
      view.each(
          (long entity, int[] positions) -> {
            assertEquals(included.length, positions.length);
            assertTrue(null == seen.put(entity, positions.clone()), "visited twice");
          });
      assertEquals(expected, seen.keySet());
      for (final Map.Entry<Long, int[]> visit : seen.entrySet()) {
        for (int i = 0; i < included.length; i++) {
          assertEquals(included[i].indexOf(visit.getKey()), visit.getValue()[i]);
        }
      }
      assertEquals(expected, viaEach(view));
      assertTrue(registry.verify().isEmpty());
    }
  }

  @Test
  void aNestedPositionsPassGetsItsOwnArrayAndTheOuterOneStaysRight() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final VoidStorage b = registry.storage("runtime-nested");
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      final long entity = registry.create();
      entities.add(entity);
      a.emplace(entity, new Payload(i));
      if (0 == i % 2) {
        b.emplace(entity);
      }
    }
    final RuntimeView view = new RuntimeView().iterate(a).iterate(b);
    final int[] inner = new int[1];
    view.each(
        (long entity, int[] outer) -> {
          final int before0 = outer[0];
          final int before1 = outer[1];
          view.each((long other, int[] positions) -> inner[0]++);
          assertEquals(a.indexOf(entity), before0);
          assertEquals(b.indexOf(entity), before1);
          assertEquals(before0, outer[0]);
          assertEquals(before1, outer[1]);
        });
    assertEquals(16, inner[0]);
  }

  @Test
  void thePositionsFormIsGuardedAsTheEntityForm() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final VoidStorage few = registry.storage("runtime-guarded");
    final long[] entities = new long[10];
    for (int i = 0; i < 10; i++) {
      entities[i] = registry.create();
      a.emplace(entities[i], new Payload(i));
      if (i < 3) {
        few.emplace(entities[i]);
      }
    }
    final RuntimeView view = new RuntimeView().iterate(a).iterate(few);
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            view.each(
                (long entity, int[] positions) ->
                    few.remove(entities[0] == entity ? entities[1] : entities[0])));
    // Destroying the visited entity is allowed; the pass goes on with the others.
    final List<Long> visited = new ArrayList<>();
    view.each(
        (long entity, int[] positions) -> {
          visited.add(entity);
          registry.destroy(entity);
        });
    assertEquals(3, visited.size());
    assertEquals(0, few.size());
    assertTrue(registry.verify().isEmpty());
    assertTrue(new RuntimeView().exclude(few).sizeHint() == 0);
    new RuntimeView().each((long entity, int[] positions) -> visited.add(entity));
    assertEquals(3, visited.size());
  }

  /**
   * A body that removes a component of an entity not yet visited keeps that entity out, in both
   * forms: the entity form tests each entity when it reaches it; the positions form walks sets
   * filled in the same order untested, and the removal (which moves another element) sends it back
   * to testing each set.
   */
  @Test
  void aRemovalByTheBodyEndsTheUntestedWalkOfAlignedSets() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final long[] entities = new long[10];
    for (int i = 0; i < 10; i++) {
      entities[i] = registry.create();
      a.emplace(entities[i], new Payload(i));
      b.emplace(entities[i], new Payload(i));
    }
    final RuntimeView view = new RuntimeView().iterate(a).iterate(b);
    final List<Long> visited = new ArrayList<>();
    view.each(
        (long entity) -> {
          visited.add(entity);
          final int i = (int) entity;
          if (0 == i % 2 && i > 0) {
            b.remove(entities[i - 1]);
          }
        });
    assertEquals(List.of(9L, 8L, 6L, 4L, 2L, 0L), visited);
    a.clear();
    b.clear();
    for (int i = 0; i < 10; i++) {
      a.emplace(entities[i], new Payload(i));
      b.emplace(entities[i], new Payload(i));
    }
    visited.clear();
    view.each(
        (long entity, int[] positions) -> {
          assertEquals(a.indexOf(entity), positions[0]);
          assertEquals(b.indexOf(entity), positions[1]);
          visited.add(entity);
          final int i = (int) entity;
          if (1 == i % 2) {
            b.remove(entities[i - 1]);
          }
        });
    assertEquals(List.of(9L, 7L, 5L, 3L, 1L), visited);
    assertTrue(registry.verify().isEmpty());
  }

  /** Visits of the positions form: each entity with a copy of its positions. */
  private static Map<Long, List<Integer>> positions(final RuntimeView view) {
    final Map<Long, List<Integer>> seen = new HashMap<>();
    view.each(
        (long entity, int[] at) -> {
          final List<Integer> copy = new ArrayList<>();
          for (final int position : at) {
            copy.add(position);
          }
          assertTrue(null == seen.put(entity, copy), "visited twice");
        });
    return seen;
  }

  /**
   * The positions form skips the holes of an in-place leader, also where the leader is the only
   * included set (always aligned with itself).
   */
  @Test
  void thePositionsFormSkipsTheHolesOfAnInPlaceLeader() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.IN_PLACE));
    final long[] entities = new long[5];
    registry.create(entities);
    for (int i = 0; i < entities.length; i++) {
      a.emplace(entities[i], new Payload(i));
    }
    a.remove(entities[1]);
    a.remove(entities[3]);
    assertEquals(
        Map.of(entities[0], List.of(0), entities[2], List.of(2), entities[4], List.of(4)),
        positions(new RuntimeView().iterate(a)));
  }

  /** A leader of one element is visited: position 0 of the only run. */
  @Test
  void thePositionsFormVisitsALeaderOfOneElement() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final long first = registry.create();
    final long second = registry.create();
    a.emplace(second, new Payload(1));
    b.emplace(first, new Payload(2));
    b.emplace(second, new Payload(3));
    assertEquals(Map.of(second, List.of(0, 1)), positions(new RuntimeView().iterate(a).iterate(b)));
  }

  /**
   * Where the leader's last position holds an entity the other set holds elsewhere (or not at all),
   * the run is not aligned: each position comes from that set's own lookup.
   */
  @Test
  void thePositionsFormChecksTheLeadersLastPositionForAlignment() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.SWAP_AND_POP));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.SWAP_AND_POP));
    final long[] e = new long[4];
    registry.create(e);
    a.emplace(e[0], new Payload(0));
    a.emplace(e[1], new Payload(1));
    a.emplace(e[3], new Payload(3));
    b.emplace(e[0], new Payload(0));
    b.emplace(e[1], new Payload(1));
    b.emplace(e[2], new Payload(2));
    b.emplace(e[3], new Payload(3));
    assertEquals(
        Map.of(e[0], List.of(0, 0), e[1], List.of(1, 1), e[3], List.of(2, 3)),
        positions(new RuntimeView().iterate(a).iterate(b)));
    b.remove(e[3]);
    b.remove(e[2]);
    assertEquals(
        Map.of(e[0], List.of(0, 0), e[1], List.of(1, 1)),
        positions(new RuntimeView().iterate(a).iterate(b)));
  }

  /**
   * Two in-place sets with a hole at the same position, not aligned elsewhere: the positions form,
   * looking each entity up, skips the hole although both sets hold the same tombstone there.
   */
  @Test
  void thePositionsFormSkipsAHoleThatTwoUnalignedSetsShare() {
    final ObjectStorage<Payload> a = registry.storage(Fixtures.alpha(DeletionPolicy.IN_PLACE));
    final ObjectStorage<Payload> b = registry.storage(Fixtures.beta(DeletionPolicy.IN_PLACE));
    final long[] e = new long[4];
    registry.create(e);
    for (final int i : new int[] {0, 1, 2}) {
      a.emplace(e[i], new Payload(i));
    }
    for (final int i : new int[] {0, 1, 3, 2}) {
      b.emplace(e[i], new Payload(i));
    }
    a.remove(e[1]);
    b.remove(e[1]);
    assertEquals(
        Map.of(e[0], List.of(0, 0), e[2], List.of(2, 3)),
        positions(new RuntimeView().iterate(a).iterate(b)));
  }
}
