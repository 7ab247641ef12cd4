package dev.phalanx.ecs.snapshot;

import java.util.zip.CRC32C;

/**
 * The delta format's constants and checksum ({@code docs/snapshot-format.md}, "Deltas").
 * Package-private: {@link DeltaWriter} writes deltas through an in-memory {@link BinaryOutput},
 * {@link DeltaLoader} reads them through a {@link BinaryInput} over an array.
 */
final class DeltaFormat {

  static final byte[] MAGIC = {'P', 'H', 'N', 'D'};

  /**
   * An acknowledged delta's magic ({@link AckedDeltaWriter}): the same layout, with the baseline's
   * sequence number (0: a resync) and the delta's own in place of the base and new ticks.
   */
  static final byte[] ACKED_MAGIC = {'P', 'H', 'N', 'A'};

  static final int VERSION = 1;

  /** Magic, version and length: what a reader needs before it knows the delta's size. */
  static final int HEADER = 12;

  /** The CRC-32C trailer. */
  static final int TRAILER = 4;

  private DeltaFormat() {}

  /**
   * {@return a reader of the delta in {@code bytes[from, from + length)}, in place} Its error
   * messages start with "bad delta".
   */
  static BinaryInput<RuntimeException> input(final byte[] bytes, final int from, final int length) {
    return BinaryInput.of("bad delta", bytes, from, length);
  }

  /** {@return the CRC-32C of {@code bytes[from, to)}, computed with {@code crc}, reset first} */
  static int crc(final CRC32C crc, final byte[] bytes, final int from, final int to) {
    crc.reset();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  /**
   * {@return the CRC-32C of the bytes {@code [from, to)} of {@code in}, an array's reader, computed
   * with {@code crc}, reset first}
   */
  static int crc(final CRC32C crc, final BinaryInput<?> in, final int from, final int to) {
    crc.reset();
    in.update(crc, from, to);
    return (int) crc.getValue();
  }
}
