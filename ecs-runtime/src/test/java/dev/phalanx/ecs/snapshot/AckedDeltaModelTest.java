package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.IN_PLACE;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.POOL;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.SWAP;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TAG;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TRACKED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A seeded random server streamed to several clients, each with its own interest set (every entity,
 * a changing predicate, a fixed set), through {@link AckedDeltaWriter} and {@link AckedDeltaLoader}
 * over a simulated link that loses, duplicates, delays and reorders the deltas and the
 * acknowledgements; with a few baselines kept (so that a client that falls behind gets a resync),
 * the server restored midway from a snapshot, and a client restarted with a new replica. The
 * reference model is, per client and sequence, a plain map of what the replica must hold once it
 * applied that sequence: every live server entity of its interest set at that write, with its
 * components, each {@code EntityRef} the target if the client holds it, else {@link Entity#NULL}.
 * After every packet a replica takes, it equals the model of its newest sequence applied, and
 * {@link Registry#verify()} is empty.
 */
class AckedDeltaModelTest {

  private static final List<ComponentType<Sample, AllPrimitivesStorageB<Sample>>> SAMPLES =
      List.of(SWAP, IN_PLACE, TRACKED);

  /** A link that loses, duplicates and delays (so reorders) what it carries; seeded. */
  static final class Link<T> {
    private final SplittableRandom random;
    private final int lossPercent;
    private final int maxDelay;
    private final List<Object[]> inFlight = new ArrayList<>();

    Link(final SplittableRandom random, final int lossPercent, final int maxDelay) {
      this.random = random;
      this.lossPercent = lossPercent;
      this.maxDelay = maxDelay;
    }

    void send(final T payload, final int frame) {
      if (random.nextInt(100) < lossPercent) {
        return;
      }
      final int copies = random.nextInt(100) < 10 ? 2 : 1;
      for (int c = 0; c < copies; c++) {
        inFlight.add(new Object[] {frame + random.nextInt(maxDelay + 1), payload});
      }
    }

    /** What arrives at {@code frame}, in a random order. */
    @SuppressWarnings("unchecked")
    List<T> receive(final int frame) {
      final List<T> due = new ArrayList<>();
      inFlight.removeIf(
          p -> {
            if ((int) p[0] <= frame) {
              due.add((T) p[1]);
              return true;
            }
            return false;
          });
      for (int i = due.size() - 1; i > 0; i--) {
        final int j = random.nextInt(i + 1);
        final T swap = due.get(i);
        due.set(i, due.get(j));
        due.set(j, swap);
      }
      return due;
    }
  }

  /** One client: its writer on the server, its replica, its link and its model. */
  private static final class Client {
    final AckedDeltaWriter writer;
    final LongPredicate interest;
    Registry replica;
    AckedDeltaLoader loader;
    final Link<byte[]> down;
    final Link<Long> up;
    // The model: what the replica holds once it applied each sequence still in flight.
    final TreeMap<Long, Map<Long, List<Object>>> expected = new TreeMap<>();

    Client(
        final Registry server,
        final LongPredicate interest,
        final int baselines,
        final SplittableRandom random) {
      this.writer =
          new AckedDeltaWriter(server, baselines)
              .interest(interest)
              .codec(Point.class, AllPrimitivesStorageB.POINTS)
              .everyValue(SWAP);
      this.interest = interest;
      this.down = new Link<>(random, 25, 3);
      this.up = new Link<>(random, 25, 3);
      restart();
    }

    void restart() {
      replica = new Registry();
      replica.storage(POOL);
      loader =
          new AckedDeltaLoader(replica)
              .types(SWAP, IN_PLACE, TRACKED, TAG)
              .codec(Point.class, AllPrimitivesStorageB.POINTS);
    }
  }

  @Test
  void everyReplicaEqualsItsInterestSetOverALossyLink() throws IOException {
    final Map<AckedDeltaLoader.Outcome, Integer> outcomes =
        new EnumMap<>(AckedDeltaLoader.Outcome.class);
    final int seeds = Integer.getInteger("phalanx.deltaModelSeeds", 16);
    for (long seed = 1; seed <= seeds; seed++) {
      run(seed, 60, outcomes);
    }
    // The link and the scenario reach every outcome.
    for (final AckedDeltaLoader.Outcome outcome : AckedDeltaLoader.Outcome.values()) {
      assertTrue(outcomes.getOrDefault(outcome, 0) > 0, outcome + " " + outcomes);
    }
  }

  private static void run(
      final long seed, final int frames, final Map<AckedDeltaLoader.Outcome, Integer> outcomes)
      throws IOException {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry server = new Registry();
    final List<Long> live = new ArrayList<>();
    final long[] first = new long[40];
    server.create(first);
    for (final long e : first) {
      live.add(e);
    }
    server.storage(SWAP);
    server.storage(TAG);
    final int[] phase = {0};
    final Set<Long> fixed = new HashSet<>();
    for (int i = 0; i < first.length; i += 2) {
      fixed.add(first[i]);
    }
    final List<Client> clients =
        List.of(
            new Client(server, e -> true, 16, random),
            new Client(server, e -> 0 != (Entity.index(e) * 7 + phase[0]) % 3, 8, random),
            new Client(server, fixed::contains, 3, random));
    byte[] saved = null;
    for (int frame = 0; frame < frames; frame++) {
      if (frame == frames / 3) {
        saved = SnapshotAllColumnsTest.save(SnapshotAllColumnsTest.writer(server));
      } else if (frame == 2 * frames / 3) {
        DeltaReplicationModelTest.restore(server, saved, live);
      }
      DeltaReplicationModelTest.mutate(server, random, live, true, frame);
      if (0 == frame % 3) {
        phase[0]++;
      }
      for (int c = 0; c < clients.size(); c++) {
        final Client client = clients.get(c);
        final String where = "seed " + seed + ", frame " + frame + ", client " + c;
        if (1 == c && frame == frames / 2) {
          client.restart(); // it lost its state: it says so when a delta lacks its baseline
        }
        frame(server, client, frame, outcomes, where);
      }
    }
    for (final Client client : clients) {
      client.writer.close();
    }
  }

  private static void frame(
      final Registry server,
      final Client client,
      final int frame,
      final Map<AckedDeltaLoader.Outcome, Integer> outcomes,
      final String where)
      throws SnapshotFormatException {
    final int length = client.writer.write();
    client.expected.put(client.writer.sequence(), view(server, client.interest));
    client.down.send(Arrays.copyOf(client.writer.bytes(), length), frame);
    for (final byte[] packet : client.down.receive(frame)) {
      final long before = client.loader.sequence();
      final AckedDeltaLoader.Outcome outcome = client.loader.load(packet, packet.length);
      outcomes.merge(outcome, 1, Integer::sum);
      switch (outcome) {
        case APPLIED, RESYNCED -> assertTrue(client.loader.sequence() > before, where);
        case STALE -> assertEquals(before, client.loader.sequence(), where);
        case NO_BASELINE -> {
          assertEquals(before, client.loader.sequence(), where);
          client.writer.resync();
        }
      }
      assertMirrors(client, where + ", " + outcome);
    }
    if (0 != client.loader.sequence()) {
      client.up.send(client.loader.sequence(), frame);
    }
    for (final long ack : client.up.receive(frame)) {
      client.writer.acknowledge(ack);
    }
    // The sequences the replica can no longer reach need no model.
    client.expected.headMap(client.loader.sequence()).clear();
  }

  /** The replica against the model of its newest sequence applied. */
  private static void assertMirrors(final Client client, final String where) {
    final long sequence = client.loader.sequence();
    final Map<Long, List<Object>> expected =
        0 == sequence ? Map.of() : client.expected.get(sequence);
    assertNotNull(expected, where);
    assertMirrors(client.replica, client.loader, expected, where);
  }

  /** The replica against {@code expected} ({@link #view}), and {@code verify()} empty. */
  static void assertMirrors(
      final Registry replica,
      final AckedDeltaLoader loader,
      final Map<Long, List<Object>> expected,
      final String where) {
    assertEquals(expected.size(), loader.size(), where);
    assertEquals(expected.size(), replica.alive(), where);
    final Map<Long, Long> remoteOf = new HashMap<>();
    for (final long remote : expected.keySet()) {
      final long local = loader.map(remote);
      assertTrue(replica.valid(local), where + ": " + Entity.toString(remote) + " unmapped");
      remoteOf.put(local, remote);
    }
    final Map<Long, List<Object>> actual = new LinkedHashMap<>();
    for (final Map.Entry<Long, Long> mapped : remoteOf.entrySet()) {
      actual.put(
          mapped.getValue(),
          components(
              replica,
              mapped.getKey(),
              ref -> Entity.isNull(ref) ? Entity.NULL : remoteOf.getOrDefault(ref, -2L)));
    }
    if (!expected.equals(actual)) {
      final Map<Long, String> diff = new TreeMap<>();
      for (final long remote : expected.keySet()) {
        if (!expected.get(remote).equals(actual.get(remote))) {
          diff.put(remote, expected.get(remote) + " but the replica has " + actual.get(remote));
        }
      }
      assertEquals(Map.of(), diff, where + ": entities that differ");
    }
    // No element beyond those of the model's entities.
    int elements = 0;
    for (final List<Object> components : expected.values()) {
      elements += components.size();
    }
    assertEquals(elements, elements(replica), where);
    assertEquals(List.of(), replica.verify(), where);
  }

  /** The server's interest set as the client must see it: references outside it are NULL. */
  static Map<Long, List<Object>> view(final Registry server, final LongPredicate interest) {
    final Set<Long> held = new HashSet<>();
    final long[] packed = server.entities().packed();
    for (int i = 0; i < server.alive(); i++) {
      if (interest.test(packed[i])) {
        held.add(packed[i]);
      }
    }
    final Map<Long, List<Object>> view = new HashMap<>();
    for (final long entity : held) {
      view.put(entity, components(server, entity, ref -> held.contains(ref) ? ref : Entity.NULL));
    }
    return view;
  }

  /** An entity's components, its samples' references named through {@code reference}. */
  private static List<Object> components(
      final Registry world, final long entity, final LongUnaryOperator reference) {
    final List<Object> components = new ArrayList<>();
    for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type : SAMPLES) {
      @SuppressWarnings("unchecked")
      final Storage<Sample> storage = (Storage<Sample>) world.findStorage(type);
      if (null != storage && storage.contains(entity)) {
        final Sample value = storage.get(entity);
        components.add(
            SnapshotFormat.key(type)
                + new Sample(
                    value.flag(),
                    value.tiny(),
                    value.small(),
                    value.letter(),
                    value.count(),
                    value.big(),
                    reference.applyAsLong(value.target()),
                    value.ratio(),
                    value.precise(),
                    value.name(),
                    value.mood(),
                    value.point()));
      }
    }
    final Storage<?> tags = world.findStorage(TAG);
    if (null != tags && tags.contains(entity)) {
      components.add("tag");
    }
    final Storage<?> pool = world.storage(POOL);
    if (pool.contains(entity)) {
      components.add("pool");
    }
    return components;
  }

  private static int elements(final Registry world) {
    int count = 0;
    for (final ComponentType<?, ?> type : List.of(SWAP, IN_PLACE, TRACKED, TAG)) {
      final Storage<?> storage = world.findStorage(type);
      count += null == storage ? 0 : live(storage);
    }
    return count + live(world.storage(POOL));
  }

  private static int live(final Storage<?> storage) {
    int count = 0;
    for (int i = 0; i < storage.size(); i++) {
      count += Entity.isTombstone(storage.packed()[i]) ? 0 : 1;
    }
    return count;
  }
}
