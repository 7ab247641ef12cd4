package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@code types(...)} means one thing on every writer and loader: each call adds to the types of the
 * earlier ones. Two chained calls choose both types, on each class.
 */
class TypesMeanTheSameTest {

  @Test
  void twoCallsOnADeltaWriterAndLoaderStreamBothTypes() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final DeltaWriter writer =
        new DeltaWriter(server)
            .types(LoaderWorlds.INTS)
            .types(LoaderWorlds.CHARS)
            .whenAdded(LoaderWorlds.INTS)
            .whenAdded(LoaderWorlds.CHARS);
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica).types(LoaderWorlds.INTS).types(LoaderWorlds.CHARS);
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(3, replica.storage(LoaderWorlds.INTS).size());
    assertEquals(3, replica.storage(LoaderWorlds.CHARS).size());
    final long e = LoaderWorlds.live(server)[0];
    assertEquals(server.get(e, LoaderWorlds.INTS), replica.get(loader.map(e), LoaderWorlds.INTS));
  }

  @Test
  void twoCallsOnASnapshotWriterAndLoaderSaveBothTypes() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(server)
        .types(LoaderWorlds.INTS)
        .types(LoaderWorlds.CHARS, LoaderWorlds.INTS) // a type given twice is saved once
        .write(out);
    final Registry copy = new Registry();
    new SnapshotLoader(copy)
        .types(LoaderWorlds.INTS)
        .types(LoaderWorlds.CHARS)
        .load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(3, copy.storage(LoaderWorlds.INTS).size());
    assertEquals(3, copy.storage(LoaderWorlds.CHARS).size());
    final long e = LoaderWorlds.live(server)[1];
    assertEquals(Row.of(101), copy.get(e, LoaderWorlds.INTS));
  }

  @Test
  void twoCallsOnAContinuousLoaderAcceptBothTypes() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(3);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(server).types(LoaderWorlds.INTS).types(LoaderWorlds.CHARS).write(out);
    final Registry mirror = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(mirror).types(LoaderWorlds.INTS).types(LoaderWorlds.CHARS);
    loader.load(ByteBuffer.wrap(out.toByteArray()));
    assertEquals(3, mirror.storage(LoaderWorlds.INTS).size());
    assertEquals(3, mirror.storage(LoaderWorlds.CHARS).size());
  }

  @Test
  void aDeltaWriterTakesNoTypesAfterItsFirstWrite() {
    final Registry server = LoaderWorlds.intsAndChars(2);
    final DeltaWriter writer =
        new DeltaWriter(server).types(LoaderWorlds.INTS).whenAdded(LoaderWorlds.INTS);
    writer.write();
    final IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> writer.types(LoaderWorlds.CHARS));
    assertTrue(e.getMessage().contains("before the first write"), e.getMessage());
    assertTrue(server.storage(LoaderWorlds.CHARS).afterInsert().isEmpty());
  }

  // ---------------------------------------------------------------------------------------------
  // An untracked type listed in types(...) says how it is replicated.
  // ---------------------------------------------------------------------------------------------

  @Test
  void anUntrackedTypeListedWithoutAWordIsRefusedAtTheWrite() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(2);
    final DeltaWriter writer = new DeltaWriter(server).types(LoaderWorlds.INTS, LoaderWorlds.CHARS);
    final long tick = server.changeTick();
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, writer::write);
    final String storage = server.storage(LoaderWorlds.INTS).describe();
    assertTrue(e.getMessage().contains(storage), e.getMessage());
    assertTrue(e.getMessage().contains("untracked"), e.getMessage());
    assertTrue(e.getMessage().contains("@Component(tracked = true)"), e.getMessage());
    assertTrue(e.getMessage().contains("everyValue(type)"), e.getMessage());
    assertTrue(e.getMessage().contains("whenAdded(type)"), e.getMessage());
    // Refused before anything: no delta, no tick taken.
    assertEquals(0, writer.base());
    assertEquals(tick, server.changeTick());
    // Either answer lets it write, and the first delta is then whole.
    writer.everyValue(LoaderWorlds.INTS).whenAdded(LoaderWorlds.CHARS);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    assertEquals(2, replica.storage(LoaderWorlds.INTS).size());
    assertEquals(2, replica.storage(LoaderWorlds.CHARS).size());
  }

  @Test
  void aStorageCreatedLaterIsCheckedToo() {
    final Registry server = LoaderWorlds.intsAndChars(1);
    final DeltaWriter writer =
        new DeltaWriter(server)
            .types(LoaderWorlds.INTS, AllPrimitivesStorageB.SWAP)
            .whenAdded(LoaderWorlds.INTS)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    writer.write(); // no SWAP storage yet
    server.storage(AllPrimitivesStorageB.SWAP);
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, writer::write);
    assertTrue(
        e.getMessage().contains(server.storage(AllPrimitivesStorageB.SWAP).describe()),
        e.getMessage());
  }

  @Test
  void trackedTypesTagsAndEveryStorageByDefaultNeedNoWord() {
    final Registry server = LoaderWorlds.intsAndChars(1);
    final long e = LoaderWorlds.live(server)[0];
    server.emplace(e, LoaderWorlds.LOCAL_ONLY, new Object());
    server.storage(AllPrimitivesStorageB.TRACKED);
    new DeltaWriter(server)
        .types(AllPrimitivesStorageB.TRACKED, LoaderWorlds.LOCAL_ONLY)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .write();
    // Without types(...), every storage is streamed, untracked ones as when declared whenAdded.
    new DeltaWriter(server).codec(Point.class, AllPrimitivesStorageB.POINTS).write();
  }
}
