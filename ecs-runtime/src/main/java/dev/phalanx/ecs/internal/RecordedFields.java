package dev.phalanx.ecs.internal;

/**
 * The fields of one typed command, read back in the order they were recorded: what a generated
 * storage's {@code applyRecorded(entity, fields)} reads when a command buffer replays an {@code
 * emplace(commands, entity, fields...)}. Primitive fields come as raw 64-bit words (a {@code float}
 * through {@link Float#floatToRawIntBits}, a {@code boolean} as 0 or 1), reference fields as
 * objects. For generated code; no compatibility promise.
 *
 * <p>Valid only during the {@code applyRecorded} call it is handed to; reading more fields than the
 * command recorded is a bug in the generated code, caught by the buffer's assertions.
 */
public interface RecordedFields {

  /**
   * Returns the next primitive field's bits.
   *
   * @return the word
   */
  long nextWord();

  /**
   * Returns the next reference field.
   *
   * @return the value, possibly {@code null}
   */
  Object nextRef();
}
