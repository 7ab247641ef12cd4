package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The stream-backed channels the snapshot classes read and write through. */
class StreamChannelsTest {

  @Test
  void readingFillsTheBufferFromItsPositionAndReportsTheEnd() throws IOException {
    final AtomicBoolean closed = new AtomicBoolean();
    final ReadableByteChannel channel =
        StreamChannels.reading(
            new ByteArrayInputStream(new byte[] {1, 2, 3, 4, 5}) {
              @Override
              public void close() {
                closed.set(true);
              }
            });
    // A buffer that is a slice of a larger array, with a position: both offsets count.
    final ByteBuffer target = ByteBuffer.wrap(new byte[10], 2, 6).slice();
    target.position(1).limit(4);
    assertEquals(3, channel.read(target));
    assertEquals(4, target.position());
    assertArrayEquals(new byte[] {0, 0, 0, 1, 2, 3, 0, 0, 0, 0}, target.array());
    target.limit(6);
    assertEquals(2, channel.read(target));
    assertEquals(-1, channel.read(target.position(0)));
    assertEquals(0, target.position());
    assertTrue(channel.isOpen());
    channel.close();
    assertFalse(channel.isOpen());
    assertTrue(closed.get());
  }

  @Test
  void writingSendsTheRemainingBytesAndConsumesThem() throws IOException {
    final AtomicBoolean closed = new AtomicBoolean();
    final ByteArrayOutputStream out =
        new ByteArrayOutputStream() {
          @Override
          public void close() {
            closed.set(true);
          }
        };
    final WritableByteChannel channel = StreamChannels.writing(out);
    final ByteBuffer source = ByteBuffer.wrap(new byte[] {9, 8, 7, 6, 5, 4}, 1, 4).slice();
    source.position(1);
    assertEquals(3, channel.write(source));
    assertEquals(source.limit(), source.position());
    assertArrayEquals(new byte[] {7, 6, 5}, out.toByteArray());
    assertTrue(channel.isOpen());
    channel.close();
    assertFalse(channel.isOpen());
    assertTrue(closed.get());
  }

  /**
   * A channel over a buffer reads its remaining bytes, moves its position, reports the end, and is
   * open until the end and after a close, which has nothing to release.
   */
  @Test
  void readingABufferMovesItsPositionAndStaysOpen() throws IOException {
    final ByteBuffer source = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5});
    source.position(1);
    final ReadableByteChannel channel = StreamChannels.reading(source);
    final ByteBuffer target = ByteBuffer.allocate(3);
    assertEquals(3, channel.read(target));
    assertArrayEquals(new byte[] {2, 3, 4}, target.array());
    assertEquals(4, source.position());
    assertTrue(channel.isOpen());
    assertEquals(1, channel.read(target.clear()));
    assertEquals(5, target.get(0));
    assertEquals(-1, channel.read(target.clear()));
    channel.close();
    assertTrue(channel.isOpen());
  }
}
