package dev.phalanx.ecs;

/**
 * Collects exceptions thrown by user code (listeners, chunk bodies) while an operation goes on, so
 * that the operation completes and the first exception is rethrown at its end, later ones attached
 * as suppressed.
 */
final class Failures {

  private Failures() {}

  /**
   * Returns {@code first}, or {@code thrown} if {@code first} is {@code null}, recording the other.
   */
  static Throwable add(final Throwable first, final Throwable thrown) {
    if (null == first) {
      return thrown;
    }
    if (first != thrown) {
      first.addSuppressed(thrown);
    }
    return first;
  }

  /** Rethrows {@code failure} unchanged if it is not {@code null}. */
  static void rethrow(final Throwable failure) {
    if (null != failure) {
      Failures.<RuntimeException>sneaky(failure);
    }
  }

  @SuppressWarnings(
      "unchecked") // rethrows a Throwable without wrapping it: listeners may throw anything
  private static <X extends Throwable> void sneaky(final Throwable failure) throws X {
    throw (X) failure;
  }
}
