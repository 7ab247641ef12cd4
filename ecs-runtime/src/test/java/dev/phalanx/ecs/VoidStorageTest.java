package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VoidStorageTest {

  @Test
  void aNamedVoidStorageIsATypelessTagPool() {
    final VoidStorage storage = ComponentType.named("void-storage-test").createStorage();
    assertEquals(Void.class, storage.type().javaClass());
    assertEquals("void storage 'void-storage-test'", storage.describe());
    storage.emplace(Entity.of(4, 2));
    storage.emplace(Entity.of(5, 0), null);
    assertTrue(storage.contains(Entity.of(4, 2)));
    assertNull(storage.get(Entity.of(4, 2)));
    assertEquals(0, storage.pageCount() * 0 + storage.size() - 2);
  }

  @Test
  void theRegistryHandsOutOneStoragePerName() {
    final Registry registry = new Registry();
    final VoidStorage selected = registry.storage("selected");
    assertSame(selected, registry.storage("selected"));
    assertSame(selected, registry.storage(ComponentType.named("selected")));
    final long entity = registry.create();
    selected.emplace(entity);
    assertTrue(registry.has(entity, ComponentType.named("selected")));
    registry.destroy(entity);
    assertEquals(0, selected.size());
  }

  @Test
  void misuseNamesTheVoidType() {
    final Registry registry = new Registry();
    final VoidStorage marked = registry.storage("marked");
    final long entity = registry.create();
    marked.emplace(entity);
    final IllegalArgumentException error =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> marked.emplace(entity));
    assertTrue(error.getMessage().contains("marked"), error.getMessage());
    assertTrue(error.getMessage().contains(Entity.toString(entity)), error.getMessage());
  }
}
