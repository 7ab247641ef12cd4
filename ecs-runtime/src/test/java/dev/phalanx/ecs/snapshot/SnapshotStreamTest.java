package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The snapshot streams' bulk paths: runs of every primitive width, at odd byte offsets, across the
 * 64 KiB buffer's refills and flushes, through channels that move few bytes per call. The bytes
 * must be little-endian whatever the platform, and read back equal.
 */
class SnapshotStreamTest {

  @Test
  void runsOfEveryWidthRoundTripAcrossBufferBoundariesAtOddOffsets() throws IOException {
    for (long seed = 1; seed <= 20; seed++) {
      final Random random = new Random(seed);
      final int n = 1 + random.nextInt(40_000);
      final int from = random.nextInt(5);
      final short[] shorts = new short[from + n];
      final char[] chars = new char[from + n];
      final int[] ints = new int[from + n];
      final long[] longs = new long[from + n];
      final float[] floats = new float[from + n];
      final double[] doubles = new double[from + n];
      for (int i = 0; i < from + n; i++) {
        shorts[i] = (short) random.nextInt();
        chars[i] = (char) random.nextInt();
        ints[i] = random.nextInt();
        longs[i] = random.nextLong();
        floats[i] = Float.intBitsToFloat(random.nextInt()); // NaN payloads included
        doubles[i] = Double.longBitsToDouble(random.nextLong());
      }
      final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      final int chunk = 1 + random.nextInt(3000);
      final BinaryOutput<IOException> out =
          BinaryOutput.to(new ChunkedChannels.Trickle(bytes, chunk));
      out.putByte(7); // every run below starts at an odd offset
      out.shorts(shorts, from, n);
      out.putByte(8);
      out.chars(chars, from, n);
      out.ints(ints, from, n);
      out.putByte(9);
      out.longs(longs, from, n);
      out.floats(floats, from, n);
      out.putByte(10);
      out.doubles(doubles, from, n);
      out.flush();
      final byte[] written = bytes.toByteArray();
      assertEquals(4 + (2 + 2 + 4 + 8 + 4 + 8) * (long) n, written.length);
      // After a byte, the shorts, a byte and the chars: the first int is at 2 + 4n.
      assertEquals(
          ints[from],
          ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN).getInt(2 + 4 * n),
          "ints are little-endian, seed " + seed);

      final BinaryInput<IOException> in =
          BinaryInput.of(new ChunkedChannels.Source(written, chunk));
      assertEquals(7, in.getByte());
      assertArrayEquals(slice(shorts, from), read((t) -> in.shorts(t, 0, n), new short[n]));
      assertEquals(8, in.getByte());
      assertArrayEquals(slice(chars, from), read((t) -> in.chars(t, 0, n), new char[n]));
      assertArrayEquals(slice(ints, from), read((t) -> in.ints(t, 0, n), new int[n]));
      assertEquals(9, in.getByte());
      assertArrayEquals(slice(longs, from), read((t) -> in.longs(t, 0, n), new long[n]));
      final float[] floatsBack = read((t) -> in.floats(t, 0, n), new float[n]);
      for (int i = 0; i < n; i++) {
        assertEquals(
            Float.floatToRawIntBits(floats[from + i]), Float.floatToRawIntBits(floatsBack[i]));
      }
      assertEquals(10, in.getByte());
      final double[] doublesBack = read((t) -> in.doubles(t, 0, n), new double[n]);
      for (int i = 0; i < n; i++) {
        assertEquals(
            Double.doubleToRawLongBits(doubles[from + i]),
            Double.doubleToRawLongBits(doublesBack[i]));
      }
      assertEquals(written.length, in.offset());
    }
  }

  private interface Reader<T> {
    void read(T target) throws IOException;
  }

  private static <T> T read(final Reader<T> reader, final T target) throws IOException {
    reader.read(target);
    return target;
  }

  private static short[] slice(final short[] a, final int from) {
    return java.util.Arrays.copyOfRange(a, from, a.length);
  }

  private static char[] slice(final char[] a, final int from) {
    return java.util.Arrays.copyOfRange(a, from, a.length);
  }

  private static int[] slice(final int[] a, final int from) {
    return java.util.Arrays.copyOfRange(a, from, a.length);
  }

  private static long[] slice(final long[] a, final int from) {
    return java.util.Arrays.copyOfRange(a, from, a.length);
  }
}
