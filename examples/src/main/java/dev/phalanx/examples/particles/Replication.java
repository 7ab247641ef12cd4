package dev.phalanx.examples.particles;

import dev.phalanx.ecs.snapshot.AckedDeltaLoader;
import dev.phalanx.ecs.snapshot.AckedDeltaWriter;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A game server's replication ({@code --replica}): each frame, every {@link RemoteClient} is sent,
 * over loopback UDP through a {@link LossyLink} that drops, delays and reorders datagrams, a delta
 * of the part of the world its {@link Viewpoint} sees, computed against the newest state that
 * client acknowledged (an {@link AckedDeltaWriter} per client); acknowledgements travel back
 * through a lossy link too. Deltas over {@value LossyLink#MAX_DATAGRAM} bytes go as several
 * datagrams ({@link DeltaFragments}).
 *
 * <p>After every frame each client is checked: what it holds must be exactly what the server's
 * writer chose for it at the sequence the client is at, entity count and {@link World#checksum}
 * alike. Lost deltas leave a client behind for a frame or two, never wrong.
 */
public final class Replication implements AutoCloseable {

  /** The sequences a writer keeps as baselines: a client further behind is resynced. */
  public static final int BASELINES = 64;

  // The server's view of each client, by sequence: enough for any client the writer has not
  // resynced (BASELINES), plus the deltas in flight.
  private static final int VIEWS = 2 * BASELINES;

  private final List<Session> sessions = new ArrayList<>();

  /**
   * Starts {@code clients} clients of {@code world}, each behind its own pair of lossy links.
   *
   * @param world the server's world
   * @param clients how many clients
   * @param seed the seed of the links' draws
   * @param loss the share of datagrams each link drops, in {@code [0, 1)}
   * @param holdBack the share of datagrams each link holds back (reordering), in {@code [0, 1]}
   * @throws IOException if a socket cannot be opened
   */
  public Replication(
      final World world,
      final int clients,
      final long seed,
      final double loss,
      final double holdBack)
      throws IOException {
    for (int i = 0; i < clients; i++) {
      sessions.add(new Session(world, i, clients, seed + 2L * i, loss, holdBack));
    }
  }

  /**
   * Runs the frame's replication, after the world's systems ran: each client's delta sent, the
   * links' datagrams delivered, each client checked, its acknowledgement sent back and delivered.
   *
   * @param frame the frame just simulated
   * @throws IllegalStateException if a client holds anything but the server's view at its sequence
   */
  public void frame(final int frame) {
    for (final Session session : sessions) {
      session.send(frame);
    }
    for (final Session session : sessions) {
      session.down.deliver(frame);
      session.check(frame);
      session.client.acknowledge(session.up, frame);
      session.up.deliver(frame);
    }
  }

  /** {@return the clients, in order} */
  public List<RemoteClient> clients() {
    final List<RemoteClient> clients = new ArrayList<>();
    for (final Session session : sessions) {
      clients.add(session.client);
    }
    return clients;
  }

  /**
   * Returns a line per client: bytes sent per frame, datagrams dropped and held back, and what its
   * loader did with the deltas.
   *
   * @param frames the frames run, for the averages
   * @return the report
   */
  public String report(final int frames) {
    final StringBuilder text = new StringBuilder();
    for (int i = 0; i < sessions.size(); i++) {
      final Session session = sessions.get(i);
      final RemoteClient client = session.client;
      text.append(
          String.format(
              java.util.Locale.ROOT,
              "client %d: %,d bytes per frame, %,d of %,d datagrams dropped and %,d held back;"
                  + " deltas applied %d, resyncs %d, stale %d, without baseline %d;"
                  + " at sequence %d of %d, %,d entities, the server's view every frame%n",
              i + 1,
              session.down.sentBytes() / Math.max(1, frames),
              session.down.droppedDatagrams(),
              session.down.sentDatagrams(),
              session.down.heldBackDatagrams(),
              client.count(AckedDeltaLoader.Outcome.APPLIED),
              client.count(AckedDeltaLoader.Outcome.RESYNCED),
              client.count(AckedDeltaLoader.Outcome.STALE),
              client.count(AckedDeltaLoader.Outcome.NO_BASELINE),
              client.sequence(),
              session.writer.sequence(),
              client.registry().alive()));
    }
    return text.toString();
  }

  @Override
  public void close() {
    for (final Session session : sessions) {
      session.close();
    }
  }

  /** One client, its writer, its links both ways and the server's record of what it was sent. */
  private static final class Session implements AutoCloseable {
    final World world;
    final int number;
    final Viewpoint view;
    final AckedDeltaWriter writer;
    final RemoteClient client;
    final DatagramSocket acknowledgements;
    final LossyLink down;
    final LossyLink up;
    final byte[] datagram = new byte[LossyLink.MAX_DATAGRAM];
    final long[] viewSequence = new long[VIEWS];
    final long[] viewChecksum = new long[VIEWS];
    final int[] viewSize = new int[VIEWS];

    Session(
        final World world,
        final int number,
        final int clients,
        final long seed,
        final double loss,
        final double holdBack)
        throws IOException {
      this.world = world;
      this.number = number;
      this.view = new Viewpoint(world.storages(), number, clients);
      this.writer = Replica.configure(new AckedDeltaWriter(world.registry(), BASELINES));
      writer.interest(view);
      this.client = new RemoteClient();
      this.acknowledgements = LossyLink.endpoint();
      this.down = new LossyLink(client.socket(), client::receive, seed, loss, holdBack);
      this.up = new LossyLink(acknowledgements, this::acknowledged, seed + 1, loss, holdBack);
    }

    /** Writes the client's delta, records what it holds, and sends it in fragments. */
    void send(final int frame) {
      view.moveTo(frame);
      final int length = writer.write();
      final long sequence = writer.sequence();
      final int slot = (int) (sequence % VIEWS);
      viewSequence[slot] = sequence;
      viewChecksum[slot] = World.checksum(world.storages(), view);
      viewSize[slot] = count(view);
      final byte[] bytes = writer.bytes();
      for (int i = 0; i < DeltaFragments.count(length); i++) {
        down.send(datagram, DeltaFragments.fragment(sequence, bytes, length, i, datagram), frame);
      }
    }

    /** Checks that the client holds the server's view at the client's sequence. */
    void check(final int frame) {
      final long sequence = client.sequence();
      if (0 == sequence) {
        return; // nothing arrived yet
      }
      final int slot = (int) (sequence % VIEWS);
      if (viewSequence[slot] != sequence) {
        throw new IllegalStateException(
            "client " + (number + 1) + " is at sequence " + sequence + ", too old to check");
      }
      if (client.registry().alive() != viewSize[slot] || client.checksum() != viewChecksum[slot]) {
        throw new IllegalStateException(
            "client "
                + (number + 1)
                + " differs from the server's view at sequence "
                + sequence
                + " after frame "
                + frame);
      }
    }

    void acknowledged(final byte[] datagram, final int length) {
      writer.acknowledge(ByteBuffer.wrap(datagram, 0, length).getLong());
    }

    private int count(final Viewpoint chosen) {
      final Position_Storage positions = world.storages().positions;
      int count = 0;
      for (int position = 0; position < positions.size(); position++) {
        if (chosen.test(positions.at(position))) {
          count++;
        }
      }
      return count;
    }

    @Override
    public void close() {
      writer.close();
      down.close();
      up.close();
      client.close();
      acknowledgements.close();
    }
  }
}
