package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code loader.load(writer.bytes(), writer.write())} reads {@code bytes()} before {@code write()}
 * runs: the loader gets the previous delta's array with the new delta's length. The mistake is
 * named where it is made, and the replica catches up: it refuses the stale bytes before changing
 * anything, and the writer keeps the new delta until its next write.
 */
class DeltaBytesBeforeWriteTest {

  private static DeltaWriter writer(final Registry server) {
    return new DeltaWriter(server).types(LoaderWorlds.TYPES).whenAdded(LoaderWorlds.TYPES);
  }

  @Test
  void bytesBeforeTheFirstWriteIsRefusedAndTheWriterStaysAtItsBase()
      throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final DeltaWriter writer = writer(server);
    final DeltaLoader loader = new DeltaLoader(new Registry()).types(LoaderWorlds.TYPES);
    final IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> loader.load(writer.bytes(), writer.write()));
    assertTrue(e.getMessage().contains("call write() before bytes()"), e.getMessage());
    assertEquals(0, writer.base()); // write() never ran
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(3, loader.size());
  }

  @Test
  void staleBytesOfAGrownDeltaAreRefusedNamingTheMistakeAndTheReplicaCatchesUp()
      throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final DeltaWriter writer = writer(server);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client).types(LoaderWorlds.TYPES);
    int length = writer.write();
    loader.load(writer.bytes(), length);
    // Enough new entities that the delta outgrows the array bytes() returned so far.
    for (int i = 0; i < 2_000; i++) {
      server.emplace(server.create(), LoaderWorlds.INTS, Row.of(i));
    }
    final String before = LoaderWorlds.dump(client);
    final long tick = loader.tick();
    final byte[] stale = writer.bytes();
    final int grown = writer.write();
    assertTrue(grown > stale.length, "the test needs a delta that outgrows the array");
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(stale, grown));
    assertTrue(e.getMessage().contains("call write() before bytes()"), e.getMessage());
    assertEquals(before, LoaderWorlds.dump(client));
    assertEquals(tick, loader.tick());
    // The writer keeps the delta until its next write: loaded in the right order, it applies.
    loader.load(writer.bytes(), grown);
    assertEquals(3 + 2_000, client.alive());
    server.emplace(server.create(), LoaderWorlds.CHARS, Row.of('z'));
    length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(3 + 2_001, client.alive());
    assertEquals(List.of(), client.verify());
  }

  @Test
  void theDeltaAppliedLastIsNamedAsAlreadyApplied() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final DeltaWriter writer = writer(server);
    final DeltaLoader loader = new DeltaLoader(new Registry()).types(LoaderWorlds.TYPES);
    int length = writer.write();
    loader.load(writer.bytes(), length);
    server.emplace(server.create(), LoaderWorlds.INTS, Row.of(7));
    length = writer.write();
    loader.load(writer.bytes(), length);
    // Stale bytes whose length happens to match: the delta the replica applied last.
    final int again = length;
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(writer.bytes(), again));
    assertTrue(e.getMessage().contains("applied this delta already"), e.getMessage());
    assertTrue(e.getMessage().contains("call write() before bytes()"), e.getMessage());
    assertEquals(4, loader.size());
  }

  @Test
  void aLengthThatDoesNotMatchTheDeltasOwnIsRefusedNamingTheMistake() {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final DeltaWriter writer = writer(server);
    final DeltaLoader loader = new DeltaLoader(new Registry()).types(LoaderWorlds.TYPES);
    final int length = writer.write();
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(writer.bytes(), length + 1));
    assertTrue(e.getMessage().contains("call write() before bytes()"), e.getMessage());
    final SnapshotFormatException past =
        assertThrows(
            SnapshotFormatException.class,
            () -> loader.load(writer.bytes(), writer.bytes().length + 1));
    assertTrue(past.getMessage().contains("call write() before bytes()"), past.getMessage());
    assertEquals(0, loader.tick());
  }
}
