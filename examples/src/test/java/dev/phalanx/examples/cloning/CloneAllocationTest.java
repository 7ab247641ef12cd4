package dev.phalanx.examples.cloning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.clone.EntityCloner;
import dev.phalanx.examples.components.Parent_Storage;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Primitives;
import dev.phalanx.examples.components.Primitives_Storage;
import dev.phalanx.examples.components.Primitives_Traits;
import dev.phalanx.examples.components.Velocity_Storage;
import dev.phalanx.examples.components.Velocity_Traits;
import org.junit.jupiter.api.Test;

/** A warm clone of a struct-of-arrays entity into an existing entity allocates nothing. */
class CloneAllocationTest {

  @Test
  void aWarmCloneIntoAnExistingEntityAllocatesNothing() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
    final Primitives_Storage primitives = registry.storage(Primitives_Traits.TYPE);
    final Parent_Storage parents = registry.storage(Parent_Traits.TYPE);
    final long source = registry.create();
    positions.emplace(source, 1f, 2f);
    velocities.emplace(source, 3f, 4f);
    primitives.emplace(source, new Primitives(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d));
    parents.emplace(source, source, 1);
    final long target = registry.create();
    final EntityCloner cloner = EntityCloner.within(registry);
    final Runnable cloneAndUndo =
        () -> {
          cloner.cloneInto(source, target);
          positions.remove(target);
          velocities.remove(target);
          primitives.remove(target);
          parents.remove(target);
        };
    // Warm in rounds until the JIT has compiled the path (run alone, 20,000 calls are not always
    // enough); an allocation made on every call never measures zero, however long the warm-up.
    long allocated = Long.MAX_VALUE;
    for (int round = 0; round < 50 && 0 != allocated; round++) {
      for (int i = 0; i < 20_000; i++) {
        cloneAndUndo.run();
      }
      allocated = Worlds.allocatedBy(cloneAndUndo);
    }
    cloner.cloneInto(source, target);
    assertEquals(target, parents.entity(target), "the self reference follows the copy");
    assertEquals(5f, primitives.ratio(target));
    positions.remove(target);
    velocities.remove(target);
    primitives.remove(target);
    parents.remove(target);
    assertEquals(0L, allocated);
  }
}
