package dev.phalanx.ecs.clone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cloning and prefabs over the runtime's own storages (object and tag storages, the base's {@code
 * stageFrom}); the examples module tests the generated, struct-of-arrays copies.
 */
class ObjectCloneTest {

  static final class Health {
    int points;

    Health(final int points) {
      this.points = points;
    }
  }

  static final class Boss {}

  private static final ComponentType<Health, ObjectStorage<Health>> HEALTH =
      ComponentType.object(Health.class);
  private static final ComponentType<Boss, EmptyStorage<Boss>> BOSS = ComponentType.tag(Boss.class);

  @Test
  void objectComponentsAreSharedAndTagsAdded() {
    final Registry registry = new Registry();
    final long e = registry.create();
    final Health health = new Health(3);
    registry.emplace(e, HEALTH, health);
    registry.storage(BOSS).emplace(e);
    final Registry other = new Registry();
    final long copy = EntityCloner.between(registry, other).clone(e);
    assertSame(health, other.get(copy, HEALTH));
    assertTrue(other.has(copy, BOSS));
    assertEquals(List.of(), other.verify());
  }

  @Test
  void aTreePrefabInstantiatesLinksAndCompletesWhenAListenerThrows() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final long child = registry.create();
    hierarchy.attach(child, root);
    registry.emplace(child, HEALTH, new Health(1));
    final Prefab prefab = Prefab.ofTree(registry, root);
    final Registry other = new Registry();
    final long[] roots = new long[4];
    prefab.instantiate(other, roots);
    final Hierarchy links = Hierarchy.of(other);
    for (final long r : roots) {
      final long c = links.firstChild(r);
      assertNotEquals(Entity.NULL, c);
      assertEquals(1, other.get(c, HEALTH).points);
    }
    assertEquals(8, other.alive());
    final List<Long> heard = new ArrayList<>();
    other
        .storage(HEALTH)
        .onConstruct()
        .connect(
            (r, e) -> {
              heard.add(e);
              if (3 == heard.size()) {
                throw new IllegalStateException("third");
              }
            });
    assertThrows(IllegalStateException.class, () -> prefab.instantiate(other, new long[5]));
    assertEquals(5, heard.size(), "every listener ran");
    assertEquals(18, other.alive(), "every instance is complete");
    assertEquals(List.of(), other.verify());
  }
}
