package dev.phalanx.examples.particles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One direction of a network link between two UDP sockets on the loopback interface, made as bad as
 * a real one on purpose: each datagram sent is dropped with probability {@code loss}, and held back
 * one to {@value #MAX_HOLD} frames with probability {@code holdBack}, so that a later datagram
 * overtakes it (reordering). The draws come from a seeded generator: the same seed, the same fate
 * for the same sequence of datagrams.
 *
 * <p>The datagrams that survive travel through real sockets: {@link #deliver} sends each one that
 * is due from the sending socket to the receiving one and reads it there, then hands it to the
 * receiving side. Sender and receiver live in one thread here, so each datagram is read as soon as
 * it was sent, before the next: the receiving socket's buffer never overflows. Should the operating
 * system lose one all the same (nothing arrives within a second), it counts as dropped: the
 * protocol above copes with loss of any cause.
 */
public final class LossyLink implements AutoCloseable {

  /** The most frames a held-back datagram waits. */
  public static final int MAX_HOLD = 3;

  /** The largest datagram the link carries: loopback takes up to 64 KiB per datagram. */
  public static final int MAX_DATAGRAM = 60_000;

  /** Receives the datagrams that reach the far end. */
  @FunctionalInterface
  public interface Receiver {
    /**
     * Takes one datagram.
     *
     * @param datagram the bytes, valid during the call only
     * @param length the datagram's length
     */
    void receive(byte[] datagram, int length);
  }

  private final DatagramSocket from;
  private final DatagramSocket to;
  private final Receiver receiver;
  private final SplittableRandom random;
  private final double loss;
  private final double holdBack;
  // Datagrams in flight, each with the frame it is due: delivered in the order they were sent
  // among those due, so a held-back datagram arrives after those sent later and due earlier.
  private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
  private final DatagramPacket incoming = new DatagramPacket(new byte[MAX_DATAGRAM], MAX_DATAGRAM);
  private long sentBytes;
  private long sentDatagrams;
  private long droppedDatagrams;
  private long heldBackDatagrams;

  /**
   * Opens a link from a new socket to {@code to}.
   *
   * @param to the receiving socket, bound to the loopback address
   * @param receiver what the receiving side does with each datagram
   * @param seed the seed of the link's draws
   * @param loss the share of datagrams dropped, in {@code [0, 1)}
   * @param holdBack the share of datagrams held back one to {@value #MAX_HOLD} frames, in {@code
   *     [0, 1]}
   * @throws IOException if the sending socket cannot be opened
   */
  public LossyLink(
      final DatagramSocket to,
      final Receiver receiver,
      final long seed,
      final double loss,
      final double holdBack)
      throws IOException {
    if (!(loss >= 0 && loss < 1) || !(holdBack >= 0 && holdBack <= 1)) {
      throw new IllegalArgumentException(
          "a link's loss is in [0, 1) and its hold-back in [0, 1]; got " + loss + ", " + holdBack);
    }
    this.from = new DatagramSocket(0, InetAddress.getLoopbackAddress());
    this.to = to;
    this.receiver = receiver;
    this.random = new SplittableRandom(seed);
    this.loss = loss;
    this.holdBack = holdBack;
  }

  /**
   * Opens a socket bound to a free port of the loopback address, for the receiving end of a link.
   *
   * @return the socket
   * @throws IOException if it cannot be opened
   */
  public static DatagramSocket endpoint() throws IOException {
    final DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
    socket.setSoTimeout(1_000);
    return socket;
  }

  /**
   * Sends a datagram in frame {@code frame}: the link decides now whether it is dropped or held
   * back; otherwise it is delivered by the next {@link #deliver}{@code (frame)}.
   *
   * @param datagram the bytes (copied)
   * @param length how many, at most {@value #MAX_DATAGRAM}
   * @param frame the current frame
   */
  public void send(final byte[] datagram, final int length, final int frame) {
    if (length > MAX_DATAGRAM) {
      throw new IllegalArgumentException(
          "a datagram of " + length + " bytes is over the link's " + MAX_DATAGRAM);
    }
    sentDatagrams++;
    sentBytes += length;
    if (random.nextDouble() < loss) {
      droppedDatagrams++;
      return;
    }
    int due = frame;
    if (random.nextDouble() < holdBack) {
      heldBackDatagrams++;
      due += 1 + random.nextInt(MAX_HOLD);
    }
    inFlight.add(new InFlight(Arrays.copyOf(datagram, length), due));
  }

  /**
   * Delivers every datagram due by frame {@code frame}, in the order they were sent, through the
   * sockets to the receiver.
   *
   * @param frame the current frame
   */
  public void deliver(final int frame) {
    for (int n = inFlight.size(); n > 0; n--) {
      final InFlight next = inFlight.poll();
      if (next.due > frame) {
        inFlight.add(next); // not yet: keeps its place among those still held
        continue;
      }
      try {
        from.send(new DatagramPacket(next.bytes, next.bytes.length, to.getLocalSocketAddress()));
        to.receive(incoming);
      } catch (SocketTimeoutException lost) {
        droppedDatagrams++; // lost by the operating system: the same as dropped by the link
        continue;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      receiver.receive(incoming.getData(), incoming.getLength());
    }
  }

  /** {@return the bytes sent into the link, dropped ones included} */
  public long sentBytes() {
    return sentBytes;
  }

  /** {@return the datagrams sent into the link} */
  public long sentDatagrams() {
    return sentDatagrams;
  }

  /** {@return the datagrams the link dropped} */
  public long droppedDatagrams() {
    return droppedDatagrams;
  }

  /** {@return the datagrams the link held back} */
  public long heldBackDatagrams() {
    return heldBackDatagrams;
  }

  /** Closes the sending socket (the receiving one belongs to the far end). */
  @Override
  public void close() {
    from.close();
  }

  /** A datagram on its way, and the frame it is due. */
  private static final class InFlight {
    final byte[] bytes;
    final int due;

    InFlight(final byte[] bytes, final int due) {
      this.bytes = bytes;
      this.due = due;
    }
  }
}
