package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Mood;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotWriter} on a storage with a column of every kind ({@link AllPrimitivesStorageB}):
 * the documented byte layout, whole snapshots that load back identical (through channels that move
 * few bytes per call, with columns far larger than the 64 KiB buffers), snapshots of chosen types
 * and chosen entities, and the refusals that happen before any byte is written.
 */
class SnapshotAllColumnsTest {

  /** A tag type that no test stores elements in: it only has to be named by a snapshot. */
  static final class UnusedTagB {}

  static final ComponentType<UnusedTagB, EmptyStorage<UnusedTagB>> UNUSED_TAG =
      ComponentType.tag(UnusedTagB.class);

  static Sample randomSample(final SplittableRandom random, final long[] targets) {
    final int kind = random.nextInt(8);
    return new Sample(
        random.nextBoolean(),
        (byte) random.nextInt(),
        (short) random.nextInt(),
        (char) random.nextInt(0x10000),
        random.nextInt(),
        random.nextLong(),
        0 == kind || 0 == targets.length ? Entity.NULL : targets[random.nextInt(targets.length)],
        1 == kind ? Float.NaN : Float.intBitsToFloat(random.nextInt() & 0x7F7FFFFF),
        2 == kind ? Double.NEGATIVE_INFINITY : random.nextDouble() * 1e6 - 5e5,
        3 == kind ? null : "s" + random.nextInt(1000) + (4 == kind ? "\ud83d\ude00" : ""),
        5 == kind ? null : Mood.values()[random.nextInt(3)],
        6 == kind ? null : new Point(random.nextInt(), random.nextInt()));
  }

  /**
   * A world with both sample storages: released entities, elements on many pages, in-place holes.
   */
  static Registry world(final long seed, final int entities) {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry registry = new Registry();
    final long[] created = new long[entities];
    registry.create(created);
    for (final long entity : created) {
      if (random.nextInt(10) == 0) {
        registry.destroy(entity); // released
      }
    }
    final long[] live = Arrays.copyOf(registry.entities().packed(), registry.alive());
    for (final long entity : live) {
      if (random.nextInt(4) != 0) {
        registry.emplace(entity, AllPrimitivesStorageB.SWAP, randomSample(random, live));
      }
      if (random.nextInt(2) == 0) {
        registry.emplace(entity, AllPrimitivesStorageB.IN_PLACE, randomSample(random, live));
      }
    }
    for (final long entity : live) {
      final int roll = random.nextInt(10);
      if (roll == 0) {
        registry.remove(entity, AllPrimitivesStorageB.IN_PLACE); // a hole, if it had one
      } else if (roll == 1) {
        registry.remove(entity, AllPrimitivesStorageB.SWAP);
      }
    }
    return registry;
  }

  static SnapshotWriter writer(final Registry registry) {
    return new SnapshotWriter(registry).codec(Point.class, AllPrimitivesStorageB.POINTS);
  }

  static byte[] save(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(writer.write(new ChunkedChannels.Trickle(out, 4097)), out.size());
    return out.toByteArray();
  }

  static Registry load(final byte[] bytes) throws IOException {
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(AllPrimitivesStorageB.SWAP, AllPrimitivesStorageB.IN_PLACE)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .load(new ChunkedChannels.Source(bytes, 5003));
    return loaded;
  }

  static String dump(final Registry registry) throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    return text.toString();
  }

  /**
   * Two in-place storages with the same entities at the same positions, holes included, load
   * exactly: a storage with holes is never the start of another's sparse array (its holes would go
   * uncounted in the other).
   */
  @Test
  void inPlaceStoragesWithTheSameHolesLoadExactly() throws IOException {
    final SplittableRandom random = new SplittableRandom(9);
    final Registry saved = new Registry();
    final long[] created = new long[3 * SparseSet.SPARSE_PAGE_SIZE];
    saved.create(created);
    for (final long entity : created) {
      final Sample sample = randomSample(random, created);
      saved.emplace(entity, AllPrimitivesStorageB.IN_PLACE, sample);
      saved.emplace(entity, AllPrimitivesStorageB.IN_PLACE_TWIN, sample);
    }
    for (int i = 0; i < created.length; i += 1 + random.nextInt(7)) {
      saved.remove(created[i], AllPrimitivesStorageB.IN_PLACE);
      saved.remove(created[i], AllPrimitivesStorageB.IN_PLACE_TWIN);
    }
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .load(ByteBuffer.wrap(save(writer(saved))));
    assertEquals(List.of(), loaded.verify());
    for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type :
        List.of(AllPrimitivesStorageB.IN_PLACE, AllPrimitivesStorageB.IN_PLACE_TWIN)) {
      assertEquals(saved.storage(type).firstHole(), loaded.storage(type).firstHole());
      for (final long entity : created) {
        assertEquals(saved.storage(type).indexOf(entity), loaded.storage(type).indexOf(entity));
      }
    }
    assertEquals(dump(saved), dump(loaded));
  }

  /** Every column's values, the positions and the holes survive a whole snapshot exactly. */
  @Test
  void everyColumnRoundTripsThroughAWholeSnapshot() throws IOException {
    final Registry saved = world(1, 12_000);
    final byte[] bytes = save(writer(saved));
    final Registry loaded = load(bytes);
    assertEquals(List.of(), loaded.verify());
    for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type :
        List.of(AllPrimitivesStorageB.SWAP, AllPrimitivesStorageB.IN_PLACE)) {
      final AllPrimitivesStorageB<Sample> before = saved.storage(type);
      final AllPrimitivesStorageB<Sample> after = loaded.storage(type);
      assertEquals(before.size(), after.size());
      assertEquals(before.firstHole(), after.firstHole());
      for (int position = 0; position < before.size(); position++) {
        assertEquals(before.at(position), after.at(position));
        if (!Entity.isTombstone(before.at(position))) {
          assertSample(before.sampleAt(position), after.sampleAt(position));
        }
      }
    }
    assertEquals(dump(saved), dump(loaded));
    assertArrayEquals(bytes, save(writer(loaded)), "re-saving gives the same bytes");
  }

  /** The exact bytes of a small snapshot: header, entities, extras, one storage, every column. */
  @Test
  void theBytesFollowTheDocumentedLayout() throws IOException {
    final Registry registry = new Registry();
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    registry.destroy(c);
    final Sample first =
        new Sample(
            true,
            (byte) -2,
            (short) 513,
            '\u00e9',
            -5,
            1L << 40,
            b,
            2.5f,
            -1.25,
            "\u00e9t\u00e9",
            Mood.SLEEPY,
            new Point(3, -4));
    final Sample second =
        new Sample(
            false, (byte) 7, (short) -1, 'z', 6, -7L, Entity.NULL, -0f, 8d, null, null, null);
    registry.emplace(a, AllPrimitivesStorageB.IN_PLACE, first);
    registry.emplace(b, AllPrimitivesStorageB.IN_PLACE, second);
    registry.remove(a, AllPrimitivesStorageB.IN_PLACE); // position 0 is a hole now
    final AllPrimitivesStorageB<Sample> storage = registry.storage(AllPrimitivesStorageB.IN_PLACE);
    final byte[] bytes =
        save(writer(registry).extra("rng", new byte[] {4, 5}).extra("empty", new byte[0]));

    final Expected expected = new Expected();
    expected.bytes('P', 'H', 'N', 'X').putInt(1).putInt(1); // magic, version, FULL
    expected.putInt(3).putInt(2); // entity count, alive
    for (int i = 0; i < 3; i++) {
      expected.putLong(registry.entities().packed()[i]);
    }
    expected.putInt(2).string("rng").putInt(2).bytes(4, 5).string("empty").putInt(0);
    expected.putInt(1); // one storage
    expected.string("class:" + AllPrimitivesStorageB.InPlaceSample.class.getName()).bytes(1);
    expected.putInt(12);
    expected.string("flag").bytes(1).string("tiny").bytes(2).string("small").bytes(3);
    expected.string("letter").bytes(4).string("count").bytes(5).string("big").bytes(6);
    expected.string("target").bytes(7).string("ratio").bytes(8).string("precise").bytes(9);
    expected.string("name").bytes(10);
    expected.string("mood").bytes(11).string(Mood.class.getName()).putInt(3);
    expected.string("CALM").string("ANGRY").string("SLEEPY");
    expected.string("point").bytes(12).string(Point.class.getName());
    expected.putInt(2).putInt(0); // size, first hole
    expected.putLong(storage.at(0)).putLong(b);
    // The hole keeps its stale primitives; its references were cleared.
    expected.bytes(1, 0).bytes(-2, 7).putShort(513).putShort(-1).putShort('\u00e9').putShort('z');
    expected.putInt(-5).putInt(6).putLong(1L << 40).putLong(-7L).putLong(b).putLong(Entity.NULL);
    expected.putFloat(2.5f).putFloat(-0f).putDouble(-1.25).putDouble(8d);
    expected.putInt(-1).putInt(-1); // names: null (the hole), null
    expected.putInt(-1).putInt(-1); // moods
    expected.putInt(-1).putInt(-1); // points
    expected.bytes('E', 'N', 'D', '!');
    assertArrayEquals(expected.toArray(), bytes);

    // Values the hole cannot hold: a string, an enum by index, a codec's length and bytes.
    registry.emplace(a, AllPrimitivesStorageB.IN_PLACE, first); // refills the hole
    final byte[] refilled = save(writer(registry).types(AllPrimitivesStorageB.IN_PLACE));
    final Expected tail = new Expected();
    tail.putInt(3).putShort('\u00e9').putShort('t').putShort('\u00e9').putInt(-1); // names
    tail.putInt(2).putInt(-1); // moods: SLEEPY is constant 2
    tail.putInt(8).putBigEndianInt(3).putBigEndianInt(-4).putInt(-1); // points, DataOutput order
    tail.bytes('E', 'N', 'D', '!');
    final byte[] end = tail.toArray();
    assertArrayEquals(
        end, Arrays.copyOfRange(refilled, refilled.length - end.length, refilled.length));
  }

  /** An empty storage, or one filling its pages exactly, is written and read back. */
  @Test
  void emptyStoragesAndExactlyFullPagesRoundTrip() throws IOException {
    final Registry registry = new Registry();
    registry.storage(AllPrimitivesStorageB.IN_PLACE); // no element, no page
    final long[] entities = new long[8];
    registry.create(entities);
    final SplittableRandom random = new SplittableRandom(3);
    for (final long entity : entities) {
      registry.emplace(entity, AllPrimitivesStorageB.SWAP, randomSample(random, entities));
    }
    assertEquals(2, registry.storage(AllPrimitivesStorageB.SWAP).pageCount());
    final Registry loaded = load(save(writer(registry)));
    assertEquals(0, loaded.storage(AllPrimitivesStorageB.IN_PLACE).size());
    assertEquals(dump(registry), dump(loaded));
  }

  /** {@code types} writes only those storages, in the order given. */
  @Test
  void chosenTypesAreWrittenInTheirOrder() throws IOException {
    final Registry registry = world(2, 50);
    registry.storage(UNUSED_TAG);
    final byte[] bytes =
        save(writer(registry).types(AllPrimitivesStorageB.IN_PLACE, AllPrimitivesStorageB.SWAP));
    final String text = new String(bytes, StandardCharsets.ISO_8859_1);
    final int inPlace =
        text.indexOf("class:" + AllPrimitivesStorageB.InPlaceSample.class.getName());
    final int swap = text.indexOf("class:" + AllPrimitivesStorageB.SwapSample.class.getName());
    assertTrue(inPlace > 0 && swap > inPlace, inPlace + " then " + swap);
    assertEquals(-1, text.indexOf(UnusedTagB.class.getName()));
    final Registry loaded = load(bytes);
    assertEquals(2, loaded.storageCount());
    assertEquals(AllPrimitivesStorageB.IN_PLACE, loaded.storageAt(0).type());
    assertEquals(registry.entities().size(), loaded.entities().size());
    for (int position = 0;
        position < registry.storage(AllPrimitivesStorageB.SWAP).size();
        position++) {
      assertSample(
          registry.storage(AllPrimitivesStorageB.SWAP).sampleAt(position),
          loaded.storage(AllPrimitivesStorageB.SWAP).sampleAt(position));
    }
  }

  /**
   * A snapshot of chosen entities lists just them (not FULL), and only their elements, holes
   * dropped, read position by position across pages.
   */
  @Test
  void chosenEntitiesAreWrittenWithJustTheirElements() throws IOException {
    final Registry registry = world(4, 300);
    final long[] live = Arrays.copyOf(registry.entities().packed(), registry.alive());
    // Every third live entity, out of order (distinct: a snapshot lists each entity once).
    final long[] chosen = new long[live.length / 3];
    for (int i = 0; i < chosen.length; i++) {
      chosen[i] = live[3 * (chosen.length - 1 - i)];
    }
    final long[] passed = chosen.clone();
    final SnapshotWriter writer = writer(registry).entities(passed);
    Arrays.fill(passed, Entity.NULL); // the writer kept its own copy
    final byte[] bytes = save(writer);
    final ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0, header.getInt(8), "not FULL");
    assertEquals(chosen.length, header.getInt(12));
    assertEquals(chosen.length, header.getInt(16));
    for (int i = 0; i < chosen.length; i++) {
      assertEquals(chosen[i], header.getLong(20 + 8 * i));
    }

    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(SnapshotTypes.of(registry));
    loader.load(new ByteArrayInputStream(bytes));
    assertEquals(chosen.length, loader.size());
    assertEquals(List.of(), local.verify());
    final java.util.Set<Long> picked = new java.util.HashSet<>();
    for (final long entity : chosen) {
      picked.add(entity);
    }
    for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type :
        List.of(AllPrimitivesStorageB.SWAP, AllPrimitivesStorageB.IN_PLACE)) {
      int expected = 0;
      for (final long entity : chosen) {
        final AllPrimitivesStorageB<Sample> remote = registry.storage(type);
        final AllPrimitivesStorageB<Sample> mine = local.storage(type);
        if (!remote.contains(entity)) {
          assertFalse(mine.contains(loader.map(entity)));
          continue;
        }
        expected++;
        final Sample original = remote.sampleAt(remote.indexOf(entity));
        final long target =
            picked.contains(original.target()) ? loader.map(original.target()) : Entity.NULL;
        assertSample(withTarget(original, target), mine.sampleAt(mine.indexOf(loader.map(entity))));
      }
      assertEquals(expected, local.storage(type).size(), "holes and other entities dropped");
    }
  }

  /** A field whose class has no codec is refused, naming it, before anything is written. */
  @Test
  void aFieldWithoutACodecIsRefusedBeforeAnyByteIsWritten() {
    final Registry registry = world(5, 20);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new SnapshotWriter(registry).write(out));
    assertEquals(
        "cannot save storage of SwapSample: field 'point' is of type "
            + Point.class.getName()
            + ", which snapshots do not encode natively; register a ValueCodec for it with"
            + " codec(Point.class, ...)",
        e.getMessage());
    assertEquals(0, out.size());
  }

  /** A chosen entity that is not live is refused before anything is written. */
  @Test
  void aChosenDeadEntityIsRefusedBeforeAnyByteIsWritten() {
    final Registry registry = new Registry();
    final long a = registry.create();
    final long b = registry.create();
    registry.destroy(b);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new SnapshotWriter(registry).entities(a, b).write(out));
    assertEquals("cannot save Entity(index=1, version=0): it is not a live entity", e.getMessage());
    assertEquals(0, out.size());
  }

  /**
   * A chosen entity listed twice is refused before anything is written: a snapshot lists each
   * entity once, and every loader refuses a repeated identifier.
   */
  @Test
  void aChosenEntityListedTwiceIsRefusedBeforeAnyByteIsWritten() {
    final Registry registry = new Registry();
    final long a = registry.create();
    final long b = registry.create();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new SnapshotWriter(registry).entities(b, a, b).write(out));
    assertEquals(
        "cannot save Entity(index=1, version=0): it is listed twice in entities(...), and a"
            + " snapshot lists each entity once",
        e.getMessage());
    assertEquals(0, out.size());
  }

  /** Extras are copied when given, replaced by name, and loaded back in their order. */
  @Test
  void extrasAreCopiedAndReplacedByName() throws IOException {
    final Registry registry = new Registry();
    registry.create();
    final byte[] data = {1, 2, 3};
    final SnapshotWriter writer =
        new SnapshotWriter(registry)
            .extra("a", data)
            .extra("b", new byte[] {9})
            .extra("a", new byte[] {4});
    data[0] = 7;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.write(out);
    final Map<String, byte[]> extras =
        new SnapshotLoader(new Registry()).load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(List.of("a", "b"), List.copyOf(extras.keySet()));
    assertArrayEquals(new byte[] {4}, extras.get("a"));
    assertArrayEquals(new byte[] {9}, extras.get("b"));
    final Map<String, byte[]> continuous =
        new ContinuousLoader(new Registry()).load(new ByteArrayInputStream(out.toByteArray()));
    assertArrayEquals(new byte[] {4}, continuous.get("a"));
    assertThrows(UnsupportedOperationException.class, () -> continuous.put("c", data));
  }

  /** Writing to a stream flushes it (without closing it); a writer may be reused. */
  @Test
  void aStreamIsFlushedAndAWriterReused() throws IOException {
    final Registry registry = world(6, 40);
    final SnapshotWriter writer = writer(registry);
    final ByteArrayOutputStream target = new ByteArrayOutputStream();
    final BufferedOutputStream buffered = new BufferedOutputStream(target, 1 << 20);
    final long written = writer.write(buffered);
    assertEquals(written, target.size(), "flushed through the buffer");
    assertArrayEquals(target.toByteArray(), save(writer));
    assertNotEquals(0, written);
  }

  static Sample withTarget(final Sample s, final long target) {
    return new Sample(
        s.flag(),
        s.tiny(),
        s.small(),
        s.letter(),
        s.count(),
        s.big(),
        target,
        s.ratio(),
        s.precise(),
        s.name(),
        s.mood(),
        s.point());
  }

  /** Compares two samples, floats and doubles by their raw bits. */
  static void assertSample(final Sample expected, final Sample actual) {
    assertEquals(expected, actual);
    assertEquals(
        Float.floatToRawIntBits(expected.ratio()), Float.floatToRawIntBits(actual.ratio()));
    assertEquals(
        Double.doubleToRawLongBits(expected.precise()),
        Double.doubleToRawLongBits(actual.precise()));
  }

  /** Little-endian expected bytes. */
  static final class Expected {
    private final ByteBuffer buffer = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);

    Expected bytes(final int... values) {
      for (final int value : values) {
        buffer.put((byte) value);
      }
      return this;
    }

    Expected putShort(final int value) {
      buffer.putShort((short) value);
      return this;
    }

    Expected putInt(final int value) {
      buffer.putInt(value);
      return this;
    }

    Expected putBigEndianInt(final int value) {
      buffer.order(ByteOrder.BIG_ENDIAN).putInt(value).order(ByteOrder.LITTLE_ENDIAN);
      return this;
    }

    Expected putLong(final long value) {
      buffer.putLong(value);
      return this;
    }

    Expected putFloat(final float value) {
      buffer.putFloat(value);
      return this;
    }

    Expected putDouble(final double value) {
      buffer.putDouble(value);
      return this;
    }

    Expected string(final String value) {
      final byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      buffer.putInt(utf8.length).put(utf8);
      return this;
    }

    byte[] toArray() {
      return Arrays.copyOf(buffer.array(), buffer.position());
    }
  }
}
