package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DeltaWriter}'s options and refusals: its setters chain, {@link DeltaWriter#types} streams
 * only the chosen storages, a field without a codec is refused before anything is written or
 * advanced, {@link DeltaWriter#write(java.io.OutputStream)} flushes, {@link DeltaWriter#close}
 * disconnects; and {@link DeltaLoader}'s emplace of an element a listener added meanwhile.
 */
class DeltaWriterOptionsTest {

  @Test
  void theSettersChain() {
    final DeltaWriter writer = new DeltaWriter(new Registry());
    assertSame(writer, writer.interest(e -> true));
    assertSame(writer, writer.entities(Entity.of(1, 0)));
    assertSame(writer, writer.everyValue(AllPrimitivesStorageB.SWAP));
    assertSame(writer, writer.codec(Point.class, AllPrimitivesStorageB.POINTS));
    assertSame(writer, writer.types(AllPrimitivesStorageB.SWAP));
    assertEquals(0, writer.base());
  }

  @Test
  void onlyTheChosenTypesAreStreamed() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(5);
    final DeltaWriter writer =
        new DeltaWriter(server).types(LoaderWorlds.CHARS).whenAdded(LoaderWorlds.CHARS);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(5, replica.alive());
    assertNull(replica.findStorage(LoaderWorlds.INTS));
    assertEquals(5, replica.storage(LoaderWorlds.CHARS).size());
    // The unchosen storage's changes are not even logged: no listener on it.
    assertTrue(server.storage(LoaderWorlds.INTS).afterInsert().isEmpty());
    assertFalse(server.storage(LoaderWorlds.CHARS).afterInsert().isEmpty());
    final long e = server.create();
    server.emplace(e, LoaderWorlds.INTS, Row.of(1));
    server.emplace(e, LoaderWorlds.CHARS, Row.of('q'));
    final int next = writer.write();
    loader.load(writer.bytes(), next);
    assertEquals(Row.of('q'), replica.get(loader.map(e), LoaderWorlds.CHARS));
    assertNull(replica.findStorage(LoaderWorlds.INTS));
  }

  /**
   * A storage created after the writer's types were chosen is checked for codecs only if its type
   * is chosen: an unchosen one with a field no codec writes is neither streamed nor refused.
   */
  @Test
  void aStorageCreatedLaterIsCheckedForCodecsOnlyIfChosen() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(2);
    final long e = LoaderWorlds.live(server)[0];
    final DeltaWriter writer =
        new DeltaWriter(server)
            .types(LoaderWorlds.INTS, AllPrimitivesStorageB.IN_PLACE)
            .whenAdded(LoaderWorlds.INTS, AllPrimitivesStorageB.IN_PLACE);
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(LoaderWorlds.INTS, AllPrimitivesStorageB.IN_PLACE)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    int length = writer.write();
    loader.load(writer.bytes(), length);
    final Sample sample =
        new Sample(
            true, (byte) 1, (short) 2, 'c', 3, 4, Entity.NULL, 5f, 6d, "n", null, new Point(1, 2));
    server.emplace(e, AllPrimitivesStorageB.SWAP, sample);
    length = writer.write();
    loader.load(writer.bytes(), length);
    assertNull(replica.findStorage(AllPrimitivesStorageB.SWAP));
    server.emplace(e, AllPrimitivesStorageB.IN_PLACE, sample);
    final long base = writer.base();
    assertThrows(IllegalStateException.class, writer::write);
    assertEquals(base, writer.base());
    writer.codec(Point.class, AllPrimitivesStorageB.POINTS);
    length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(sample, replica.get(loader.map(e), AllPrimitivesStorageB.IN_PLACE));
    assertNull(replica.findStorage(AllPrimitivesStorageB.SWAP));
  }

  /**
   * An interest predicate set after writes without one applies from the next write: the entities it
   * rejects leave the replica; dropped again, they come back whole.
   */
  @Test
  void anInterestSetAfterWritesWithoutOneAppliesAtTheNextWrite() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(6);
    final long[] entities = LoaderWorlds.live(server);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    int length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(6, replica.alive());
    writer.entities(entities[0], entities[2], entities[4]);
    length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(3, replica.alive());
    assertEquals(3, loader.size());
    for (int i = 0; i < entities.length; i++) {
      assertEquals(0 == i % 2, replica.valid(loader.map(entities[i])), "entity " + i);
    }
    writer.interest(null);
    length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(6, replica.alive());
    assertEquals(Row.of(101), replica.get(loader.map(entities[1]), LoaderWorlds.INTS));
    assertEquals(List.of(), replica.verify());
  }

  @Test
  void aFieldWithoutACodecIsRefusedBeforeAnythingChanges() throws IOException {
    final Registry server = new Registry();
    final long e = server.create();
    server.emplace(
        e,
        AllPrimitivesStorageB.SWAP,
        new Sample(
            true, (byte) 1, (short) 2, 'c', 3, 4, Entity.NULL, 5f, 6d, "n", null, new Point(1, 2)));
    final DeltaWriter writer = new DeltaWriter(server);
    final long tick = server.changeTick();
    final IllegalStateException refused = assertThrows(IllegalStateException.class, writer::write);
    assertTrue(
        refused.getMessage().contains("register a ValueCodec for it with codec(Point.class"));
    assertEquals(0, writer.base());
    assertEquals(tick, server.changeTick());
    // A storage created after the writer is checked too, before the writer attaches to it.
    final Registry later = new Registry();
    final DeltaWriter other = new DeltaWriter(later);
    later.emplace(
        later.create(), AllPrimitivesStorageB.IN_PLACE, server.get(e, AllPrimitivesStorageB.SWAP));
    assertThrows(IllegalStateException.class, other::write);
    assertEquals(0, other.base());
    // With the codec, the same writer writes everything.
    writer.codec(Point.class, AllPrimitivesStorageB.POINTS);
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(AllPrimitivesStorageB.SWAP)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(new Point(1, 2), replica.get(loader.map(e), AllPrimitivesStorageB.SWAP).point());
  }

  @Test
  void writingToAStreamFlushesIt() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final DeltaWriter writer = new DeltaWriter(server);
    final ByteArrayOutputStream sink = new ByteArrayOutputStream();
    final BufferedOutputStream buffered = new BufferedOutputStream(sink, 1 << 16);
    final int length = writer.write(buffered);
    assertEquals(length, sink.size(), "flushed, not left in the buffer");
    final Registry replica = new Registry();
    new DeltaLoader(replica).types(LoaderWorlds.TYPES).load(sink.toByteArray(), length);
    assertEquals(3, replica.alive());
  }

  @Test
  void closeDisconnectsEveryStorage() {
    final Registry server = LoaderWorlds.intsAndChars(2);
    final DeltaWriter writer = new DeltaWriter(server);
    final Storage<Row> ints = server.storage(LoaderWorlds.INTS);
    assertFalse(ints.afterInsert().isEmpty());
    writer.close();
    assertTrue(ints.afterInsert().isEmpty());
    assertTrue(ints.afterRemove().isEmpty());
    writer.close(); // twice: nothing left to disconnect
    assertTrue(ints.afterInsert().isEmpty());
  }

  /**
   * A construct listener that would add the component to an entity the same section emplaces finds
   * it already there: the section's insertions are all made before the first is announced, then
   * each is announced once (last inserted first, as a change set announces).
   */
  @Test
  void aConstructListenerFindsTheSectionsOtherInsertionMade() throws SnapshotFormatException {
    final Registry server = new Registry();
    final long a = server.create();
    final long b = server.create();
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    final DeltaWriter writer = new DeltaWriter(server);
    int length = writer.write();
    loader.load(writer.bytes(), length);
    server.emplace(a, LoaderWorlds.INTS, Row.of(1));
    server.emplace(b, LoaderWorlds.INTS, Row.of(2));
    final Storage<Row> ints = replica.storage(LoaderWorlds.INTS);
    final List<String> events = new java.util.ArrayList<>();
    ints.onConstruct()
        .connect(
            (r, e) -> {
              events.add("construct " + r.get(e, LoaderWorlds.INTS).get(0));
              final long other = e == loader.map(a) ? loader.map(b) : loader.map(a);
              if (!r.has(other, LoaderWorlds.INTS)) {
                r.emplace(other, LoaderWorlds.INTS, Row.of(-1));
              }
            });
    ints.onUpdate().connect((r, e) -> events.add("update " + r.get(e, LoaderWorlds.INTS).get(0)));
    length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(1, replica.get(loader.map(a), LoaderWorlds.INTS).get(0));
    assertEquals(2, replica.get(loader.map(b), LoaderWorlds.INTS).get(0));
    assertEquals(List.of("construct 2", "construct 1"), events);
    assertEquals(List.of(), replica.verify());
  }
}
