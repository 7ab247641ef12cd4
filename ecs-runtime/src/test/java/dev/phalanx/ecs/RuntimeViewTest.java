package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ConcurrentModificationException;
import java.util.HashSet;
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
}
