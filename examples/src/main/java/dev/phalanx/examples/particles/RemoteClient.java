package dev.phalanx.examples.particles;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.AckedDeltaLoader;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.ByteBuffer;
import java.util.EnumMap;

/**
 * A game client at the far end of a {@link LossyLink}: its own registry with the world's storages
 * and no systems, an {@link AckedDeltaLoader} that applies the deltas as their fragments come
 * together, and the acknowledgement it sends back each frame (its {@link
 * AckedDeltaLoader#sequence() sequence}). It holds what its server's writer chose for it: the part
 * of the world near its {@link Viewpoint}, as of the newest delta it applied.
 */
public final class RemoteClient implements AutoCloseable {

  private final Registry registry = new Registry();
  private final Storages storages = new Storages(registry);
  private final AckedDeltaLoader loader = new AckedDeltaLoader(registry);
  private final DeltaFragments.Assembler assembler = new DeltaFragments.Assembler();
  private final DatagramSocket socket;
  private final byte[] acknowledgement = new byte[Long.BYTES];
  private final EnumMap<AckedDeltaLoader.Outcome, Long> outcomes =
      new EnumMap<>(AckedDeltaLoader.Outcome.class);

  /**
   * Creates a client listening on a free loopback port.
   *
   * @throws IOException if the socket cannot be opened
   */
  public RemoteClient() throws IOException {
    socket = LossyLink.endpoint();
  }

  /** {@return the socket the server's datagrams arrive at} */
  public DatagramSocket socket() {
    return socket;
  }

  /**
   * Takes one datagram from the server; applies the delta it completes.
   *
   * @param datagram the bytes
   * @param length the datagram's length
   * @throws IllegalStateException if a whole delta is malformed (the link does not corrupt bytes,
   *     so this is a defect)
   */
  public void receive(final byte[] datagram, final int length) {
    final DeltaFragments.Whole delta = assembler.add(datagram, length);
    if (null == delta) {
      return; // fragments missing
    }
    try {
      outcomes.merge(loader.load(delta.bytes(), delta.length()), 1L, Long::sum);
    } catch (SnapshotFormatException e) {
      throw new IllegalStateException("delta " + delta.sequence() + " is malformed", e);
    }
  }

  /**
   * Sends this frame's acknowledgement, the sequence of the newest delta applied, into {@code up}
   * (nothing before the first).
   *
   * @param up the link to the server
   * @param frame the current frame
   */
  public void acknowledge(final LossyLink up, final int frame) {
    if (0 != loader.sequence()) {
      ByteBuffer.wrap(acknowledgement).putLong(loader.sequence());
      up.send(acknowledgement, acknowledgement.length, frame);
    }
  }

  /** {@return the sequence of the newest delta applied, 0 before the first} */
  public long sequence() {
    return loader.sequence();
  }

  /** {@return how many deltas ended with {@code outcome}} */
  public long count(final AckedDeltaLoader.Outcome outcome) {
    return outcomes.getOrDefault(outcome, 0L);
  }

  /** {@return the fingerprint of what the client holds, as {@link World#checksum()}} */
  public long checksum() {
    return World.checksum(storages);
  }

  /** {@return the client's registry} */
  public Registry registry() {
    return registry;
  }

  @Override
  public void close() {
    socket.close();
  }
}
