package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code @EntityRef} fields: the generated storage hands them out, the registry finds dangling
 * ones.
 */
class EntityRefTest {

  @Test
  void theGeneratedStorageVisitsEveryReferenceAndTheRegistryFindsDanglingOnes() {
    final Registry registry = new Registry();
    final Parent_Storage parents = registry.storage(Parent_Traits.TYPE);
    final long root = registry.create();
    final long child = registry.create();
    final long orphan = registry.create();
    parents.emplace(child, root, 1);
    parents.emplace(orphan, Entity.NULL, 0);
    final List<String> seen = new ArrayList<>();
    parents.eachEntityRef(
        (owner, field, reference) -> seen.add(owner + "." + field + "=" + reference));
    assertEquals(2, seen.size());
    assertTrue(seen.contains(child + ".entity=" + root), seen.toString());
    assertEquals(List.of(), registry.danglingReferences(), "NULL and live targets are fine");
    registry.destroy(root);
    final List<String> dangling = registry.danglingReferences();
    assertEquals(1, dangling.size(), dangling.toString());
    assertTrue(
        dangling.get(0).contains("Parent.entity of " + Entity.toString(child)), dangling.get(0));
  }
}
