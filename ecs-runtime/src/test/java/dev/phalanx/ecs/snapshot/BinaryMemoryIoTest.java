package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BinaryOutput} in memory and {@link BinaryInput} over an array, as deltas use them: values
 * that land across the end of the output's first array read back whole, back-patched ints land in
 * place, and every read past the input's end (not the array's) is refused, naming the offset from
 * the input's first byte and what was being read.
 */
class BinaryMemoryIoTest {

  /** The output's first array: 4 KiB. */
  private static final int FIRST = 1 << 12;

  private static BinaryInput<RuntimeException> readBack(
      final BinaryOutput<RuntimeException> out, final int from) throws SnapshotFormatException {
    final BinaryInput<RuntimeException> in = BinaryInput.of(out.bytes(), 0, out.size());
    in.skip(from);
    return in;
  }

  @Test
  void aShortThatCrossesTheFirstArraysEndReadsBackWhole() throws SnapshotFormatException {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    out.putBytes(new byte[FIRST - 1], 0, FIRST - 1);
    out.putShort((short) -12_345);
    out.putByte(7);
    assertEquals(FIRST + 2, out.size());
    assertEquals(FIRST + 2, out.offset());
    final BinaryInput<RuntimeException> in = readBack(out, FIRST - 1);
    assertEquals((short) -12_345, in.getShort());
    assertEquals(7, in.getByte());
  }

  @Test
  void aCharThatCrossesTheFirstArraysEndReadsBackWhole() throws SnapshotFormatException {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    out.putBytes(new byte[FIRST - 1], 0, FIRST - 1);
    out.putChar('\u20ac');
    assertEquals(FIRST + 1, out.size());
    assertEquals('\u20ac', readBack(out, FIRST - 1).getChar());
  }

  @Test
  void charsThatCrossTheFirstArraysEndReadBackWhole() throws SnapshotFormatException {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    // The length (4 bytes) fits; the two chars after it do not.
    out.putBytes(new byte[FIRST - 6], 0, FIRST - 6);
    out.putChars("\u00e9t");
    out.putChars(null);
    assertEquals(FIRST - 6 + 4 + 4 + 4, out.size());
    final BinaryInput<RuntimeException> in = readBack(out, FIRST - 6);
    assertEquals("\u00e9t", in.getChars());
    assertNull(in.getChars());
    assertEquals(out.size(), in.offset());
  }

  /** A run of longs far larger than the first array grows it once and reads back in order. */
  @Test
  void aLongRunGrowsTheArrayAndKeepsItsOrder() throws SnapshotFormatException {
    final long[] values = new long[3 * FIRST];
    for (int i = 0; i < values.length; i++) {
      values[i] = 0x0102_0304_0506_0708L * i;
    }
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    out.putByte(1);
    out.longs(values, 1, values.length - 1);
    final ByteBuffer little = ByteBuffer.wrap(out.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(1 + 8 * (values.length - 1), out.size());
    assertEquals(values[1], little.getLong(1));
    assertEquals(values[values.length - 1], little.getLong(out.size() - 8));
    final BinaryInput<RuntimeException> in = readBack(out, 1);
    final long[] back = new long[values.length - 1];
    in.longs(back, 0, back.length);
    assertArrayEquals(Arrays.copyOfRange(values, 1, values.length), back);
  }

  @Test
  void anIntIsBackPatchedInPlaceAndResetKeepsTheArray() throws SnapshotFormatException {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    out.putInt(0);
    out.putLong(-1L);
    out.putIntAt(0, 0x11223344);
    assertEquals(12, out.size());
    assertEquals(0x44, out.bytes()[0]);
    assertEquals(0x11223344, readBack(out, 0).getInt());
    final byte[] array = out.bytes();
    out.reset();
    assertEquals(0, out.size());
    out.putByte(9);
    assertEquals(array, out.bytes());
  }

  /**
   * An input held in the middle of a larger array (as a {@code ByteBuffer} load reads it): a field
   * one byte short of its width is refused, though the array holds more bytes after the input's
   * end, and the offset is counted from the input's first byte.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 8})
  void aFieldOneByteShortOfTheEndIsRefused(final int kind) throws SnapshotFormatException {
    final int width = 3 == kind ? 2 : kind;
    final byte[] array = new byte[64];
    Arrays.fill(array, (byte) 0x5a);
    final int start = 16;
    // Two whole ints, then width - 1 bytes: the input ends there.
    final BinaryInput<RuntimeException> in = BinaryInput.of(array, start, 8 + width - 1);
    in.where = "a test section";
    assertEquals(0x5a5a5a5a, in.getInt());
    assertEquals(0x5a5a5a5a, in.getInt());
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class,
            () -> {
              switch (kind) {
                case 1 -> in.getByte();
                case 2 -> in.getShort();
                case 3 -> in.getChar();
                case 4 -> in.getInt();
                default -> in.getLong();
              }
            });
    assertEquals(8, refused.offset());
    assertEquals(
        "truncated stream: 1 more byte(s) expected (reading a test section) (at byte 8)",
        refused.getMessage());
    assertEquals(8, in.offset(), "a refused read moves nothing");
    assertEquals(width - 1, in.remainingBound());
  }

  @Test
  void aCountIsCheckedAgainstTheBytesItsItemsNeed() throws SnapshotFormatException {
    final byte[] array = new byte[64];
    final BinaryInput<RuntimeException> in = BinaryInput.of(array, 4, 10);
    in.where = "the lost entities";
    assertEquals(1, in.count(1, 8));
    assertEquals(5, in.count(5, 2));
    final SnapshotFormatException tooMany =
        assertThrows(SnapshotFormatException.class, () -> in.count(2, 8));
    assertEquals(
        "corrupt count 2: 16 byte(s) needed, 10 left (reading the lost entities) (at byte 0)",
        tooMany.getMessage());
    assertEquals(0, tooMany.offset());
    final SnapshotFormatException negative =
        assertThrows(SnapshotFormatException.class, () -> in.count(-1, 8));
    assertEquals(
        "negative count -1 (reading the lost entities) (at byte 0)", negative.getMessage());
  }

  /** A delta's reader starts every message with its kind, also once cut short. */
  @Test
  void aDeltasErrorsSayItIsADelta() throws SnapshotFormatException {
    final BinaryInput<RuntimeException> in = DeltaFormat.input(new byte[16], 4, 8);
    in.where = "the storage count";
    assertEquals(0, in.getInt());
    assertEquals(
        "bad delta: negative count -2 (reading the storage count) (at byte 4)",
        assertThrows(SnapshotFormatException.class, () -> in.count(-2, 4)).getMessage());
    in.limitTo(6);
    final BinaryInput<RuntimeException> body = in;
    assertEquals(
        "bad delta: truncated stream: 2 more byte(s) expected (reading the storage count)"
            + " (at byte 4)",
        assertThrows(SnapshotFormatException.class, body::getInt).getMessage());
  }

  /** A string longer than the bytes left is refused where they end, not past the input. */
  @Test
  void aLengthPastTheEndIsRefusedWhereTheBytesEnd() {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    out.putInt(3); // three chars announced, two sent
    out.putChar('a');
    out.putChar('b');
    out.putBytes(new byte[8], 0, 8); // bytes after the input's end
    final BinaryInput<RuntimeException> in = BinaryInput.of(out.bytes(), 0, 8);
    final SnapshotFormatException refused =
        assertThrows(SnapshotFormatException.class, in::getChars);
    assertEquals(
        "truncated stream: 2 more byte(s) expected (reading the header) (at byte 8)",
        refused.getMessage());
  }

  /**
   * Random access to an array: an int and a checksum at offsets from the input's first byte, a
   * reader cut short of a trailer, and bytes streamed in place.
   */
  @Test
  void anArrayIsReadAtOffsetsCutShortAndStreamedInPlace() throws IOException {
    final byte[] array = {9, 9, 1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 9};
    final BinaryInput<RuntimeException> in = BinaryInput.of(array, 2, 12);
    assertEquals(7, in.getIntAt(8));
    assertThrows(IndexOutOfBoundsException.class, () -> in.getIntAt(9));
    assertThrows(IndexOutOfBoundsException.class, () -> in.getIntAt(-1));
    final CRC32C crc = new CRC32C();
    in.update(crc, 0, 8);
    assertEquals(DeltaFormat.crc(new CRC32C(), array, 2, 10), (int) crc.getValue());
    assertEquals(
        DeltaFormat.crc(new CRC32C(), array, 2, 10), DeltaFormat.crc(new CRC32C(), in, 0, 8));
    assertEquals(1, in.getInt());
    in.where = "the body";
    in.limitTo(8);
    final BinaryInput<RuntimeException> body = in;
    assertEquals(4, body.offset());
    assertEquals(4, body.remainingBound());
    try (DataInputStream data = new DataInputStream(body.peek(4))) {
      assertEquals(0x02000000, data.readInt());
    }
    assertEquals(4, body.offset(), "peeked bytes are not consumed");
    body.skip(4);
    final SnapshotFormatException refused =
        assertThrows(SnapshotFormatException.class, body::getInt);
    assertEquals(
        "truncated stream: 4 more byte(s) expected (reading the body) (at byte 8)",
        refused.getMessage());
    in.limitTo(12);
    assertEquals(7, in.getIntAt(8));
  }

  @Test
  void aChannelsInputIsNotAnArray() {
    final BinaryInput<IOException> in = BinaryInput.of(new ChunkedChannels.Source(new byte[8], 8));
    assertThrows(IllegalStateException.class, () -> in.limitTo(4));
    assertEquals(Long.MAX_VALUE, in.remainingBound());
  }

  @Test
  void runsOfEveryTypeAtEveryAlignmentReadBackAcrossGrowth() throws SnapshotFormatException {
    // Each round writes a byte then a run of each type, so the runs start at every offset modulo
    // their width, before and after the array grows (the output keeps a view per alignment).
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    final java.util.Random random = new java.util.Random(3);
    final int rounds = 40;
    final int[] lengths = new int[rounds];
    final Object[][] written = new Object[rounds][];
    for (int r = 0; r < rounds; r++) {
      final int n = 1 + random.nextInt(3 * r + 2);
      lengths[r] = n;
      final short[] shorts = new short[n];
      final char[] chars = new char[n];
      final int[] ints = new int[n];
      final float[] floats = new float[n];
      final long[] longs = new long[n];
      final double[] doubles = new double[n];
      for (int i = 0; i < n; i++) {
        shorts[i] = (short) random.nextInt();
        chars[i] = (char) random.nextInt();
        ints[i] = random.nextInt();
        floats[i] = random.nextFloat();
        longs[i] = random.nextLong();
        doubles[i] = random.nextDouble();
      }
      written[r] = new Object[] {shorts, chars, ints, floats, longs, doubles};
      out.putByte(r);
      out.shorts(shorts, 0, n);
      out.putByte(r);
      out.chars(chars, 0, n);
      out.putByte(r);
      out.ints(ints, 0, n);
      out.putByte(r);
      out.floats(floats, 0, n);
      out.putByte(r);
      out.longs(longs, 0, n);
      out.putByte(r);
      out.doubles(doubles, 0, n);
    }
    final BinaryInput<RuntimeException> in = readBack(out, 0);
    for (int r = 0; r < rounds; r++) {
      final int n = lengths[r];
      final short[] shorts = new short[n];
      final char[] chars = new char[n];
      final int[] ints = new int[n];
      final float[] floats = new float[n];
      final long[] longs = new long[n];
      final double[] doubles = new double[n];
      assertEquals(r, in.getByte());
      in.shorts(shorts, 0, n);
      assertEquals(r, in.getByte());
      in.chars(chars, 0, n);
      assertEquals(r, in.getByte());
      in.ints(ints, 0, n);
      assertEquals(r, in.getByte());
      in.floats(floats, 0, n);
      assertEquals(r, in.getByte());
      in.longs(longs, 0, n);
      assertEquals(r, in.getByte());
      in.doubles(doubles, 0, n);
      assertArrayEquals((short[]) written[r][0], shorts, "round " + r);
      assertArrayEquals((char[]) written[r][1], chars, "round " + r);
      assertArrayEquals((int[]) written[r][2], ints, "round " + r);
      assertArrayEquals((float[]) written[r][3], floats, "round " + r);
      assertArrayEquals((long[]) written[r][4], longs, "round " + r);
      assertArrayEquals((double[]) written[r][5], doubles, "round " + r);
    }
    assertEquals(true, out.size() > FIRST, "the array grew");
  }
}
