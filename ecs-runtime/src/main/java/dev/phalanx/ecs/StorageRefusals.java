package dev.phalanx.ecs;

/**
 * The exceptions a {@link Storage} throws when it refuses a change, with their messages. Every
 * message names the operation, the component, the entity and the rule broken, and is built only
 * when the change is refused: the checks on the mutation path call these on their failing branch
 * alone, so that the checks themselves stay small and allocate nothing.
 */
final class StorageRefusals {

  private StorageRefusals() {}

  /** An insertion of {@code entity}, which is no entity handle at all. */
  static IllegalArgumentException notAHandle(final Storage<?> storage, final long entity) {
    return new IllegalArgumentException(
        emplacing(storage, entity)
            + "not an entity handle (null, tombstone or index out of range)");
  }

  /** An insertion while the storage's {@code clear()} removes its elements one by one. */
  static IllegalStateException beingCleared(final Storage<?> storage, final long entity) {
    return new IllegalStateException(
        emplacing(storage, entity) + storage.describe() + " is being cleared");
  }

  /** An insertion of {@code entity}, which has the component already. */
  static IllegalArgumentException alreadyHas(final Storage<?> storage, final long entity) {
    return new IllegalArgumentException(
        emplacing(storage, entity) + "it already has one; use replace or emplaceOrReplace");
  }

  /**
   * An insertion of {@code entity} into a standalone storage where {@code holder} has its index.
   */
  static IllegalArgumentException indexHeld(
      final Storage<?> storage, final long entity, final long holder) {
    return new IllegalArgumentException(
        emplacing(storage, entity)
            + Entity.toString(holder)
            + " (same index, another version) is still in the storage");
  }

  /** A {@code commitInsert} whose position is no longer the storage's next one. */
  static IllegalStateException changedBeforeCommit(final Storage<?> storage, final long entity) {
    return new IllegalStateException(
        emplacing(storage, entity)
            + "the storage changed between prepareInsert and commitInsert; nothing was inserted");
  }

  /** A {@code commitUnannounced} whose position is no longer the storage's next one. */
  static IllegalStateException changedBeforeUnannounced(
      final Storage<?> storage, final long entity) {
    return new IllegalStateException(
        emplacing(storage, entity)
            + "the storage changed before the insertion was committed; nothing was inserted");
  }

  /** A {@code patch} whose patcher removed the element it was patching. */
  static IllegalStateException patcherRemoved(final Storage<?> storage, final long entity) {
    return new IllegalStateException(
        "cannot patch "
            + storage.type().name()
            + " of "
            + Entity.toString(entity)
            + ": the patcher removed it");
  }

  /** An insertion or replacement of a null instance into a storage that keeps instances. */
  static NullPointerException nullValue(
      final Storage<?> storage, final long entity, final String operation) {
    return new NullPointerException(
        "cannot "
            + operation
            + " a null "
            + storage.type().name()
            + " on "
            + Entity.toString(entity));
  }

  /**
   * An operation on {@code entity}'s component, which it lacks: because the entity is not valid in
   * the storage's registry, or because it has none.
   */
  static IllegalArgumentException missing(
      final Storage<?> storage, final long entity, final String operation) {
    final Registry registry = storage.registry();
    final String name = storage.type().name();
    final String reason =
        null != registry && !registry.valid(entity)
            ? "the entity is not valid (destroyed or never created)"
            : "the entity has no " + name;
    return new IllegalArgumentException(
        "cannot " + operation + " " + name + " of " + Entity.toString(entity) + ": " + reason);
  }

  /** A bulk insertion into a storage that groups observe while something is iterated or locked. */
  static java.util.ConcurrentModificationException bulkObserved(
      final Storage<?> storage, final int count) {
    return new java.util.ConcurrentModificationException(
        "cannot insert "
            + storage.type().name()
            + " on "
            + count
            + " entities at once: groups observe "
            + storage.describe()
            + " and an iteration or a lock is active in the registry, so each entity's group"
            + " upkeep must be checked as it is made; emplace them one by one");
  }

  /** A bulk insertion whose range lists one entity twice, at offset {@code duplicate}. */
  static IllegalArgumentException listedTwice(
      final Storage<?> storage,
      final long[] entities,
      final int from,
      final int to,
      final int duplicate) {
    return new IllegalArgumentException(
        "cannot insert "
            + storage.type().name()
            + " on "
            + Entity.toString(entities[duplicate])
            + ": it is listed twice in entities["
            + from
            + ", "
            + to
            + ") (offset "
            + duplicate
            + ")");
  }

  /** A {@code commitInsertAll} whose first position is no longer the storage's size. */
  static IllegalStateException bulkChanged(final Storage<?> storage) {
    return new IllegalStateException(
        "cannot insert "
            + storage.type().name()
            + ": the storage changed between prepareInsertAll and commitInsertAll;"
            + " nothing was inserted");
  }

  /** A sort of a storage on its own while the owning group {@code owner} arranges it. */
  static IllegalStateException ownedSort(final Storage<?> storage, final OwningGroup owner) {
    return new IllegalStateException(
        "cannot sort "
            + storage.describe()
            + " on its own: it is owned by "
            + owner
            + "; sort the group instead");
  }

  /** The start of an insertion's message: {@code cannot emplace <type> on <entity>: }. */
  private static String emplacing(final Storage<?> storage, final long entity) {
    return "cannot emplace " + storage.type().name() + " on " + Entity.toString(entity) + ": ";
  }
}
