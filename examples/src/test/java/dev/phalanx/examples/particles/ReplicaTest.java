package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.snapshot.DeltaWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example's replica mode: a client fed deltas each frame keeps the world's checksum. */
class ReplicaTest {

  @Test
  void aReplicaFedDeltasEachFrameHasTheWorldsChecksum() throws Exception {
    try (World world = new World(3_000, 7, 1, 60)) {
      final Replica replica = new Replica();
      try (DeltaWriter writer = Replica.writer(world)) {
        for (int frame = 0; frame < 60; frame++) {
          world.step();
          final int length = writer.write();
          replica.apply(writer.bytes(), length);
          assertEquals(world.checksum(), replica.checksum(), "frame " + frame);
          assertEquals(world.registry().alive(), replica.registry().alive(), "frame " + frame);
          assertEquals(List.of(), replica.registry().verify(), "frame " + frame);
        }
        assertTrue(world.lifetime().destroyedRoots() > 0, "roots died and respawned");
        assertTrue(world.lifetime().destroyedChildren() > 0, "comet tails went with them");
      }
    }
  }
}
