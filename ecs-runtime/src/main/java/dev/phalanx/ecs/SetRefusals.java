package dev.phalanx.ecs;

import java.util.ConcurrentModificationException;

/**
 * The exceptions a {@link SparseSet} throws when it refuses a structural change or detects one,
 * with their messages. Each names the operation, the set and what holds it (a lock, an iteration),
 * and is built only when the change is refused: the set's checks, which every structural change
 * runs, call these on their failing branch alone, so that the checks stay small enough to inline
 * and allocate nothing.
 */
final class SetRefusals {

  private SetRefusals() {}

  /** An {@code operation} on {@code set}, which a lock holds. */
  static ConcurrentModificationException locked(final SparseSet set, final String operation) {
    return new ConcurrentModificationException(
        "cannot "
            + operation
            + " "
            + set.describe()
            + ": "
            + set.lockDescription()
            + " is reading it, and structural changes are refused until it ends");
  }

  /**
   * An insertion or a removal of {@code entity}'s element of {@code target}, which would change the
   * locked {@code set}.
   */
  static ConcurrentModificationException lockedChange(
      final SparseSet set, final boolean removal, final SparseSet target, final long entity) {
    return new ConcurrentModificationException(
        "cannot "
            + operation(removal, target, entity)
            + ": "
            + set.describe()
            + " is being read by "
            + set.lockDescription()
            + ", and structural changes are refused until it ends");
  }

  /**
   * A change that would move an element of the iterated {@code set} across an iteration's floor.
   */
  static ConcurrentModificationException crossesFloor(
      final SparseSet set,
      final int low,
      final int high,
      final boolean removal,
      final SparseSet target,
      final long entity) {
    return new ConcurrentModificationException(
        "cannot "
            + operation(removal, target, entity)
            + ": "
            + set.describe()
            + " is being iterated, and this would move an element between the part already"
            + " visited and the part not visited yet (positions "
            + low
            + " and "
            + high
            + "), so that it would be visited twice or never; while an iteration runs, only the"
            + " visited entity and entities already visited may leave the iterated storage or"
            + " move in it (for example by entering or leaving a group that owns it)");
  }

  /** A removal that would make the iterated {@code set} smaller than the part already visited. */
  static ConcurrentModificationException shrinksBelowFloor(
      final SparseSet set, final SparseSet target, final long entity) {
    return new ConcurrentModificationException(
        "cannot "
            + operation(true, target, entity)
            + ": "
            + set.describe()
            + " is being iterated, and this would make it smaller than the part already"
            + " visited; remove entities still to come before the visited one, or defer the"
            + " removal (CommandBuffer)");
  }

  /**
   * An iteration of {@code set} begun on a thread while {@code other} keeps its floors ({@code
   * iterating}) or is permitted to change it.
   */
  static ConcurrentModificationException iteratedElsewhere(
      final SparseSet set, final Thread other, final boolean iterating) {
    return new ConcurrentModificationException(
        "cannot iterate "
            + set.describe()
            + " on thread "
            + Thread.currentThread().getName()
            + ": thread "
            + (null == other ? "?" : other.getName())
            + (iterating
                ? " is iterating it, and it is not frozen (locked with no thread permitted to"
                    + " change it), the only state in which threads may iterate one set at once"
                : " may change its structure; declare the iteration so that the schedule orders"
                    + " the two"));
  }

  /** A permission for {@code thread} to change {@code set} while shared reads of it run. */
  static ConcurrentModificationException permittedWhileShared(
      final SparseSet set, final Thread thread) {
    return new ConcurrentModificationException(
        "cannot permit thread "
            + thread.getName()
            + " to change "
            + set.describe()
            + ": other threads are iterating it as a shared read of a frozen set; declare the"
            + " iteration so that the schedule orders the two");
  }

  /** A rearrangement ({@code operation}: a sort, a compaction, a clear) of the iterated set. */
  static ConcurrentModificationException rearrangeIterated(
      final SparseSet set, final String operation) {
    return new ConcurrentModificationException(
        "cannot " + operation + " " + set.describe() + ": an iteration over it is in progress");
  }

  /** Moves logged while {@code what} iterated {@code set}: more than {@code logged} to tell. */
  static ConcurrentModificationException tooManyMoves(
      final SparseSet set, final String what, final int logged) {
    return new ConcurrentModificationException(
        set.describe()
            + " changed while "
            + what
            + " was iterating it: more than "
            + logged
            + " elements moved between two steps, too many to check");
  }

  /** A rearrangement of {@code set} while {@code what} iterated it. */
  static ConcurrentModificationException rearrangedWhileIterated(
      final SparseSet set, final String what) {
    return new ConcurrentModificationException(
        set.describe()
            + " changed while "
            + what
            + " was iterating it: it was sorted, compacted or cleared");
  }

  /** A move between positions {@code low} and {@code high} across the floor of {@code what}. */
  static ConcurrentModificationException movedAcrossFloor(
      final SparseSet set, final String what, final int low, final int high) {
    return new ConcurrentModificationException(
        set.describe()
            + " changed while "
            + what
            + " was iterating it: an element moved between the part"
            + " already visited and the part not visited yet (positions "
            + low
            + " and "
            + high
            + ")");
  }

  /**
   * The refused change in words: {@code remove <element> from <entity>} or {@code emplace <element>
   * on <entity>}, the element named by {@code target} ({@code null}: an element of a plain set).
   */
  private static String operation(
      final boolean removal, final SparseSet target, final long entity) {
    final String what = null == target ? "an element" : target.elementName();
    return (removal ? "remove " + what + " from " : "emplace " + what + " on ")
        + Entity.toString(entity);
  }
}
