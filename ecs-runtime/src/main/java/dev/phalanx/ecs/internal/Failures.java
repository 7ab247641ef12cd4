package dev.phalanx.ecs.internal;

/**
 * Collects exceptions thrown by user code (listeners, chunk bodies) while an operation goes on, so
 * that the operation completes and the first exception is rethrown at its end, later ones attached
 * as suppressed.
 */
public final class Failures {

  private Failures() {}

  /**
   * Returns {@code first}, or {@code thrown} if {@code first} is {@code null}, recording the other.
   */
  public static Throwable add(final Throwable first, final Throwable thrown) {
    if (null == first) {
      return thrown;
    }
    if (first != thrown) {
      first.addSuppressed(thrown);
    }
    return first;
  }

  /** Rethrows {@code failure} unchanged if it is not {@code null}. */
  public static void rethrow(final Throwable failure) {
    if (null != failure) {
      Failures.<RuntimeException>sneaky(failure);
    }
  }

  /**
   * Throws {@code thrown} unchanged, checked or not; declared to return an exception so that a
   * caller can write {@code throw Failures.propagate(thrown)} where the compiler needs a throw.
   *
   * @param thrown what to rethrow
   * @return never returns
   */
  public static RuntimeException propagate(final Throwable thrown) {
    Failures.<RuntimeException>sneaky(thrown);
    throw new AssertionError(thrown); // unreachable: sneaky always throws
  }

  @SuppressWarnings(
      "unchecked") // rethrows a Throwable without wrapping it: listeners may throw anything
  private static <X extends Throwable> void sneaky(final Throwable failure) throws X {
    throw (X) failure;
  }
}
