package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A seeded random hierarchy (reparents, detaches, destroyed nodes) streamed through {@link
 * AckedDeltaWriter} and {@link AckedDeltaLoader} with deltas lost, delayed and reordered: after
 * every load {@code verify()} is empty on the replica (its hierarchy whole), and whenever the
 * replica holds the newest sequence every entity's parent and child count are the server's.
 */
class AckedDeltaHierarchyTest {

  @Test
  void theReplicasHierarchyFollowsOverALossyLink() throws SnapshotFormatException {
    int current = 0;
    for (int seed = 1; seed <= 20; seed++) {
      current += run(seed);
    }
    assertTrue(current > 100, current + " checks with the replica current");
  }

  /** One seeded run; returns how many times the replica held the newest sequence. */
  private static int run(final int seed) throws SnapshotFormatException {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry server = new Registry();
    final Hierarchy tree = Hierarchy.of(server);
    final List<Long> live = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      live.add(server.create());
    }
    final AckedDeltaWriter writer = new AckedDeltaWriter(server, 8).everyValue(Hierarchy.TYPE);
    final Registry replica = new Registry();
    final AckedDeltaLoader loader = new AckedDeltaLoader(replica).types(Hierarchy.TYPE);
    final List<byte[]> inFlight = new ArrayList<>();
    int current = 0;
    for (int frame = 0; frame < 40; frame++) {
      final String where = "seed " + seed + ", frame " + frame;
      change(server, tree, live, random);
      final int length = writer.write();
      inFlight.add(Arrays.copyOf(writer.bytes(), length));
      if (0 == random.nextInt(3)) {
        continue; // nothing arrives this frame
      }
      final byte[] packet = inFlight.remove(random.nextInt(inFlight.size()));
      loader.load(packet, packet.length);
      assertEquals(List.of(), replica.verify(), where);
      if (loader.sequence() == writer.sequence()) {
        current++;
        final Hierarchy copy = Hierarchy.of(replica);
        for (final long e : live) {
          final long local = loader.map(e);
          final boolean node = copy.nodes().contains(local);
          assertEquals(loader.map(tree.parent(e)), node ? copy.parent(local) : Entity.NULL, where);
          assertEquals(tree.childCount(e), node ? copy.childCount(local) : 0, where);
        }
      }
      if (0 != loader.sequence()) {
        writer.acknowledge(loader.sequence());
      }
    }
    return current;
  }

  private static void change(
      final Registry server,
      final Hierarchy tree,
      final List<Long> live,
      final SplittableRandom random) {
    for (int c = 0; c < 5; c++) {
      final long a = live.get(random.nextInt(live.size()));
      final long b = live.get(random.nextInt(live.size()));
      switch (random.nextInt(4)) {
        case 0, 1 -> {
          if (a != b && !tree.isAncestor(a, b)) {
            tree.reparent(a, b);
          }
        }
        case 2 -> {
          if (tree.nodes().contains(a)) {
            tree.detach(a);
          }
        }
        default -> {
          server.destroy(a);
          live.remove(a);
          live.add(server.create());
        }
      }
    }
  }
}
