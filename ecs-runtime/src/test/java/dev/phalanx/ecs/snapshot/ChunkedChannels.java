package dev.phalanx.ecs.snapshot;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Channels that move a few bytes per call, for tests of the snapshot streams' refills and flushes.
 */
final class ChunkedChannels {

  private ChunkedChannels() {}

  /**
   * A channel that gives at most {@code chunk} bytes per call, and nothing on every other call if
   * it {@code stutters}.
   */
  static final class Source implements ReadableByteChannel {
    private final byte[] bytes;
    private final int chunk;
    private final boolean stutters;
    private boolean idle;
    private int position;

    Source(final byte[] bytes, final int chunk) {
      this(bytes, chunk, false);
    }

    Source(final byte[] bytes, final int chunk, final boolean stutters) {
      this.bytes = bytes;
      this.chunk = chunk;
      this.stutters = stutters;
    }

    @Override
    public int read(final ByteBuffer target) {
      if (position == bytes.length) {
        return -1;
      }
      idle = stutters && !idle;
      if (idle) {
        return 0;
      }
      final int n = Math.min(Math.min(chunk, target.remaining()), bytes.length - position);
      target.put(bytes, position, n);
      position += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  /** A channel that takes at most {@code chunk} bytes per call. */
  static final class Trickle implements WritableByteChannel {
    private final ByteArrayOutputStream bytes;
    private final int chunk;

    Trickle(final ByteArrayOutputStream bytes, final int chunk) {
      this.bytes = bytes;
      this.chunk = chunk;
    }

    @Override
    public int write(final ByteBuffer source) {
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
