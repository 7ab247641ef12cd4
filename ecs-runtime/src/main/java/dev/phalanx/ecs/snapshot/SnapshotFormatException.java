package dev.phalanx.ecs.snapshot;

import java.io.IOException;

/**
 * A snapshot stream that cannot be loaded: truncated, not a snapshot (wrong magic), written by a
 * newer format version, corrupt (counts or identifiers out of range or inconsistent), or describing
 * a schema that the target's types cannot take (a field whose type changed, an unknown enum
 * constant, a type without a {@link ValueCodec}). The message says what was wrong and where: the
 * byte offset and, where it applies, the storage and the field. Loaders throw it before they change
 * anything: the target registry is left as it was.
 */
public final class SnapshotFormatException extends IOException {

  /** The serialized form's version. */
  private static final long serialVersionUID = 1L;

  /** The byte offset of the problem, or -1. */
  private final long offset;

  /**
   * Creates the exception.
   *
   * @param offset the byte offset of the stream where the problem was found, or {@code -1}
   * @param message what was wrong, without the offset
   */
  public SnapshotFormatException(final long offset, final String message) {
    super(offset >= 0 ? message + " (at byte " + offset + ")" : message);
    this.offset = offset;
  }

  /**
   * Creates the exception with a cause.
   *
   * @param offset the byte offset, or {@code -1}
   * @param message what was wrong
   * @param cause the underlying failure
   */
  public SnapshotFormatException(final long offset, final String message, final Throwable cause) {
    super(offset >= 0 ? message + " (at byte " + offset + ")" : message, cause);
    this.offset = offset;
  }

  /** {@return the byte offset in the stream where the problem was found, or {@code -1}} */
  public long offset() {
    return offset;
  }
}
