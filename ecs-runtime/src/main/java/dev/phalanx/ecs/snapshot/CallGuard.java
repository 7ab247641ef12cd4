package dev.phalanx.ecs.snapshot;

/**
 * The call in progress on one snapshot or delta writer or loader, kept to refuse a nested call:
 * user code the object runs (an interest predicate, a codec, a listener) that calls back into it.
 * The check comes first in each guarded call, so a refused call changes nothing. One per object; no
 * allocation per call.
 */
final class CallGuard {

  private final String owner;
  // The public call under way, or null.
  private String running;

  /**
   * A guard for one object.
   *
   * @param owner the object's class name, for the messages
   */
  CallGuard(final String owner) {
    this.owner = owner;
  }

  /**
   * Starts {@code call}, or refuses it if another call is under way; pair with {@link #exit} in a
   * {@code finally}.
   *
   * @param call the call starting, for the messages (its name and arguments' shape)
   * @param what what it does, for the messages
   */
  void enter(final String call, final String what) {
    check(what);
    running = call;
  }

  /** Ends the call under way. */
  void exit() {
    running = null;
  }

  /**
   * Refuses {@code what} with {@link IllegalStateException} if a call is under way.
   *
   * @param what what the refused call does, for the message
   */
  void check(final String what) {
    if (null != running) {
      throw new IllegalStateException(
          "cannot "
              + what
              + ": this "
              + owner
              + " is running "
              + running
              + ", and a call made from user code that it runs (a predicate, a codec or a"
              + " listener) is refused; nothing changed");
    }
  }
}
