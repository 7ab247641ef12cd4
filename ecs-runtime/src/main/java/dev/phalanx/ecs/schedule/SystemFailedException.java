package dev.phalanx.ecs.schedule;

/**
 * A system, its run condition or its commands failed during {@link Schedule#run()}. The frame
 * stopped at the failed system's wave (or at its stage's sync point); the cause is what the system
 * threw, and failures of other systems of the same wave are suppressed. The world holds every
 * invariant, and the schedule can run the next frame.
 */
public final class SystemFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The name of the system that failed. */
  private final String system;

  /** The name of its stage. */
  private final String stage;

  /** The frame number. */
  private final long frame;

  /** Whether the system's commands failed, rather than the system. */
  private final boolean atSyncPoint;

  SystemFailedException(
      final String system,
      final String stage,
      final long frame,
      final boolean atSyncPoint,
      final Throwable cause) {
    super(
        (atSyncPoint
                ? "the commands of system '" + system + "' failed at the sync point of stage '"
                : "system '" + system + "' failed in stage '")
            + stage
            + "', frame "
            + frame
            + ": "
            + cause
            + (atSyncPoint
                ? "; the other commands of the stage were applied, later stages did not run"
                : "; the stage's commands were discarded, later waves and stages did not run"),
        cause);
    this.system = system;
    this.stage = stage;
    this.frame = frame;
    this.atSyncPoint = atSyncPoint;
  }

  /** {@return the name of the system that failed} */
  public String system() {
    return system;
  }

  /** {@return the name of its stage} */
  public String stage() {
    return stage;
  }

  /** {@return the frame number} */
  public long frame() {
    return frame;
  }

  /** {@return whether the system's commands failed at the sync point, rather than the system} */
  public boolean atSyncPoint() {
    return atSyncPoint;
  }
}
