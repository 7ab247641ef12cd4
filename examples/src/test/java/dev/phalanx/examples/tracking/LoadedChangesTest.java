package dev.phalanx.examples.tracking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Loads are writes: change tracking sees what a loader adds or replaces, stamped with the target's
 * current change tick, and a continuous load leaves values that did not change alone (no stamp, no
 * update signal), so a replica can build a dirty list.
 */
class LoadedChangesTest {

  private static byte[] save(final Registry registry) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    return out.toByteArray();
  }

  private static Registry server(final int n) {
    final Registry server = new Registry();
    for (int i = 0; i < n; i++) {
      server.storage(Temperature_Traits.TYPE).emplace(server.create(), i);
    }
    return server;
  }

  /** The guide's {@code seen = 0} pattern sees a loaded world: every element is newer than 0. */
  @Test
  void aWholeLoadIsSeenAsChangedByASystemThatSawNothing() throws IOException {
    final Registry server = server(5);
    server.advanceChangeTick();
    server.advanceChangeTick();
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded).types(Temperature_Traits.TYPE).load(ByteBuffer.wrap(save(server)));
    final Temperature_Storage temperatures = loaded.storage(Temperature_Traits.TYPE);
    final long seen = 0;
    for (int p = 0; p < temperatures.size(); p++) {
      final long entity = temperatures.packed()[p];
      assertTrue(temperatures.changedSince(entity, seen));
      assertEquals(loaded.changeTick(), temperatures.changeTickAt(p), "stamped now");
    }
    final long next = loaded.advanceChangeTick();
    assertFalse(temperatures.changedSince(temperatures.packed()[0], next));
  }

  /**
   * A continuous load stamps what it adds and replaces; what it leaves unchanged keeps its tick and
   * publishes no update.
   */
  @Test
  void aContinuousLoadStampsWhatItWritesAndOnlyThat() throws IOException {
    final Registry server = server(4);
    final Registry replica = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(replica).types(Temperature_Traits.TYPE);
    long seen = replica.advanceChangeTick();
    loader.load(ByteBuffer.wrap(save(server)));
    final Temperature_Storage temperatures = replica.storage(Temperature_Traits.TYPE);
    final long[] remote = new long[4];
    System.arraycopy(server.entities().packed(), 0, remote, 0, 4);
    for (final long entity : remote) {
      assertTrue(temperatures.changedSince(loader.map(entity), seen), "added");
    }
    final List<Long> updated = new ArrayList<>();
    temperatures.onUpdate().connect((r, e) -> updated.add(e));
    seen = replica.advanceChangeTick();
    loader.load(ByteBuffer.wrap(save(server)));
    for (final long entity : remote) {
      assertFalse(temperatures.changedSince(loader.map(entity), seen), "unchanged");
    }
    assertEquals(List.of(), updated);
    server.storage(Temperature_Traits.TYPE).setCelsius(remote[2], 99f);
    seen = replica.advanceChangeTick();
    loader.load(ByteBuffer.wrap(save(server)));
    for (final long entity : remote) {
      assertEquals(
          entity == remote[2], temperatures.changedSince(loader.map(entity), seen), "replaced");
    }
    assertEquals(List.of(loader.map(remote[2])), updated);
    assertEquals(99f, temperatures.celsius(loader.map(remote[2])));
  }
}
