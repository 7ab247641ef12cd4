package dev.phalanx.examples.particles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.snapshot.AckedDeltaLoader.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The example's {@code --replica}: clients over loopback UDP through links that drop, delay and
 * reorder datagrams, each checked every frame against the server's view of its interest set.
 */
class ReplicationTest {

  @Test
  void everyClientHoldsTheServersViewAtItsSequenceEveryFrame() throws Exception {
    try (World world = new World(3_000, 7, 1, 150);
        Replication replication = new Replication(world, 3, 5, 0.3, 0.3)) {
      long tailsSeen = 0;
      for (int frame = 1; frame <= 150; frame++) {
        world.step();
        replication.frame(frame); // throws if a client differs from the server's view
        for (final RemoteClient client : replication.clients()) {
          assertEquals(List.of(), client.registry().verify(), "frame " + frame);
          tailsSeen += client.registry().storage(Attachment_Traits.TYPE).size();
        }
      }
      assertTrue(tailsSeen > 0, "clients saw comets with their tails");
      long stale = 0;
      long resyncs = 0;
      for (final RemoteClient client : replication.clients()) {
        assertTrue(client.count(Outcome.APPLIED) > 20, "deltas applied on a lossy link");
        assertTrue(client.registry().alive() > 0, "the client sees part of the world");
        stale += client.count(Outcome.STALE);
        resyncs += client.count(Outcome.RESYNCED);
      }
      assertTrue(stale > 0, "reordered deltas arrived late and were ignored");
      assertTrue(resyncs >= 3, "each client started with a resync");
      assertTrue(world.lifetime().destroyedChildren() > 0, "comets died with their tails");
      assertTrue(replication.report(150).contains("client 3:"));
    }
  }

  @Test
  void aClientThatLosesAnEntityOfItsOwnIsCaught() throws Exception {
    try (World world = new World(2_000, 3, 1, 20);
        Replication replication = new Replication(world, 1, 9, 0.0, 0.0)) {
      world.step();
      replication.frame(1);
      final RemoteClient client = replication.clients().get(0);
      final long any = client.registry().entities().packed()[0];
      client.registry().destroy(any);
      world.step();
      final IllegalStateException caught =
          assertThrows(IllegalStateException.class, () -> replication.frame(2));
      assertTrue(
          caught.getMessage().contains("differs from the server's view"), caught::getMessage);
    }
  }

  @Test
  void fragmentsComeTogetherInAnyOrderAndOnlyWhole() {
    final int length = 2 * DeltaFragments.PAYLOAD + 17;
    final byte[] delta = new byte[length];
    for (int i = 0; i < length; i++) {
      delta[i] = (byte) (i * 31);
    }
    final byte[][] datagrams = new byte[3][LossyLink.MAX_DATAGRAM];
    final int[] lengths = new int[3];
    for (int i = 0; i < 3; i++) {
      lengths[i] = DeltaFragments.fragment(7, delta, length, i, datagrams[i]);
    }
    assertEquals(3, DeltaFragments.count(length));
    final DeltaFragments.Assembler assembler = new DeltaFragments.Assembler();
    assertEquals(null, assembler.add(datagrams[2], lengths[2]));
    assertEquals(null, assembler.add(datagrams[0], lengths[0]));
    assertEquals(null, assembler.add(datagrams[0], lengths[0]), "a duplicate completes nothing");
    final DeltaFragments.Whole whole = assembler.add(datagrams[1], lengths[1]);
    assertEquals(7, whole.sequence());
    assertEquals(length, whole.length());
    for (int i = 0; i < length; i++) {
      assertEquals(delta[i], whole.bytes()[i], "byte " + i);
    }
  }
}
