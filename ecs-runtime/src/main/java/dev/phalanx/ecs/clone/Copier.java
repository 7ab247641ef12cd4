package dev.phalanx.ecs.clone;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;

/**
 * What {@link EntityCloner} and {@link Prefab} share: how they commit the {@link ChangeSet} they
 * stage into, and how they find the hierarchy, whose links they copy as links, not as components.
 */
final class Copier {

  private Copier() {}

  /**
   * Commits {@code changes}, staged by {@code staging}: a refusal (of the staging or of the commit)
   * forgets the staged changes and is thrown, nothing having changed; what listeners threw once
   * every change was made is returned ({@code null} if nothing).
   */
  static Throwable commit(final ChangeSet changes, final Runnable staging) {
    try {
      staging.run();
      changes.commit();
      return null;
    } catch (final RuntimeException | Error thrown) {
      if (!changes.isEmpty()) {
        changes.clear();
        throw thrown;
      }
      return thrown;
    }
  }

  /** {@return whether {@code storage} is a hierarchy's node storage (links are copied apart)} */
  static boolean isHierarchy(final Storage<?> storage) {
    return Hierarchy.TYPE == storage.type();
  }

  /** {@return the hierarchy of {@code registry} if it has one, without creating it} */
  static Hierarchy hierarchyOf(final Registry registry) {
    return registry.context().find(Hierarchy.class);
  }
}
