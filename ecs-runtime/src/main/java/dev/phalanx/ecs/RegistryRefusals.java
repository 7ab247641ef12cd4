package dev.phalanx.ecs;

import java.util.ConcurrentModificationException;

/**
 * The exceptions a {@link Registry} throws when it refuses an operation, with their messages. Each
 * names the operation, the entity and the rule broken, and is built only when the operation is
 * refused: the registry's checks call these on their failing branch alone, so that the checks on
 * hot paths stay small and allocate nothing.
 */
final class RegistryRefusals {

  // The index bit of handles that stand for entities not created yet (never a live index: indices
  // stop at Entity.MAX_INDEX): a command buffer's reserved handles set it, a change set's staged
  // handles set it and the bit below. Messages about an invalid handle say which it is.
  private static final int RESERVED_INDEX_BIT = 0x8000_0000;

  private RegistryRefusals() {}

  /** An {@code operation} on {@code entity}, which is not a live entity of the registry. */
  static IllegalArgumentException invalid(final long entity, final String operation) {
    return new IllegalArgumentException(
        "cannot " + operation + " " + Entity.toString(entity) + ": " + describeInvalid(entity));
  }

  /** Why {@code entity} is not valid: a staged or reserved handle, or a dead entity. */
  private static String describeInvalid(final long entity) {
    if (ChangeSet.isStaged(entity)) {
      return "it is a staged handle of a change set, not an entity: stage changes of it into that"
          + " set, and after its commit read the entity created for it with entityOf(handle)";
    }
    if (!Entity.isNull(entity) && 0 != (Entity.index(entity) & RESERVED_INDEX_BIT)) {
      return "it is a reserved handle of a command buffer, not an entity of this registry: record"
          + " commands on it into that buffer, and after its apply read the entity created for it"
          + " with entityOf(handle)";
    }
    return "the entity is not valid (destroyed or never created)";
  }

  /** An {@code operation} that would create something while the registry is being cleared. */
  static IllegalStateException clearing(final String operation) {
    return new IllegalStateException(
        "cannot "
            + operation
            + ": the registry is being cleared, and everything created now would be"
            + " released with the rest");
  }

  /** An insertion of {@code type} on {@code entity} while the registry is being cleared. */
  static IllegalStateException insertWhileClearing(
      final long entity, final ComponentType<?, ?> type) {
    return new IllegalStateException(
        "cannot emplace "
            + type.name()
            + " on "
            + Entity.toString(entity)
            + ": the registry is being"
            + " cleared, and everything added now would be left on a released entity");
  }

  /** An insertion of {@code type} on {@code entity} while {@code entity} is being destroyed. */
  static IllegalStateException insertWhileDestroying(
      final long entity, final ComponentType<?, ?> type) {
    return new IllegalStateException(
        "cannot emplace "
            + type.name()
            + " on "
            + Entity.toString(entity)
            + ": it is being destroyed,"
            + " and a component added now would outlive it");
  }

  /** A change set's staged destruction of {@code entity}, whose destroy listeners run. */
  static IllegalStateException destroyingAlready(final long entity) {
    return new IllegalStateException(
        "cannot commit destroy on "
            + Entity.toString(entity)
            + ": it is being destroyed already (its destroy listeners run); nothing was changed");
  }

  /** A destroy of {@code entity} that would recycle its identifier with a refused version. */
  static IllegalArgumentException refusedVersion(final long entity, final int version) {
    return new IllegalArgumentException(
        "cannot destroy "
            + Entity.toString(entity)
            + " with next version "
            + version
            + ": "
            + (Entity.TOMBSTONE_VERSION == version
                ? "that version marks tombstones"
                : "it is the entity's own version, which would make its stale handles valid"
                    + " again"));
  }

  /**
   * A destroy of {@code entity} (one of {@code batchSize}), which has an element in {@code
   * storage}, locked by an iteration or a sort.
   */
  static ConcurrentModificationException lockedHolder(
      final long entity, final int batchSize, final Storage<?> storage) {
    return new ConcurrentModificationException(
        "cannot destroy "
            + Entity.toString(entity)
            + (1 == batchSize ? "" : " (in a batch of " + batchSize + " entities)")
            + ": it has "
            + storage.elementName()
            + ", and "
            + storage.describe()
            + " is being read by "
            + storage.lockDescription()
            + ", which refuses structural changes until it ends; nothing was destroyed");
  }

  /** A group whose lists name {@code type} twice. */
  static IllegalArgumentException listedTwice(final ComponentType<?, ?> type) {
    return new IllegalArgumentException(
        type.name()
            + " is listed twice in the group's lists (a type cannot be both owned"
            + " and get, or both included and excluded)");
  }
}
