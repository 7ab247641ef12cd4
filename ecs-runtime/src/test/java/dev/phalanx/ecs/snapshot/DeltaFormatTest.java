package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DeltaFormat}'s output and input on their own: values that land across the end of the
 * output's first array read back whole, and every read past the delta's end (not the array's) is
 * refused, naming the offset from the delta's first byte.
 */
class DeltaFormatTest {

  /** The output's first array: 4 KiB. */
  private static final int FIRST = 1 << 12;

  private static DeltaFormat.Input readBack(final DeltaFormat.Output out, final int from) {
    final DeltaFormat.Input in = new DeltaFormat.Input(out.bytes, 0, out.size);
    in.at = from;
    return in;
  }

  @Test
  void aShortThatCrossesTheFirstArraysEndReadsBackWhole() throws SnapshotFormatException {
    final DeltaFormat.Output out = new DeltaFormat.Output();
    out.putBytes(new byte[FIRST - 1], 0, FIRST - 1);
    out.putShort((short) -12_345);
    out.putByte(7);
    assertEquals(FIRST + 2, out.size);
    final DeltaFormat.Input in = readBack(out, FIRST - 1);
    assertEquals((short) -12_345, in.getShort());
    assertEquals(7, in.getByte());
  }

  @Test
  void aCharThatCrossesTheFirstArraysEndReadsBackWhole() throws SnapshotFormatException {
    final DeltaFormat.Output out = new DeltaFormat.Output();
    out.putBytes(new byte[FIRST - 1], 0, FIRST - 1);
    out.putChar('\u20ac');
    assertEquals(FIRST + 1, out.size);
    assertEquals('\u20ac', readBack(out, FIRST - 1).getChar());
  }

  @Test
  void charsThatCrossTheFirstArraysEndReadBackWhole() throws SnapshotFormatException {
    final DeltaFormat.Output out = new DeltaFormat.Output();
    // The length (4 bytes) fits; the two chars after it do not.
    out.putBytes(new byte[FIRST - 6], 0, FIRST - 6);
    out.putChars("\u00e9t");
    out.putChars(null);
    assertEquals(FIRST - 6 + 4 + 4 + 4, out.size);
    final DeltaFormat.Input in = readBack(out, FIRST - 6);
    assertEquals("\u00e9t", in.getChars());
    assertNull(in.getChars());
    assertEquals(out.size, in.at);
  }

  /**
   * A delta held in the middle of a larger array (as a {@code ByteBuffer} load reads it): a field
   * one byte short of its width is refused, though the array holds more bytes after the delta's
   * end, and the offset is counted from the delta's first byte.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 8})
  void aFieldOneByteShortOfTheDeltasEndIsRefused(final int kind) throws SnapshotFormatException {
    final int width = 3 == kind ? 2 : kind;
    final byte[] array = new byte[64];
    Arrays.fill(array, (byte) 0x5a);
    final int start = 16;
    // Two whole ints, then width - 1 bytes: the delta ends there.
    final DeltaFormat.Input in = new DeltaFormat.Input(array, start, start + 8 + width - 1);
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
    assertTrue(
        refused
            .getMessage()
            .startsWith(
                "bad delta, in a test section: the delta ends after "
                    + (width - 1)
                    + " more bytes, "
                    + width
                    + " needed"),
        refused.getMessage());
    assertEquals(start + 8, in.at, "a refused read moves nothing");
  }

  @Test
  void aCountIsCheckedAgainstTheBytesItsItemsNeed() throws SnapshotFormatException {
    final byte[] array = new byte[64];
    final DeltaFormat.Input in = new DeltaFormat.Input(array, 4, 14);
    assertEquals(1, in.count(1, 8));
    assertEquals(5, in.count(5, 2));
    final SnapshotFormatException tooMany =
        assertThrows(SnapshotFormatException.class, () -> in.count(2, 8));
    assertTrue(tooMany.getMessage().contains("ends after 10 more bytes, 16 needed"));
    assertEquals(0, tooMany.offset());
    final SnapshotFormatException negative =
        assertThrows(SnapshotFormatException.class, () -> in.count(-1, 8));
    assertTrue(negative.getMessage().contains("negative count -1"));
  }

  @Test
  void aLengthPastTheDeltasEndIsRefusedBeforeTheStringIsRead() {
    final DeltaFormat.Output out = new DeltaFormat.Output();
    out.putInt(3); // three chars announced, two sent
    out.putChar('a');
    out.putChar('b');
    out.putBytes(new byte[8], 0, 8); // bytes after the delta's end
    final DeltaFormat.Input in = new DeltaFormat.Input(out.bytes, 0, 8);
    final SnapshotFormatException refused =
        assertThrows(SnapshotFormatException.class, in::getChars);
    assertTrue(refused.getMessage().contains("4 more bytes, 6 needed"), refused.getMessage());
  }
}
