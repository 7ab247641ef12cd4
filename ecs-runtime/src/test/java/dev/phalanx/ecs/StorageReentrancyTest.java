package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StorageReentrancyTest {

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void aDestroyListenerRemovingTheSameEntityAgainIsANoOp(final DeletionPolicy policy) {
    final Registry registry = new Registry();
    final ObjectStorage<Payload> storage = registry.storage(Fixtures.alpha(policy));
    final List<Boolean> nested = new ArrayList<>();
    storage.onDestroy().connect((r, e) -> nested.add(r.remove(e, Fixtures.alpha(policy))));
    final long a = registry.create();
    final long b = registry.create();
    storage.emplace(a, new Payload(1));
    storage.emplace(b, new Payload(2));
    assertTrue(registry.remove(a, Fixtures.alpha(policy)));
    assertEquals(List.of(false), nested);
    assertFalse(storage.contains(a));
    assertTrue(storage.contains(b));
    registry.destroy(b);
    assertEquals(List.of(false, false), nested);
    assertFalse(storage.contains(b));
  }

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void aStandaloneStorageRefusesASecondVersionOfAnIndex(final DeletionPolicy policy) {
    final ObjectStorage<Payload> storage = Fixtures.beta(policy).createStorage();
    final long first = Entity.of(3, 0);
    final long second = Entity.of(3, 1);
    storage.emplace(first, new Payload(1));
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> storage.emplace(second, new Payload(2)));
    assertTrue(error.getMessage().contains("Entity(index=3, version=1)"), error.getMessage());
    assertTrue(error.getMessage().contains("Entity(index=3, version=0)"), error.getMessage());
    assertEquals(1, storage.size());
    assertTrue(storage.contains(first));
    assertEquals(1, storage.get(first).value);
    storage.remove(first);
    storage.emplace(second, new Payload(2));
    assertTrue(storage.contains(second));
  }
}
