package dev.phalanx.ecs.internal;

/**
 * The calls a generated storage's {@code emplace(commands, entity, fields...)} makes to record a
 * typed command: static forwarders to a {@link FieldRecorder}'s protected members, in the protocol
 * {@code FieldRecorder} describes. For generated code; no compatibility promise. Each forwarder is
 * one call that binds to the one recorder class and inlines.
 */
public final class TypedRecording {

  private TypedRecording() {}

  /**
   * Starts recording a typed emplace into {@code recorder}.
   *
   * @param recorder the command buffer
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   * @param wordCount the number of words that follow (primitive fields)
   * @param refCount the number of references that follow (reference fields)
   */
  public static void beginFields(
      final FieldRecorder recorder,
      final long entity,
      final Object storage,
      final int wordCount,
      final int refCount) {
    recorder.beginFields(entity, storage, wordCount, refCount);
  }

  /**
   * Starts recording a typed emplace-if-absent into {@code recorder}.
   *
   * @param recorder the command buffer
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   * @param wordCount the number of words that follow (primitive fields)
   * @param refCount the number of references that follow (reference fields)
   */
  public static void beginFieldsIfAbsent(
      final FieldRecorder recorder,
      final long entity,
      final Object storage,
      final int wordCount,
      final int refCount) {
    recorder.beginFieldsIfAbsent(entity, storage, wordCount, refCount);
  }

  /**
   * Records one primitive field's bits into {@code recorder}.
   *
   * @param recorder the command buffer
   * @param bits the field's value as raw bits
   */
  public static void putWord(final FieldRecorder recorder, final long bits) {
    recorder.putWord(bits);
  }

  /**
   * Records one reference field into {@code recorder}.
   *
   * @param recorder the command buffer
   * @param value the field's value, possibly {@code null}
   */
  public static void putRef(final FieldRecorder recorder, final Object value) {
    recorder.putRef(value);
  }
}
