package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import org.junit.jupiter.api.Test;

/**
 * {@link DeltaLoader}'s remote map and staging marks, kept by remote index: two remote handles of
 * one index (versions) mapped at once, lost one at a time, listed in one section; a remote handle
 * listed twice; indices far beyond what the replica maps; a recycled remote index through a real
 * {@link DeltaWriter}. A map or mark kept by index alone (no version compare, no overflow) fails
 * these.
 */
class DeltaRemoteIndexTest {

  private static final class Mark {}

  private static final ComponentType<Mark, ?> MARK = ComponentType.tag(Mark.class);

  private static final long STREAM = 0x5EED;

  /** A hand-built delta: gained and lost entities, and at most one section of the tag. */
  private static byte[] delta(
      final long base,
      final long tick,
      final long[] gone,
      final long[] arrived,
      final long[] removed,
      final long[] marked) {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
    out.putBytes(DeltaFormat.MAGIC, 0, 4);
    out.putInt(DeltaFormat.VERSION);
    out.putInt(0);
    out.putLong(STREAM);
    out.putLong(base);
    out.putLong(tick);
    out.putInt(gone.length);
    out.longs(gone, 0, gone.length);
    out.putInt(arrived.length);
    out.longs(arrived, 0, arrived.length);
    final boolean section = 0 != removed.length + marked.length;
    out.putInt(section ? 1 : 0);
    if (section) {
      out.putString(SnapshotFormat.key(MARK));
      out.putInt(0); // a tag: no fields
      out.putInt(removed.length);
      out.longs(removed, 0, removed.length);
      out.putInt(marked.length);
      out.longs(marked, 0, marked.length);
    }
    out.putIntAt(8, out.size() + DeltaFormat.TRAILER);
    out.putInt(DeltaFormat.crc(new java.util.zip.CRC32C(), out.bytes(), 0, out.size()));
    return java.util.Arrays.copyOf(out.bytes(), out.size());
  }

  private static void load(final DeltaLoader loader, final byte[] delta)
      throws SnapshotFormatException {
    loader.load(delta, delta.length);
  }

  private static final long[] NONE = {};

  private static void send(final DeltaWriter writer, final DeltaLoader loader)
      throws SnapshotFormatException {
    final int length = writer.write(); // first: it may grow the array bytes() returns
    loader.load(writer.bytes(), length);
  }

  @Test
  void twoVersionsOfOneRemoteIndexMapToTwoLocalEntities() throws SnapshotFormatException {
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(MARK);
    final long old = Entity.of(5, 0);
    final long recycled = Entity.of(5, 1);
    final long other = Entity.of(6, 0);
    load(loader, delta(0, 1, NONE, new long[] {old, recycled, other}, NONE, new long[] {old}));
    assertEquals(3, loader.size());
    final long oldLocal = loader.map(old);
    final long recycledLocal = loader.map(recycled);
    assertTrue(replica.valid(oldLocal));
    assertTrue(replica.valid(recycledLocal));
    assertNotEquals(oldLocal, recycledLocal);
    final Storage<Mark> marks = replica.storage(MARK);
    assertTrue(marks.contains(oldLocal));
    assertFalse(marks.contains(recycledLocal));
    // Both versions listed in one section: two entities, not "listed twice".
    load(loader, delta(1, 2, NONE, NONE, new long[] {old}, new long[] {recycled, other}));
    assertFalse(marks.contains(oldLocal));
    assertTrue(marks.contains(recycledLocal));
    // The older version goes; the newer stays mapped to its own local entity.
    load(loader, delta(2, 3, new long[] {old}, NONE, NONE, NONE));
    assertEquals(Entity.NULL, loader.map(old));
    assertFalse(replica.valid(oldLocal));
    assertEquals(recycledLocal, loader.map(recycled));
    assertTrue(replica.valid(recycledLocal));
    assertEquals(2, loader.size());
    // Losing it again is refused: it is no longer held (whatever holds index 5).
    final byte[] again = delta(3, 4, new long[] {old}, NONE, NONE, NONE);
    final SnapshotFormatException refused =
        assertThrows(SnapshotFormatException.class, () -> load(loader, again));
    assertTrue(refused.getMessage().contains("does not hold"), refused.getMessage());
    load(loader, delta(3, 4, new long[] {recycled}, NONE, NONE, NONE));
    assertFalse(replica.valid(recycledLocal));
    assertEquals(1, loader.size());
  }

  @Test
  void aRemoteHandleListedTwiceIsRefusedAndTheReplicaIsUnchanged() throws SnapshotFormatException {
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(MARK);
    final long a = Entity.of(9, 0);
    final long b = Entity.of(9, 4);
    load(loader, delta(0, 1, NONE, new long[] {a, b}, NONE, NONE));
    final byte[] twice = delta(1, 2, NONE, NONE, NONE, new long[] {b, a, b});
    final SnapshotFormatException refused =
        assertThrows(SnapshotFormatException.class, () -> load(loader, twice));
    assertTrue(refused.getMessage().contains("listed twice"), refused.getMessage());
    assertEquals(1, loader.tick());
    assertTrue(null == replica.findStorage(MARK) || 0 == replica.findStorage(MARK).size());
    // Gaining a version already held is refused too, and one lost and gained in one delta is not.
    final byte[] held = delta(1, 2, NONE, new long[] {b}, NONE, NONE);
    assertThrows(SnapshotFormatException.class, () -> load(loader, held));
    final long c = Entity.of(9, 5);
    load(loader, delta(1, 2, new long[] {b}, new long[] {c}, NONE, new long[] {a, c}));
    assertEquals(Entity.NULL, loader.map(b));
    assertTrue(replica.storage(MARK).contains(loader.map(a)));
    assertTrue(replica.storage(MARK).contains(loader.map(c)));
    assertEquals(2, loader.size());
  }

  @Test
  void farRemoteIndicesAreMappedWithoutAFlatArrayAsLargeAsThem() throws SnapshotFormatException {
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(MARK);
    final long[] far = new long[64];
    for (int i = 0; i < far.length; i++) {
      far[i] = Entity.of(Entity.MAX_INDEX - 3 * i, i);
    }
    load(loader, delta(0, 1, NONE, far, NONE, far));
    assertEquals(far.length, loader.size());
    final Storage<Mark> marks = replica.storage(MARK);
    for (final long remote : far) {
      assertTrue(marks.contains(loader.map(remote)), Entity.toString(remote));
    }
    load(loader, delta(1, 2, far, NONE, NONE, NONE));
    assertEquals(0, loader.size());
    assertEquals(0, replica.alive());
  }

  @Test
  void aRecycledRemoteIndexReplacesItsOldIncarnation() throws SnapshotFormatException {
    final Registry server = new Registry();
    final Storage<Mark> serverMarks = server.storage(MARK);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(MARK);
    final long[] first = new long[2000];
    for (int i = 0; i < first.length; i++) {
      first[i] = server.create();
      if (0 == i % 3) {
        serverMarks.emplace(first[i], null);
      }
    }
    send(writer, loader);
    final Storage<Mark> marks = replica.storage(MARK);
    for (int round = 0; round < 3; round++) {
      for (int i = round; i < first.length; i += 7) {
        server.destroy(first[i]);
        first[i] = server.create(); // the index recycled, a new version
        if (0 == (i + round) % 2) {
          serverMarks.emplace(first[i], null);
        }
      }
      send(writer, loader);
      assertEquals(server.alive(), loader.size());
      assertEquals(server.alive(), replica.alive());
      for (final long remote : first) {
        final long local = loader.map(remote);
        assertTrue(replica.valid(local), Entity.toString(remote));
        assertEquals(serverMarks.contains(remote), marks.contains(local), Entity.toString(remote));
      }
      assertEquals(serverMarks.size(), marks.size());
    }
    writer.close();
  }
}
