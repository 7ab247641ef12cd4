package dev.phalanx.ecs.clone;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.relation.Pairs;

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

  /**
   * Refuses to copy {@code member}'s element of {@code storage} if it is the tag of a pair kind,
   * whose pairs a copy does not carry (and a tag without pairs breaks the kind).
   *
   * @throws IllegalArgumentException naming the kind and the way out
   */
  static void refusePairTag(
      final Registry registry, final Storage<?> storage, final long member, final String what) {
    if (null != Pairs.find(registry, storage.type())) {
      throw new IllegalArgumentException(
          "cannot "
              + what
              + " "
              + Entity.toString(member)
              + ": it has pairs of "
              + storage.type().name()
              + ", which copies do not carry; skip "
              + storage.type().name()
              + " and add the copy's pairs with Pairs.add");
    }
  }

  /** {@return the hierarchy of {@code registry} if it has one, without creating it} */
  static Hierarchy hierarchyOf(final Registry registry) {
    return registry.context().find(Hierarchy.class);
  }
}
