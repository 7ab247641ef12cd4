package dev.phalanx.ecs;

/**
 * The exceptions a {@link ChangeSet} throws when it refuses a call or a commit, with their
 * messages. A staging refusal names the operation and the argument at fault; a commit refusal names
 * the change (its operation, type and target, and the set) and the rule broken, and says that
 * nothing was changed. Messages are built only on the failing branch: staging and checking call
 * these when they refuse and never otherwise, so that they stay small and allocate nothing.
 */
final class ChangeRefusals {

  private ChangeRefusals() {}

  /** A call that stages, clears or commits while {@code changes} commits. */
  static IllegalStateException committing(final ChangeSet changes, final String operation) {
    return new IllegalStateException(
        "cannot "
            + operation
            + " on "
            + changes
            + ": it is being committed (a listener re-entered it); change the registry directly,"
            + " or stage into another change set");
  }

  /** A staging call whose target is a staged handle of another set, or a retired one. */
  static IllegalArgumentException foreignHandle(
      final ChangeSet changes, final long entity, final String operation) {
    return new IllegalArgumentException(
        "cannot stage "
            + operation
            + " on "
            + Entity.toString(entity)
            + ": it is a staged handle of another change set, or of a commit or clear of "
            + changes
            + " that has passed");
  }

  /** A copy to a run of creations that this set has not staged. */
  static IllegalArgumentException noCreationRun(
      final ChangeSet changes, final long first, final int count) {
    return new IllegalArgumentException(
        "cannot stage copy on "
            + count
            + " creations from "
            + Entity.toString(first)
            + ": "
            + changes
            + " has not staged that many creations from that handle on");
  }

  /** A staged value that is null for a type that stores instances. */
  static NullPointerException nullValue(final ComponentType<?, ?> type, final String operation) {
    return new NullPointerException(
        "cannot stage " + operation + " of a null " + type.name() + ": the type stores instances");
  }

  /** A tag insertion of a type that stores instances. */
  static IllegalArgumentException notATag(final ComponentType<?, ?> tag) {
    return new IllegalArgumentException(
        "cannot stage emplace(entity, "
            + tag.name()
            + ") as a tag: the type stores instances; stage emplace(entity, type, value)");
  }

  /** One creation more than a set can number, {@code staged} being staged already. */
  static IllegalStateException tooManyCreations(final ChangeSet changes, final int staged) {
    return new IllegalStateException(changes + " cannot stage more than " + staged + " creations");
  }

  /** {@code count} creations more than a set can number. */
  static IllegalStateException tooManyCreationsMore(final ChangeSet changes, final int count) {
    return new IllegalStateException(changes + " cannot stage " + count + " more creations");
  }

  /**
   * A change that the commit's check refuses for {@code reason}: the change at {@code change}
   * (negative for a destroy) on {@code entity}.
   */
  static IllegalArgumentException refusal(
      final ChangeSet changes, final int change, final long entity, final String reason) {
    return new IllegalArgumentException(
        "cannot commit "
            + describe(changes, change, entity)
            + ": "
            + reason
            + "; nothing was changed");
  }

  /** A copy whose source no longer holds the element. */
  static IllegalArgumentException sourceGone(
      final ChangeSet changes,
      final int change,
      final long entity,
      final long sourceEntity,
      final ComponentType<?, ?> type,
      final Storage<?> source) {
    return refusal(
        changes,
        change,
        entity,
        "the source "
            + Entity.toString(sourceEntity)
            + " has no "
            + type.name()
            + " in "
            + source.describe()
            + " any more");
  }

  /** A change of a storage that groups observe while an iteration or lock is active. */
  static java.util.ConcurrentModificationException groupsObserve(
      final ChangeSet changes, final int change, final long entity, final Storage<?> storage) {
    return new java.util.ConcurrentModificationException(
        "cannot commit "
            + describe(changes, change, entity)
            + ": groups observe "
            + storage.describe()
            + " and an iteration or a lock is active in the registry; commit between passes");
  }

  /**
   * {@return the change at {@code change} (negative: a destroy) on {@code entity}, named for a
   * message}
   */
  static String describe(final ChangeSet changes, final int change, final long entity) {
    final String what =
        change < 0
            ? "destroy"
            : ChangeSet.OPERATIONS[changes.kinds[change]]
                + (null == changes.types[change] ? "" : " " + changes.types[change].name());
    return what + " on " + Entity.toString(entity) + " (" + changes + ")";
  }

  /** {@return the operation a storage's rearrangement check names for a destroy} */
  static String destroying(final ChangeSet changes, final long entity) {
    return "destroy " + Entity.toString(entity) + " from " + changes + " in";
  }
}
