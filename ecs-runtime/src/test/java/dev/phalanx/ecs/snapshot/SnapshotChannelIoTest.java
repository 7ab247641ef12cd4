package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte-level snapshot streams ({@link BinaryOutput}, {@link BinaryInput}, through channels) on
 * the paths that {@code SnapshotStreamTest} leaves out: booleans, bytes, names and string values,
 * skipping, the 64 KiB blocks handed to the channel, byte offsets, and the messages of a truncated
 * or corrupt stream (which name the offset and what was being read).
 */
class SnapshotChannelIoTest {

  private static final int BLOCK = 1 << 16;

  /** Booleans are one byte each, 0 or 1; bytes are copied; both survive buffer boundaries. */
  @Test
  void booleansAndBytesRoundTripAcrossFlushesAndRefills() throws IOException {
    final Random random = new Random(5);
    final int n = 3 * BLOCK + 77;
    final boolean[] flags = new boolean[n + 3];
    final byte[] bytes = new byte[n + 3];
    for (int i = 0; i < n + 3; i++) {
      flags[i] = random.nextBoolean();
      bytes[i] = (byte) random.nextInt();
    }
    final Recorder recorder = new Recorder(Integer.MAX_VALUE);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putByte(0x55);
    out.booleans(flags, 3, n);
    out.putBytes(bytes, 3, n);
    out.flush();
    final byte[] written = recorder.bytes();
    assertEquals(1 + 2L * n, written.length);
    for (int i = 0; i < n; i++) {
      assertEquals(flags[3 + i] ? 1 : 0, written[1 + i], "boolean " + i);
    }
    assertArrayEquals(
        Arrays.copyOfRange(bytes, 3, n + 3), Arrays.copyOfRange(written, 1 + n, 1 + 2 * n));

    final BinaryInput<IOException> in = BinaryInput.of(new ChunkedChannels.Source(written, 1000));
    assertEquals(0x55, in.getByte());
    final boolean[] flagsBack = new boolean[n + 2];
    in.booleans(flagsBack, 2, n);
    assertArrayEquals(Arrays.copyOfRange(flags, 3, n + 3), Arrays.copyOfRange(flagsBack, 2, n + 2));
    final byte[] bytesBack = new byte[n + 1];
    in.getBytes(bytesBack, 1, n);
    assertArrayEquals(Arrays.copyOfRange(bytes, 3, n + 3), Arrays.copyOfRange(bytesBack, 1, n + 1));
    assertEquals(written.length, in.offset());
  }

  /** Any non-zero byte reads as {@code true}; bytes read back signed. */
  @Test
  void anyNonZeroByteIsTrue() throws IOException {
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(new byte[] {0, 1, 2, (byte) 0x80, -1, -2}, 3));
    final boolean[] flags = new boolean[5];
    in.booleans(flags, 0, 5);
    assertArrayEquals(new boolean[] {false, true, true, true, true}, flags);
    assertEquals(-2, in.getByte());
  }

  /** Names are UTF-8 with a byte length; string values UTF-16 with a char length, -1 for null. */
  @Test
  void namesAndStringValuesHaveTheirDocumentedEncodings() throws IOException {
    final Recorder recorder = new Recorder(Integer.MAX_VALUE);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putString("\u00e9!");
    out.putChars("\u00e9!");
    out.putChars(null);
    out.putChars("");
    out.flush();
    assertArrayEquals(
        new byte[] {
          3,
          0,
          0,
          0,
          (byte) 0xC3,
          (byte) 0xA9,
          '!', // UTF-8
          2,
          0,
          0,
          0,
          (byte) 0xE9,
          0,
          '!',
          0, // UTF-16LE
          -1,
          -1,
          -1,
          -1, // null
          0,
          0,
          0,
          0 // empty
        },
        recorder.bytes());
    assertEquals(23, out.offset());
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(recorder.bytes(), 1));
    assertEquals("\u00e9!", in.getString());
    assertEquals("\u00e9!", in.getChars());
    assertNull(in.getChars());
    assertEquals("", in.getChars());
    assertEquals(23, in.offset());
  }

  /** Long strings (surrogate pairs included) cross the buffers' boundaries at odd offsets. */
  @Test
  void longStringValuesRoundTripAcrossBuffers() throws IOException {
    final Random random = new Random(9);
    final StringBuilder builder = new StringBuilder();
    while (builder.length() < 100_001) {
      builder.appendCodePoint(
          random.nextInt(4) == 0 ? 0x1F600 + random.nextInt(50) : 32 + random.nextInt(0x3000));
    }
    final String[] values = {builder.toString(), builder.substring(7, 70_007), "tail"};
    final Recorder recorder = new Recorder(333);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putByte(1);
    for (final String value : values) {
      out.putChars(value);
    }
    out.flush();
    long expected = 1;
    for (final String value : values) {
      expected += 4 + 2L * value.length();
    }
    assertEquals(expected, recorder.bytes().length);
    assertEquals(expected, out.offset());
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(recorder.bytes(), 4099));
    assertEquals(1, in.getByte());
    for (final String value : values) {
      assertEquals(value, in.getChars());
    }
    assertEquals(expected, in.offset());
  }

  /** A name may take up to 64 KiB, even when it starts at an odd offset; more is corrupt. */
  @Test
  void namesUpTo64KiBAreReadAndLongerOnesRefused() throws IOException {
    final char[] letters = new char[BLOCK];
    Arrays.fill(letters, 'n');
    final String longest = new String(letters);
    final Recorder recorder = new Recorder(Integer.MAX_VALUE);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putByte(3);
    out.putString(longest);
    out.putInt(BLOCK + 1);
    out.flush();
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(recorder.bytes(), 5000));
    assertEquals(3, in.getByte());
    assertEquals(longest, in.getString());
    in.where = "storage Position";
    final SnapshotFormatException e = assertThrows(SnapshotFormatException.class, in::getString);
    assertEquals(
        "corrupt count of string bytes: 65537 (expected 0 to 65536) (reading storage Position)"
            + " (at byte 65541)",
        e.getMessage());
    assertEquals(1 + 4 + BLOCK, e.offset());
  }

  /** A name that is not UTF-8 is refused where its bytes start. */
  @Test
  void malformedUtf8InANameIsRefused() {
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(new byte[] {9, 2, 0, 0, 0, (byte) 0xC3, '('}, 2));
    in.where = "storage Velocity, field dx";
    final SnapshotFormatException e =
        assertThrows(
            SnapshotFormatException.class,
            () -> {
              in.getByte();
              in.getString();
            });
    assertEquals(
        "malformed UTF-8 in a name (reading storage Velocity, field dx) (at byte 5)",
        e.getMessage());
    assertEquals(5, e.offset());
    assertEquals("storage Velocity, field dx", in.where);
  }

  /** A stream that ends early says how many bytes were missing, where, and what was read. */
  @Test
  void aTruncatedStreamNamesTheMissingBytesAndTheOffset() throws IOException {
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(new byte[] {1, 0, 0, 0, 7, 7}, 4));
    assertEquals("the header", in.where);
    assertEquals(1, in.getInt());
    final SnapshotFormatException e = assertThrows(SnapshotFormatException.class, in::getLong);
    assertEquals(
        "truncated stream: 6 more byte(s) expected (reading the header) (at byte 4)",
        e.getMessage());
    assertEquals(4, e.offset());
  }

  /** Every read fails with "truncated" at the end of the stream, not with a wrong value. */
  @Test
  void everyReadRefusesToRunPastTheEnd() {
    final byte[] three = {1, 2, 3};
    final List<Reader> reads =
        List.of(
            in -> in.getInt(),
            in -> in.getLong(),
            in -> in.getChars(),
            in -> in.getString(),
            in -> in.getBytes(new byte[4], 0, 4),
            in -> in.booleans(new boolean[4], 0, 4),
            in -> in.shorts(new short[2], 0, 2),
            in -> in.chars(new char[2], 0, 2),
            in -> in.ints(new int[1], 0, 1),
            in -> in.longs(new long[1], 0, 1),
            in -> in.floats(new float[1], 0, 1),
            in -> in.doubles(new double[1], 0, 1),
            in -> in.skip(4));
    for (final Reader read : reads) {
      final BinaryInput<IOException> in = BinaryInput.of(new ChunkedChannels.Source(three, 2));
      final SnapshotFormatException e =
          assertThrows(SnapshotFormatException.class, () -> read.read(in));
      assertEquals(true, e.getMessage().startsWith("truncated stream: "), e.getMessage());
    }
    // A string value whose length promises more characters than the stream holds.
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(new byte[] {0, 0, 0, 0x7F, 'a', 0}, 6));
    final SnapshotFormatException e = assertThrows(SnapshotFormatException.class, in::getChars);
    assertEquals(
        "truncated stream: 2 more byte(s) expected (reading the header) (at byte 6)",
        e.getMessage());
  }

  /** Counts must lie in [0, max]; the error points at the count's first byte. */
  @Test
  void countsOutsideTheirRangeAreCorrupt() throws IOException {
    final ByteBuffer bytes = ByteBuffer.allocate(17).order(ByteOrder.LITTLE_ENDIAN);
    bytes.put((byte) 0).putInt(0).putInt(5).putInt(6).putInt(-1);
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(bytes.array(), 3));
    in.getByte();
    in.where = "the entities";
    assertEquals(0, in.getCount("entities", 5));
    assertEquals(5, in.getCount("entities", 5));
    final SnapshotFormatException tooMany =
        assertThrows(SnapshotFormatException.class, () -> in.getCount("entities", 5));
    assertEquals(
        "corrupt count of entities: 6 (expected 0 to 5) (reading the entities) (at byte 9)",
        tooMany.getMessage());
    final SnapshotFormatException negative =
        assertThrows(SnapshotFormatException.class, () -> in.getCount("elements", 5));
    assertEquals(
        "corrupt count of elements: -1 (expected 0 to 5) (reading the entities) (at byte 13)",
        negative.getMessage());
    assertEquals(13, negative.offset());
  }

  /** A string value's length below -1 is corrupt; -1 alone means null. */
  @Test
  void stringLengthsBelowMinusOneAreCorrupt() {
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(new byte[] {7, -2, -1, -1, -1}, 5));
    in.where = "storage Name, field text";
    final SnapshotFormatException e =
        assertThrows(
            SnapshotFormatException.class,
            () -> {
              in.getByte();
              in.getChars();
            });
    assertEquals(
        "corrupt string length -2 (reading storage Name, field text) (at byte 1)", e.getMessage());
    assertEquals(1, e.offset());
  }

  /** Skipping moves the offset by exactly the bytes skipped, across refills. */
  @Test
  void skippingCrossesRefillsAndKeepsTheOffset() throws IOException {
    final byte[] bytes = new byte[3 * BLOCK + 10];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31 + (i >>> 8));
    }
    final BinaryInput<IOException> in = BinaryInput.of(new ChunkedChannels.Source(bytes, 7001));
    in.skip(0);
    assertEquals(0, in.offset());
    assertEquals(bytes[0], in.getByte());
    in.skip(2 * BLOCK + 5);
    assertEquals(2 * BLOCK + 6, in.offset());
    assertEquals(bytes[2 * BLOCK + 6], in.getByte());
    in.skip(BLOCK);
    assertEquals(bytes[3 * BLOCK + 7], in.getByte());
    in.skip(2);
    assertEquals(bytes.length, in.offset());
    final SnapshotFormatException e = assertThrows(SnapshotFormatException.class, () -> in.skip(1));
    assertEquals(bytes.length, e.offset());
  }

  /** The offset counts every byte read, whatever the channel delivers per call. */
  @Test
  void theOffsetCountsEveryByteRead() throws IOException {
    final ByteBuffer bytes = ByteBuffer.allocate(BLOCK * 2).order(ByteOrder.LITTLE_ENDIAN);
    final List<Long> values = new ArrayList<>();
    final Random random = new Random(2);
    while (bytes.remaining() >= 13) {
      final long value = random.nextLong();
      values.add(value);
      bytes.put((byte) value).putInt((int) value).putLong(value);
    }
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(bytes.array(), 777));
    long offset = 0;
    for (final long value : values) {
      assertEquals((byte) value, in.getByte());
      assertEquals((int) value, in.getInt());
      assertEquals(value, in.getLong());
      offset += 13;
      assertEquals(offset, in.offset());
    }
    final SnapshotFormatException e = in.error("bad thing");
    assertEquals("bad thing (reading the header) (at byte " + offset + ")", e.getMessage());
    assertEquals(offset, e.offset());
  }

  /**
   * Reads that straddle a refill keep the unread bytes, whether the channel fills the whole buffer
   * at once, delivers nothing on some calls (as a non-blocking channel may), or ends exactly where
   * the last value does.
   */
  @Test
  void refillsKeepUnreadBytesWhateverTheChannelDelivers() throws IOException {
    final ByteBuffer bytes = ByteBuffer.allocate(3 * BLOCK + 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; bytes.remaining() >= 4; i++) {
      bytes.putInt(i * 0x9E3779B9);
    }
    for (final ChunkedChannels.Source source :
        List.of(
            new ChunkedChannels.Source(bytes.array(), Integer.MAX_VALUE),
            new ChunkedChannels.Source(bytes.array(), 6, true),
            new ChunkedChannels.Source(bytes.array(), 4099, true))) {
      final BinaryInput<IOException> in = BinaryInput.of(source);
      assertEquals(0, in.getByte()); // every int below straddles the 64 KiB boundaries
      in.skip(3);
      for (int i = 1; i < bytes.capacity() / 4; i++) {
        assertEquals(i * 0x9E3779B9, in.getInt(), "int " + i);
      }
      assertEquals(bytes.capacity(), in.offset());
    }
    // The stream ends exactly with the last value, which needed a refill.
    final BinaryInput<IOException> in =
        BinaryInput.of(new ChunkedChannels.Source(new byte[] {1, 0, 0, 0, 2, 0, 0, 0}, 6));
    assertEquals(1, in.getInt());
    assertEquals(2, in.getInt());
    assertEquals(8, in.offset());
  }

  /** The channel gets whole 64 KiB blocks: a value is flushed only when it would not fit. */
  @Test
  void theChannelGetsFullBlocksAndValuesAreNeverSplitByAFlushOfLessThanTheirWidth()
      throws IOException {
    final Recorder recorder = new Recorder(Integer.MAX_VALUE);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putBytes(new byte[BLOCK - 4], 0, BLOCK - 4);
    out.putInt(0x01020304); // fits exactly: no flush yet
    assertEquals(List.of(), recorder.writes);
    assertEquals(BLOCK, out.offset());
    out.putByte(1); // a full buffer is flushed first
    assertEquals(List.of(BLOCK), recorder.writes);
    out.putBytes(new byte[BLOCK - 9], 0, BLOCK - 9);
    out.putLong(-1L); // fits exactly
    out.putBytes(new byte[3], 0, 3);
    out.putBytes(new byte[BLOCK - 7], 0, BLOCK - 7);
    out.ints(new int[] {5, 6}, 0, 2); // the first int fits exactly, the second does not
    out.putBytes(new byte[BLOCK - 12], 0, BLOCK - 12);
    out.longs(new long[] {7, 8}, 0, 2);
    out.putBytes(new byte[BLOCK - 10], 0, BLOCK - 10);
    out.shorts(new short[] {9, 10}, 0, 2);
    out.chars(new char[] {'a', 'b'}, 0, 2);
    out.floats(new float[] {1f}, 0, 1);
    out.doubles(new double[] {2d}, 0, 1);
    out.putChars("xy");
    out.booleans(new boolean[] {true}, 0, 1);
    out.flush();
    out.flush(); // nothing more to write
    final List<Integer> writes = recorder.writes;
    assertEquals(List.of(BLOCK, BLOCK, BLOCK, BLOCK, BLOCK, 2 + 4 + 4 + 8 + 4 + 4 + 1), writes);
    final ByteBuffer written = ByteBuffer.wrap(recorder.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0x01020304, written.getInt(BLOCK - 4));
    assertEquals(-1L, written.getLong(2 * BLOCK - 8));
    assertEquals(5, written.getInt(3 * BLOCK - 4));
    assertEquals(6, written.getInt(3 * BLOCK));
    assertEquals(7L, written.getLong(4 * BLOCK - 8));
    assertEquals(8L, written.getLong(4 * BLOCK));
    assertEquals(9, written.getShort(5 * BLOCK - 2));
    assertEquals(10, written.getShort(5 * BLOCK));
    assertEquals(5L * BLOCK + writes.get(5), out.offset());
  }

  /** A value that does not fit in the rest of the buffer is not split: the buffer goes first. */
  @Test
  void aValueThatDoesNotFitIsWrittenWholeAfterAFlush() throws IOException {
    final Recorder recorder = new Recorder(Integer.MAX_VALUE);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putBytes(new byte[BLOCK - 3], 0, BLOCK - 3);
    out.putLong(0x0102030405060708L);
    assertEquals(List.of(BLOCK - 3), recorder.writes);
    out.putBytes(new byte[BLOCK - 10], 0, BLOCK - 10);
    out.putInt(0x0A0B0C0D);
    assertEquals(List.of(BLOCK - 3, BLOCK - 2), recorder.writes);
    out.flush();
    final ByteBuffer written = ByteBuffer.wrap(recorder.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0x0102030405060708L, written.getLong(BLOCK - 3));
    assertEquals(0x0A0B0C0D, written.getInt(2 * BLOCK - 5));
    assertEquals(2 * BLOCK - 1, out.offset());
  }

  /** A channel that takes few bytes per call still receives every byte in order. */
  @Test
  void aSlowChannelReceivesEveryByte() throws IOException {
    final byte[] bytes = new byte[2 * BLOCK + 3];
    new Random(4).nextBytes(bytes);
    final Recorder recorder = new Recorder(1000);
    final BinaryOutput<IOException> out = BinaryOutput.to(recorder);
    out.putBytes(bytes, 0, bytes.length);
    assertEquals(bytes.length, out.offset());
    out.flush();
    assertArrayEquals(bytes, recorder.bytes());
    assertEquals(bytes.length, out.offset());
  }

  private interface Reader {
    void read(BinaryInput<IOException> in) throws IOException;
  }

  /** A channel that takes at most {@code chunk} bytes per call and records each flush's size. */
  private static final class Recorder implements WritableByteChannel {
    final List<Integer> writes = new ArrayList<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int chunk;
    private boolean inFlush;

    Recorder(final int chunk) {
      this.chunk = chunk;
    }

    byte[] bytes() {
      return bytes.toByteArray();
    }

    @Override
    public int write(final ByteBuffer source) {
      if (0 == source.position()) {
        writes.add(source.remaining()); // the start of a flush
      }
      final int n = Math.min(chunk, source.remaining());
      final byte[] part = new byte[n];
      source.get(part);
      bytes.write(part, 0, n);
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
