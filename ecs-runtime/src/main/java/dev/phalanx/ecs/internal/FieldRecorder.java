package dev.phalanx.ecs.internal;

/**
 * Where a generated storage's {@code emplace(commands, entity, fields...)} records a typed
 * command's fields: the writing side of {@link RecordedFields}. {@code CommandBuffer} is its one
 * subclass. For generated code; no compatibility promise.
 *
 * <p>The recording members are protected, so they are not part of the buffer's API; generated code
 * calls the static forwarders of {@link TypedRecording} (static members here would be inherited,
 * and reachable, through the buffer's class). The protocol: {@link #beginFields} (or its {@code
 * IfAbsent} form) with the number of words and references the fields take, then {@link #putWord} or
 * {@link #putRef} once per field in declaration order. {@code beginFields} grows the buffer for the
 * whole command first, so the puts that follow cannot fail; putting more than it announced throws,
 * putting fewer corrupts the buffer (which is why users do not reach these). With one subclass,
 * each forwarder binds to it and inlines: nothing is boxed or allocated.
 */
public abstract class FieldRecorder {

  /** For the command buffer. */
  protected FieldRecorder() {}

  /**
   * Starts recording a typed emplace.
   *
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   * @param wordCount the number of words that follow (primitive fields)
   * @param refCount the number of references that follow (reference fields)
   */
  protected abstract void beginFields(long entity, Object storage, int wordCount, int refCount);

  /**
   * As {@link #beginFields(long, Object, int, int)}, for an emplace applied only if the entity has
   * no component of the type by then.
   *
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   * @param wordCount the number of words that follow (primitive fields)
   * @param refCount the number of references that follow (reference fields)
   */
  protected abstract void beginFieldsIfAbsent(
      long entity, Object storage, int wordCount, int refCount);

  /**
   * Records one primitive field's bits.
   *
   * @param bits the field's value as raw bits ({@code Float.floatToRawIntBits} and the like)
   */
  protected abstract void putWord(long bits);

  /**
   * Records one reference field.
   *
   * @param value the field's value, possibly {@code null}
   */
  protected abstract void putRef(Object value);
}
