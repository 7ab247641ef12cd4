package dev.phalanx.ecs.clone;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;

/**
 * What {@link EntityCloner} and {@link Prefab} share besides the {@link dev.phalanx.ecs.ChangeSet}
 * they stage into: how they find the hierarchy, whose links they copy as links, not as components.
 */
final class Copier {

  private Copier() {}

  /** {@return whether {@code storage} is a hierarchy's node storage (links are copied apart)} */
  static boolean isHierarchy(final Storage<?> storage) {
    return Hierarchy.TYPE == storage.type();
  }

  /** {@return the hierarchy of {@code registry} if it has one, without creating it} */
  static Hierarchy hierarchyOf(final Registry registry) {
    return registry.context().find(Hierarchy.class);
  }
}
