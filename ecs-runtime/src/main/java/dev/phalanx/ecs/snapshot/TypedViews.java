package dev.phalanx.ecs.snapshot;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;

/**
 * Little-endian typed views of one byte array, through which {@link BinaryOutput} and {@link
 * BinaryInput} copy whole runs of primitives in bulk (one copy per run, no per-element work).
 *
 * <p>A typed view's elements sit at a fixed byte alignment, so there is one view per element type
 * and alignment (the byte offset modulo the element's width), made on first use and kept until the
 * array is replaced ({@link #of}): a bulk copy at any offset allocates nothing once the views it
 * needs exist. The element at byte offset {@code at} is element {@link #index}{@code (at, width)}
 * of the view {@code shorts(at)}, {@code ints(at)} and so on return.
 */
final class TypedViews {

  private byte[] array;
  private final ShortBuffer[] shorts = new ShortBuffer[2];
  private final CharBuffer[] chars = new CharBuffer[2];
  private final IntBuffer[] ints = new IntBuffer[4];
  private final FloatBuffer[] floats = new FloatBuffer[4];
  private final LongBuffer[] longs = new LongBuffer[8];
  private final DoubleBuffer[] doubles = new DoubleBuffer[8];

  /** Views of {@code array}. */
  TypedViews(final byte[] array) {
    this.array = array;
  }

  /** Views {@code array} from now on; the views of an earlier array are dropped. */
  void of(final byte[] replacement) {
    if (replacement == array) {
      return;
    }
    array = replacement;
    Arrays.fill(shorts, null);
    Arrays.fill(chars, null);
    Arrays.fill(ints, null);
    Arrays.fill(floats, null);
    Arrays.fill(longs, null);
    Arrays.fill(doubles, null);
  }

  /** {@return the index, in the views of {@code width}-byte elements, of the one at {@code at}} */
  static int index(final int at, final int width) {
    return (at & -width) / width;
  }

  ShortBuffer shorts(final int at) {
    final int alignment = at & 1;
    if (null == shorts[alignment]) {
      shorts[alignment] = from(alignment).asShortBuffer();
    }
    return shorts[alignment];
  }

  CharBuffer chars(final int at) {
    final int alignment = at & 1;
    if (null == chars[alignment]) {
      chars[alignment] = from(alignment).asCharBuffer();
    }
    return chars[alignment];
  }

  IntBuffer ints(final int at) {
    final int alignment = at & 3;
    if (null == ints[alignment]) {
      ints[alignment] = from(alignment).asIntBuffer();
    }
    return ints[alignment];
  }

  FloatBuffer floats(final int at) {
    final int alignment = at & 3;
    if (null == floats[alignment]) {
      floats[alignment] = from(alignment).asFloatBuffer();
    }
    return floats[alignment];
  }

  LongBuffer longs(final int at) {
    final int alignment = at & 7;
    if (null == longs[alignment]) {
      longs[alignment] = from(alignment).asLongBuffer();
    }
    return longs[alignment];
  }

  DoubleBuffer doubles(final int at) {
    final int alignment = at & 7;
    if (null == doubles[alignment]) {
      doubles[alignment] = from(alignment).asDoubleBuffer();
    }
    return doubles[alignment];
  }

  /** {@return the array's bytes from {@code alignment} on, little-endian} */
  private ByteBuffer from(final int alignment) {
    return ByteBuffer.wrap(array, alignment, array.length - alignment)
        .slice()
        .order(ByteOrder.LITTLE_ENDIAN);
  }
}
