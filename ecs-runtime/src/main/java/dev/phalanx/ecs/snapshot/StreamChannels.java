package dev.phalanx.ecs.snapshot;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Channels over streams for the snapshot classes, whose buffers are heap arrays: bytes go straight
 * between the stream and the buffer's array. ({@link java.nio.channels.Channels#newChannel} copies
 * them through a buffer of its own, one more pass over the whole snapshot.) They take heap buffers,
 * as the snapshot classes' are, and serve one thread at a time, like the streams they wrap. Closing
 * a channel closes its stream.
 */
final class StreamChannels {

  private StreamChannels() {}

  /** {@return a channel reading from {@code in}} */
  static ReadableByteChannel reading(final InputStream in) {
    return new ReadableByteChannel() {
      private boolean open = true;

      @Override
      public int read(final ByteBuffer target) throws IOException {
        final int read =
            in.read(target.array(), target.arrayOffset() + target.position(), target.remaining());
        // -1 at the end of the stream moves nothing.
        target.position(target.position() + Math.max(0, read));
        return read;
      }

      @Override
      public boolean isOpen() {
        return open;
      }

      @Override
      public void close() throws IOException {
        open = false;
        in.close();
      }
    };
  }

  /** {@return a channel reading {@code source}'s remaining bytes, moving its position} */
  static ReadableByteChannel reading(final ByteBuffer source) {
    return new ReadableByteChannel() {
      @Override
      public int read(final ByteBuffer target) {
        if (!source.hasRemaining()) {
          return -1;
        }
        final int n = Math.min(target.remaining(), source.remaining());
        target.put(target.position(), source, source.position(), n);
        target.position(target.position() + n);
        source.position(source.position() + n);
        return n;
      }

      @Override
      public boolean isOpen() {
        return true;
      }

      @Override
      public void close() {}
    };
  }

  /** {@return a channel writing to {@code out}} */
  static WritableByteChannel writing(final OutputStream out) {
    return new WritableByteChannel() {
      private boolean open = true;

      @Override
      public int write(final ByteBuffer source) throws IOException {
        final int length = source.remaining();
        out.write(source.array(), source.arrayOffset() + source.position(), length);
        source.position(source.limit());
        return length;
      }

      @Override
      public boolean isOpen() {
        return open;
      }

      @Override
      public void close() throws IOException {
        open = false;
        out.close();
      }
    };
  }
}
