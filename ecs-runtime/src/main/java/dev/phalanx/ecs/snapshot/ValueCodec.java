package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ObjectStorage;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes and reads the values of one reference type in snapshots, for the fields that snapshots do
 * not encode natively (anything but primitives, {@link String} and enums) and for the components of
 * {@link ObjectStorage}s. Register it with {@link SnapshotWriter#codec}, {@link
 * SnapshotLoader#codec} and {@link ContinuousLoader#codec}; a snapshot that meets such a type
 * without a codec is refused with an exception naming the storage, the field and the type.
 *
 * <p>Each value is written length-prefixed, so a loader that does not need a field skips it without
 * a codec's help. {@code null} values are written by the snapshot itself: the codec only sees
 * non-null values. Entity handles inside such values are not remapped by {@link ContinuousLoader}.
 *
 * @param <T> the value type
 */
public interface ValueCodec<T> {

  /**
   * Writes {@code value}.
   *
   * @param value a non-null value
   * @param out where to write it
   * @throws IOException if {@code out} fails
   */
  void write(T value, DataOutput out) throws IOException;

  /**
   * Reads a value written by {@link #write}; it must read exactly the bytes written.
   *
   * @param in where to read it from
   * @return the value
   * @throws IOException if the bytes are not a value (reported with the snapshot's position)
   */
  T read(DataInput in) throws IOException;
}
