package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EmptyStorageTest {

  static final class Shared {}

  private static final Shared SHARED = new Shared();
  private static final ComponentType<Shared, EmptyStorage<Shared>> SHARED_TAG =
      ComponentType.tag(Shared.class, SHARED);

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void aTagStoresMembershipOnlyAndAllocatesNoPage(final DeletionPolicy policy) {
    final EmptyStorage<Object> storage = Fixtures.tag(policy).createStorage();
    assertEquals(policy, storage.policy());
    final List<Long> constructed = new ArrayList<>();
    storage.onConstruct().connect((r, e) -> constructed.add(e));
    for (int i = 0; i < 3000; i++) {
      storage.emplace(Entity.of(i, 0));
    }
    storage.emplace(Entity.of(5000, 0), null);
    assertEquals(3001, constructed.size());
    assertTrue(storage.contains(Entity.of(2999, 0)));
    assertNull(storage.get(Entity.of(0, 0)));
    storage.remove(Entity.of(0, 0));
    assertEquals(3000, storage.size() - (storage.hasTombstones() ? 1 : 0));
  }

  @Test
  void getReturnsTheSharedInstance() {
    final EmptyStorage<Shared> storage = SHARED_TAG.createStorage();
    storage.emplace(Entity.of(1, 0));
    assertSame(SHARED, storage.get(Entity.of(1, 0)));
    assertSame(SHARED, storage.tryGet(Entity.of(1, 0)));
    assertNull(storage.tryGet(Entity.of(2, 0)));
  }

  @Test
  void emplacingATwiceNamesEntityAndTag() {
    final EmptyStorage<Shared> storage = SHARED_TAG.createStorage();
    storage.emplace(Entity.of(1, 4));
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> storage.emplace(Entity.of(1, 4)));
    assertTrue(error.getMessage().contains("Entity(index=1, version=4)"), error.getMessage());
    assertTrue(error.getMessage().contains("Shared"), error.getMessage());
    assertEquals(1, storage.size());
  }

  @Test
  void tagsSortAndCompactLikeAnySet() {
    final EmptyStorage<Object> storage = Fixtures.tag(DeletionPolicy.IN_PLACE).createStorage();
    for (int i = 0; i < 10; i++) {
      storage.emplace(Entity.of(i, 0));
    }
    storage.remove(Entity.of(3, 0));
    assertThrows(IllegalStateException.class, () -> storage.sort((a, b) -> Long.compare(b, a)));
    storage.compact();
    storage.sort((a, b) -> Long.compare(b, a));
    assertEquals(Entity.of(9, 0), storage.packed()[0]);
    assertEquals(Entity.of(0, 0), storage.packed()[8]);
  }
}
