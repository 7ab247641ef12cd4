package dev.phalanx.ecs;

/**
 * The core's package-private members that tests of feature packages drive directly (a lock held by
 * hand, for example), so that those tests can live beside the feature they test.
 */
public final class CoreTestAccess {

  private CoreTestAccess() {}

  /** Locks {@code set} as an iteration would, naming {@code operation} in refusals. */
  public static void lock(final SparseSet set, final String operation) {
    set.lock(operation, null);
  }

  /** Releases a lock taken by {@link #lock}. */
  public static void unlock(final SparseSet set) {
    set.unlock();
  }

  /** Starts a callback iteration over {@code set}, as a generated loop does. */
  public static void beginIteration(final SparseSet set) {
    set.beginIteration();
  }

  /** Ends the iteration {@link #beginIteration} started. */
  public static void endIteration(final SparseSet set) {
    set.endIteration();
  }

  /** {@return the number of component types defined by name so far, JVM-wide} */
  public static int namedCount() {
    return ComponentType.namedCount();
  }
}
