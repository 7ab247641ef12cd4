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
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DeltaLoader} on hand-built deltas: every rule of its staging refuses the delta it names
 * with a {@link SnapshotFormatException} that says which rule and where, and leaves the replica,
 * the remote map and the tick as they were; the deltas just inside each rule load. Then the apply
 * itself: fields the replica lacks or the delta lacks, enum constants by name, null references,
 * change ticks, listeners that throw or destroy.
 */
class DeltaLoaderRefusalTest {

  private static final long STREAM = 0x5EED;
  private static final long A = Entity.of(1, 0);
  private static final long B = Entity.of(2, 0);
  private static final long C = Entity.of(3, 0);

  private static final String INTS = SnapshotFormat.key(LoaderWorlds.INTS);
  private static final String MIXED = SnapshotFormat.key(LoaderWorlds.MIXED);
  private static final String SWAP = SnapshotFormat.key(AllPrimitivesStorageB.SWAP);
  private static final String MOOD = LoaderWorlds.Mood.class.getName();

  /** A delta written field by field, as {@code docs/snapshot-format.md} lays it out. */
  static final class Raw {
    final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();

    Raw(final long stream, final long base, final long tick) {
      out.putBytes(DeltaFormat.MAGIC, 0, 4);
      out.putInt(DeltaFormat.VERSION);
      out.putInt(0);
      out.putLong(stream);
      out.putLong(base);
      out.putLong(tick);
    }

    Raw i(final int... values) {
      for (final int value : values) {
        out.putInt(value);
      }
      return this;
    }

    Raw l(final long... values) {
      for (final long value : values) {
        out.putLong(value);
      }
      return this;
    }

    Raw list(final long... values) {
      return i(values.length).l(values);
    }

    Raw s(final String value) {
      out.putString(value);
      return this;
    }

    Raw b(final int... values) {
      for (final int value : values) {
        out.putByte(value);
      }
      return this;
    }

    Raw chars(final String value) {
      out.putChars(value);
      return this;
    }

    /** The bytes with their length and checksum set. */
    byte[] bytes() {
      final byte[] bytes = Arrays.copyOf(out.bytes(), out.size() + DeltaFormat.TRAILER);
      final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      buffer.putInt(8, bytes.length);
      buffer.putInt(out.size(), DeltaFormat.crc(new java.util.zip.CRC32C(), bytes, 0, out.size()));
      return bytes;
    }
  }

  /** The replica after the first delta: A (int 5) and B (int 6) gained, at tick 1. */
  private static DeltaLoader replica(final Registry registry) throws SnapshotFormatException {
    final DeltaLoader loader =
        new DeltaLoader(registry)
            .types(LoaderWorlds.INTS, LoaderWorlds.MIXED, AllPrimitivesStorageB.SWAP)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    final byte[] first =
        new Raw(STREAM, 0, 1)
            .list()
            .list(A, B)
            .i(1)
            .s(INTS)
            .i(1)
            .s("value")
            .b(SnapshotFormat.INT)
            .list()
            .list(A, B)
            .i(5, 6)
            .bytes();
    loader.load(first, first.length);
    return loader;
  }

  /** The next delta's header, on the replica's tick 1. */
  private static Raw next() {
    return new Raw(STREAM, 1, 2);
  }

  /** A next delta with no change but one section header for {@code key}. */
  private static Raw section(final String key, final int fields) {
    return next().list().list().i(1).s(key).i(fields);
  }

  private static SnapshotFormatException refused(final byte[] delta, final String expected)
      throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final String before = LoaderWorlds.dump(registry);
    final long a = loader.map(A);
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(delta, delta.length));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertTrue(e.offset() >= 0 && e.offset() <= delta.length, e.getMessage());
    assertEquals(before, LoaderWorlds.dump(registry));
    assertEquals(1, loader.tick());
    assertEquals(2, loader.size());
    assertEquals(a, loader.map(A));
    assertEquals(List.of(), registry.verify());
    return e;
  }

  private static DeltaLoader loaded(final Registry registry, final byte[] delta)
      throws SnapshotFormatException {
    final DeltaLoader loader = replica(registry);
    loader.load(delta, delta.length);
    assertEquals(2, loader.tick());
    assertEquals(List.of(), registry.verify());
    return loader;
  }

  private static int intOf(final Registry registry, final DeltaLoader loader, final long remote) {
    return (Integer) registry.get(loader.map(remote), LoaderWorlds.INTS).get(0);
  }

  // ---------------------------------------------------------------------------------------------
  // The header.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aWrongMagicAtAnyOfItsFourBytesIsRefused() throws SnapshotFormatException {
    for (int i = 0; i < 4; i++) {
      final byte[] delta = next().list().list().i(0).bytes();
      delta[i] ^= 0x20;
      final SnapshotFormatException e = refused(delta, "its magic is not PHND");
      assertEquals(i + 1, e.offset());
    }
  }

  @Test
  void anotherVersionIsRefused() throws SnapshotFormatException {
    final byte[] delta = next().list().list().i(0).bytes();
    delta[4] = 2;
    final SnapshotFormatException e = refused(delta, "version 2, this reader reads 1");
    assertEquals(8, e.offset());
  }

  @Test
  void aLengthShorterThanAnyDeltaIsRefused() throws SnapshotFormatException {
    final byte[] delta = next().list().list().i(0).bytes();
    ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 15);
    refused(Arrays.copyOf(delta, 15), "length 15 is shorter than any delta");
    // 16 bytes (header and checksum) is long enough to be read, then fails its checksum.
    ByteBuffer.wrap(delta).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 16);
    refused(Arrays.copyOf(delta, 16), "checksum");
  }

  @Test
  void aLengthOtherThanTheBytesGivenIsRefused() throws SnapshotFormatException {
    final byte[] delta = next().list().list().i(0).bytes();
    final byte[] longer = Arrays.copyOf(delta, delta.length + 4);
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(longer, longer.length));
    assertTrue(e.getMessage().contains("its length is " + delta.length + " but it is given as"));
    assertEquals(1, loader.tick());
    loader.load(longer, delta.length);
    assertEquals(2, loader.tick());
  }

  @Test
  void everyFlippedBitIsCaughtByTheChecksum() throws SnapshotFormatException {
    final byte[] delta = next().list(B).list(C).i(0).bytes();
    for (int bit = 12 * 8; bit < 8 * delta.length; bit++) {
      final byte[] flipped = delta.clone();
      flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
      final SnapshotFormatException e = refused(flipped, "its checksum does not match");
      assertEquals(delta.length - 4, e.offset());
    }
  }

  @Test
  void theFirstDeltaMustHaveBaseZero() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = new DeltaLoader(registry);
    final byte[] delta = new Raw(STREAM, 3, 4).list().list(A).i(0).bytes();
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(delta, delta.length));
    assertTrue(e.getMessage().contains("its base is tick 3 but this replica holds nothing yet"));
    assertEquals(0, registry.alive());
    assertEquals(0, loader.tick());
    // Base 0 from any stream is accepted; the stream is then this replica's.
    final byte[] good = new Raw(77, 0, 4).list().list(A).i(0).bytes();
    loader.load(good, good.length);
    assertEquals(4, loader.tick());
    final byte[] after = new Raw(77, 4, 5).list(A).list().i(0).bytes();
    loader.load(after, after.length);
    assertEquals(5, loader.tick());
    assertEquals(0, registry.alive());
  }

  @Test
  void aDeltaOfAnotherWriterIsRefused() throws SnapshotFormatException {
    refused(new Raw(STREAM + 1, 1, 2).list().list().i(0).bytes(), "another writer");
  }

  @Test
  void aDeltaOnAnotherBaseIsRefused() throws SnapshotFormatException {
    refused(new Raw(STREAM, 0, 2).list().list().i(0).bytes(), "its base is tick 0");
    refused(
        new Raw(STREAM, 2, 3).list().list().i(0).bytes(),
        "its base is tick 2 but this replica holds tick 1");
  }

  @Test
  void aTickNotAfterItsBaseIsRefused() throws SnapshotFormatException {
    refused(new Raw(STREAM, 1, 1).list().list().i(0).bytes(), "its tick 1 is not after its base");
    refused(new Raw(STREAM, 1, 0).list().list().i(0).bytes(), "its tick 0 is not after its base");
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final byte[] two = new Raw(STREAM, 1, 2).list().list().i(0).bytes();
    loader.load(two, two.length);
    assertEquals(2, loader.tick());
  }

  // ---------------------------------------------------------------------------------------------
  // Entities lost and gained.
  // ---------------------------------------------------------------------------------------------

  @Test
  void losingAnEntityTheReplicaLacksOrTwiceIsRefused() throws SnapshotFormatException {
    refused(next().list(C).list().i(0).bytes(), "is lost but this replica does not hold it");
    refused(next().list(A, A).list().i(0).bytes(), "is lost twice");
    refused(next().i(-1).bytes(), "negative count -1");
    refused(next().i(3).l(A).bytes(), "needed");
  }

  @Test
  void gainingNullATombstoneAHeldEntityOrTwiceIsRefused() throws SnapshotFormatException {
    refused(next().list().list(Entity.NULL).i(0).bytes(), "a gained entity is");
    refused(next().list().list(0xFFFF_FFFF_0000_0007L).i(0).bytes(), "a gained entity is");
    refused(next().list().list(A).i(0).bytes(), "is gained but this replica holds it already");
    refused(next().list().list(C, C).i(0).bytes(), "is gained twice");
  }

  @Test
  void lostAndGainedEntitiesChangeTheReplica() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final long a = loader.map(A);
    final long b = loader.map(B);
    final byte[] delta = next().list(A).list(C).i(0).bytes();
    loader.load(delta, delta.length);
    assertFalse(registry.valid(a));
    assertTrue(registry.valid(b));
    assertEquals(Entity.NULL, loader.map(A));
    assertTrue(registry.valid(loader.map(C)));
    assertEquals(2, loader.size());
    assertEquals(Entity.NULL, loader.map(Entity.NULL));
    assertEquals(1, registry.storage(LoaderWorlds.INTS).size());
  }

  // ---------------------------------------------------------------------------------------------
  // Sections.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aBadStorageCountIsRefused() throws SnapshotFormatException {
    refused(next().list().list().i(-2).bytes(), "negative count -2");
    refused(next().list().list().i(1).bytes(), "needed");
    // A section is at least 12 bytes (an empty key, no field, no removal, no element).
    refused(next().list().list().i(1).i(0, 0, 0).bytes(), "storage '' is neither");
  }

  @Test
  void anUnknownStorageOrTwoSectionsOfOneAreRefused() throws SnapshotFormatException {
    refused(
        section("class:no.Such", 0).list().list().bytes(), "storage 'class:no.Such' is neither");
    refused(
        next().list().list().i(2).s(INTS).i(0).list().list().s(INTS).i(0).list().list().bytes(),
        "the delta has two sections for it");
  }

  @Test
  void bytesAfterTheLastSectionAreRefused() throws SnapshotFormatException {
    refused(next().list().list().i(0).i(0).bytes(), "4 bytes follow the last section");
  }

  @Test
  void badFieldHeadersAreRefused() throws SnapshotFormatException {
    refused(section(INTS, -1).bytes(), "negative count -1");
    refused(section(INTS, 1).s("value").b(0).list().list().bytes(), "unknown type code 0");
    refused(section(INTS, 1).s("value").b(13).list().list().bytes(), "unknown type code 13");
    refused(
        section(INTS, 1).s("value").b(SnapshotFormat.LONG).list().list().bytes(),
        "field 'value' is long in the delta but int in the replica");
    refused(
        section(MIXED, 1)
            .s("mood")
            .b(SnapshotFormat.ENUM)
            .s("other.Mood")
            .i(0)
            .list()
            .list()
            .bytes(),
        "field 'mood' holds other.Mood");
    refused(
        section(MIXED, 1).s("mood").b(SnapshotFormat.ENUM).s(MOOD).i(-1).list().list().bytes(),
        "negative count -1");
    refused(section(INTS, 1).i(70_000).b(0).bytes(), "corrupt count of string bytes: 70000");
    refused(section(INTS, 1).i(-5).b(0).bytes(), "corrupt count of string bytes: -5");
  }

  @Test
  void aNameOfTheLongestLengthIsRead() throws SnapshotFormatException {
    final byte[] delta =
        section(INTS, 1).s("n".repeat(65_536)).b(SnapshotFormat.INT).list().list().bytes();
    final Registry registry = new Registry();
    loaded(registry, delta);
  }

  @Test
  void aCodecFieldNeedsTheLoadersCodec() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = new DeltaLoader(registry).types(AllPrimitivesStorageB.SWAP);
    final byte[] delta =
        new Raw(STREAM, 0, 1)
            .list()
            .list(A)
            .i(1)
            .s(SWAP)
            .i(1)
            .s("point")
            .b(SnapshotFormat.CODEC)
            .s(Point.class.getName())
            .list()
            .list(A)
            .i(8)
            .b(0, 0, 0, 1, 0, 0, 0, 2)
            .bytes();
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(delta, delta.length));
    assertTrue(e.getMessage().contains("needs a ValueCodec for " + Point.class.getName()));
    assertEquals(0, registry.alive());
    loader.codec(Point.class, AllPrimitivesStorageB.POINTS);
    loader.load(delta, delta.length);
    assertEquals(new Point(1, 2), registry.get(loader.map(A), AllPrimitivesStorageB.SWAP).point());
  }

  @Test
  void removalsMustBeHeldBeforeAndAfterAndListedOnce() throws SnapshotFormatException {
    refused(section(INTS, 0).list(C).list().bytes(), "loses the component but is not held");
    // Gained in this delta: it had nothing to lose.
    refused(
        next().list().list(C).i(1).s(INTS).i(0).list(C).list().bytes(),
        "loses the component but is not held");
    // Lost in this delta.
    refused(
        next().list(A).list().i(1).s(INTS).i(0).list(A).list().bytes(),
        "loses the component but is not held");
    refused(section(INTS, 0).list(A, A).list().bytes(), "is listed twice");
  }

  @Test
  void elementsMustBeHeldAfterAndListedOnce() throws SnapshotFormatException {
    refused(
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list().list(C).i(1).bytes(),
        "has values but is not held by the replica");
    refused(
        next()
            .list(A)
            .list()
            .i(1)
            .s(INTS)
            .i(1)
            .s("value")
            .b(SnapshotFormat.INT)
            .list()
            .list(A)
            .i(1)
            .bytes(),
        "has values but is not held by the replica");
    refused(
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list(A).list(A).i(1).bytes(),
        "is listed twice");
    refused(
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list().list(A, A).i(1, 2).bytes(),
        "is listed twice");
  }

  @Test
  void valuesThatRunPastTheEndAreRefused() throws SnapshotFormatException {
    refused(
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list().list(A, B).i(1).b(0, 0).bytes(),
        "needed");
  }

  // ---------------------------------------------------------------------------------------------
  // Values.
  // ---------------------------------------------------------------------------------------------

  /** A SWAP section of one field for A (whom the first delta gives no SWAP element). */
  private static Raw swapField(final String name, final byte code) {
    return section(SWAP, 1).s(name).b(code);
  }

  @Test
  void badValuesAreRefused() throws SnapshotFormatException {
    refused(
        swapField("flag", SnapshotFormat.BOOLEAN).list().list(A).b(2).bytes(), "a boolean is 2");
    refused(
        swapField("flag", SnapshotFormat.BOOLEAN).list().list(A).b(-1).bytes(), "a boolean is -1");
    refused(swapField("name", SnapshotFormat.STRING).list().list(A).i(-2).bytes(), "length -2");
    refused(
        swapField("name", SnapshotFormat.STRING).list().list(A).i(3).b(0, 0).bytes(),
        "truncated stream: 2 more byte(s) expected");
    final String moods = AllPrimitivesStorageB.Mood.class.getName();
    refused(
        section(SWAP, 1)
            .s("mood")
            .b(SnapshotFormat.ENUM)
            .s(moods)
            .i(1)
            .s("CALM")
            .list()
            .list(A)
            .i(1)
            .bytes(),
        "enum index 1 of 1 constants");
    refused(
        section(SWAP, 1)
            .s("mood")
            .b(SnapshotFormat.ENUM)
            .s(moods)
            .i(1)
            .s("CALM")
            .list()
            .list(A)
            .i(-2)
            .bytes(),
        "enum index -2 of 1 constants");
    refused(
        section(SWAP, 1)
            .s("mood")
            .b(SnapshotFormat.ENUM)
            .s(moods)
            .i(1)
            .s("HAPPY")
            .list()
            .list(A)
            .i(0)
            .bytes(),
        "has no constant HAPPY");
    refused(
        section(SWAP, 1)
            .s("point")
            .b(SnapshotFormat.CODEC)
            .s(Point.class.getName())
            .list()
            .list(A)
            .i(3)
            .b(0, 0, 0)
            .bytes(),
        "the codec failed");
    refused(
        section(SWAP, 1)
            .s("point")
            .b(SnapshotFormat.CODEC)
            .s(Point.class.getName())
            .list()
            .list(A)
            .i(9)
            .b(0, 0, 0)
            .bytes(),
        "needed");
  }

  @Test
  void everyKindOfValueIsWrittenAndNullsAndAbsentFieldsTakeDefaults()
      throws SnapshotFormatException {
    final String moods = AllPrimitivesStorageB.Mood.class.getName();
    final byte[] delta =
        next()
            .list()
            .list(C)
            .i(1)
            .s(SWAP)
            .i(13)
            .s("flag")
            .b(SnapshotFormat.BOOLEAN)
            .s("tiny")
            .b(SnapshotFormat.BYTE)
            .s("small")
            .b(SnapshotFormat.SHORT)
            .s("letter")
            .b(SnapshotFormat.CHAR)
            .s("count")
            .b(SnapshotFormat.INT)
            .s("big")
            .b(SnapshotFormat.LONG)
            .s("target")
            .b(SnapshotFormat.ENTITY)
            .s("ratio")
            .b(SnapshotFormat.FLOAT)
            .s("precise")
            .b(SnapshotFormat.DOUBLE)
            .s("name")
            .b(SnapshotFormat.STRING)
            // The delta's constants in another order than the replica's: matched by name.
            .s("mood")
            .b(SnapshotFormat.ENUM)
            .s(moods)
            .i(2)
            .s("SLEEPY")
            .s("CALM")
            .s("point")
            .b(SnapshotFormat.CODEC)
            .s(Point.class.getName())
            // A field the replica does not have: read past.
            .s("gone")
            .b(SnapshotFormat.ENUM)
            .s("x.Gone")
            .i(1)
            .s("G")
            .list()
            .list(A, B, C)
            .b(1, 0, 1)
            .b(-7, 0, 7)
            .b(0, 0, 0, 0, 0, 0)
            .b(0x41, 0, 0x42, 0, 0x43, 0)
            .i(-1, 0, 1)
            .l(Long.MIN_VALUE, 0, Long.MAX_VALUE)
            .l(B, C, Entity.NULL)
            .i(Float.floatToRawIntBits(1.5f), Float.floatToRawIntBits(Float.NaN), 0)
            .l(Double.doubleToRawLongBits(-2.5), 0, Double.doubleToRawLongBits(1e300))
            .chars("é")
            .chars(null)
            .chars("")
            .i(0, 1, -1)
            .i(8)
            .b(0, 0, 0, 3, 0, 0, 0, 4)
            .i(-1)
            .i(8)
            .b(0, 0, 0, 5, 0, 0, 0, 6)
            .i(0, 0, -1)
            .bytes();
    final Registry registry = new Registry();
    final DeltaLoader loader = loaded(registry, delta);
    final Storage<Sample> swap = registry.storage(AllPrimitivesStorageB.SWAP);
    final Sample a = swap.get(loader.map(A));
    final Sample b = swap.get(loader.map(B));
    final Sample c = swap.get(loader.map(C));
    assertEquals(
        new Sample(
            true,
            (byte) -7,
            (short) 0x0000,
            'A',
            -1,
            Long.MIN_VALUE,
            loader.map(B),
            1.5f,
            -2.5,
            "é",
            AllPrimitivesStorageB.Mood.SLEEPY,
            new Point(3, 4)),
        a);
    assertEquals(false, b.flag());
    assertEquals(0, b.tiny());
    assertEquals('B', b.letter());
    assertEquals(loader.map(C), b.target());
    assertTrue(Float.isNaN(b.ratio()));
    assertNull(b.name());
    assertEquals(AllPrimitivesStorageB.Mood.CALM, b.mood());
    assertNull(b.point());
    assertEquals(true, c.flag());
    assertEquals((byte) 7, c.tiny());
    assertEquals('C', c.letter());
    assertEquals(Long.MAX_VALUE, c.big());
    assertEquals(Entity.NULL, c.target(), "a null reference");
    assertEquals(1e300, c.precise());
    assertEquals("", c.name());
    assertNull(c.mood());
    assertEquals(new Point(5, 6), c.point());
    // The fields a later delta leaves out take their defaults in the elements it sends.
    final byte[] sparse =
        new Raw(STREAM, 2, 3)
            .list()
            .list()
            .i(1)
            .s(SWAP)
            .i(1)
            .s("count")
            .b(SnapshotFormat.INT)
            .list()
            .list(A)
            .i(42)
            .bytes();
    loader.load(sparse, sparse.length);
    assertEquals(
        new Sample(false, (byte) 0, (short) 0, '\0', 42, 0, Entity.NULL, 0f, 0d, null, null, null),
        swap.get(loader.map(A)));
    assertEquals(b, swap.get(loader.map(B)));
  }

  @Test
  void aShortFieldIsReadLittleEndian() throws SnapshotFormatException {
    final byte[] delta =
        swapField("small", SnapshotFormat.SHORT).list().list(A).b(0x34, 0x12).bytes();
    final Registry registry = new Registry();
    final DeltaLoader loader = loaded(registry, delta);
    assertEquals((short) 0x1234, registry.get(loader.map(A), AllPrimitivesStorageB.SWAP).small());
  }

  @Test
  void aRemovalRemovesAndAValueReplaces() throws SnapshotFormatException {
    final byte[] delta =
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list(A).list(B).i(60).bytes();
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final List<String> events = new ArrayList<>();
    registry
        .storage(LoaderWorlds.INTS)
        .onUpdate()
        .connect((r, e) -> events.add("update " + (Integer) r.get(e, LoaderWorlds.INTS).get(0)));
    registry.storage(LoaderWorlds.INTS).onDestroy().connect((r, e) -> events.add("remove"));
    loader.load(delta, delta.length);
    assertFalse(registry.storage(LoaderWorlds.INTS).contains(loader.map(A)));
    assertEquals(60, intOf(registry, loader, B));
    // Announced as a change set announces: the writes first, then the removals.
    assertEquals(List.of("update 60", "remove"), events);
  }

  // ---------------------------------------------------------------------------------------------
  // Entry points.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aBufferLoadMovesPastTheDeltaOnlyOnSuccess() throws SnapshotFormatException {
    final byte[] delta =
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list().list(B).i(60).bytes();
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final ByteBuffer cut = ByteBuffer.wrap(Arrays.copyOf(delta, delta.length - 1));
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(cut));
    assertTrue(
        e.getMessage().contains("its length is " + delta.length + " but " + (delta.length - 1)),
        e.getMessage());
    assertEquals(0, cut.position());
    final byte[] two = new byte[2 * delta.length + 5];
    System.arraycopy(delta, 0, two, 5, delta.length);
    final byte[] third = new Raw(STREAM, 2, 3).list().list().i(0).bytes();
    System.arraycopy(third, 0, two, 5 + delta.length, third.length);
    final ByteBuffer both = ByteBuffer.wrap(two);
    both.position(5);
    loader.load(both);
    assertEquals(5 + delta.length, both.position());
    assertEquals(60, intOf(registry, loader, B));
    loader.load(both);
    assertEquals(5 + delta.length + third.length, both.position());
    assertEquals(3, loader.tick());
  }

  @Test
  void aStreamThatEndsInsideTheDeltaIsRefused() throws IOException {
    final byte[] delta = next().list().list(C).i(0).bytes();
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final SnapshotFormatException e =
        assertThrows(
            SnapshotFormatException.class,
            () -> loader.load(new ByteArrayInputStream(Arrays.copyOf(delta, delta.length - 3))));
    assertTrue(e.getMessage().contains("the stream ends before the delta's end"));
    assertEquals(delta.length - 3, e.offset());
    assertEquals(1, loader.tick());
    // Exactly its bytes are read: what follows stays in the stream.
    final byte[] twice = Arrays.copyOf(delta, delta.length + 3);
    final ByteArrayInputStream in = new ByteArrayInputStream(twice);
    loader.load(in);
    assertEquals(3, in.available());
    assertTrue(registry.valid(loader.map(C)));
  }

  // ---------------------------------------------------------------------------------------------
  // The apply.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aLockedOrIteratedStorageRefusesTheDeltaUnchanged() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final Storage<Row> ints = registry.storage(LoaderWorlds.INTS);
    final Storage<Row> mixed = registry.storage(LoaderWorlds.MIXED);
    final String before = LoaderWorlds.dump(registry);
    final byte[] values =
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list().list(B).i(60).bytes();
    CoreTestAccess.lock(ints, "a test");
    final ConcurrentModificationException locked =
        assertThrows(
            ConcurrentModificationException.class, () -> loader.load(values, values.length));
    assertTrue(locked.getMessage().contains("is locked or iterated"));
    CoreTestAccess.unlock(ints);
    // A delta that destroys checks every storage, even one it does not name.
    final byte[] destroys = next().list(A).list().i(0).bytes();
    CoreTestAccess.beginIteration(mixed);
    assertThrows(
        ConcurrentModificationException.class, () -> loader.load(destroys, destroys.length));
    // One that does not destroy leaves other storages alone.
    final byte[] creates = next().list().list(C).i(0).bytes();
    assertEquals(before, LoaderWorlds.dump(registry));
    loader.load(creates, creates.length);
    CoreTestAccess.endIteration(mixed);
    assertTrue(registry.valid(loader.map(C)));
    assertEquals(2, loader.tick());
  }

  @Test
  void listenerFailuresDoNotStopTheApply() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final RuntimeException create = new IllegalStateException("create");
    final RuntimeException construct = new IllegalStateException("construct");
    final RuntimeException update = new IllegalStateException("update");
    final RuntimeException destroy = new IllegalStateException("destroy");
    final RuntimeException remove = new IllegalStateException("remove");
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              throw create;
            });
    registry
        .onDestroy()
        .connect(
            (r, e) -> {
              throw destroy;
            });
    final Storage<Row> ints = registry.storage(LoaderWorlds.INTS);
    ints.onConstruct()
        .connect(
            (r, e) -> {
              throw construct;
            });
    ints.onUpdate()
        .connect(
            (r, e) -> {
              throw update;
            });
    ints.onDestroy()
        .connect(
            (r, e) -> {
              throw remove;
            });
    final long a = loader.map(A);
    final byte[] delta =
        next()
            .list(B)
            .list(C)
            .i(1)
            .s(INTS)
            .i(1)
            .s("value")
            .b(SnapshotFormat.INT)
            .list()
            .list(A, C)
            .i(50, 70)
            .bytes();
    final RuntimeException thrown =
        assertThrows(RuntimeException.class, () -> loader.load(delta, delta.length));
    // Suppressed by the first, or by the first of the step that threw them (a destroy's).
    final List<Throwable> all = new ArrayList<>();
    final List<Throwable> pending = new ArrayList<>(List.of(thrown));
    while (!pending.isEmpty()) {
      final Throwable next = pending.remove(pending.size() - 1);
      all.add(next);
      pending.addAll(Arrays.asList(next.getSuppressed()));
    }
    assertTrue(all.containsAll(List.of(create, construct, update, destroy)), all.toString());
    assertEquals(2, loader.tick());
    assertEquals(50, (Integer) registry.get(a, LoaderWorlds.INTS).get(0));
    assertEquals(70, intOf(registry, loader, C));
    assertEquals(Entity.NULL, loader.map(B));
    assertEquals(List.of(), registry.verify());
    // A removal whose listener throws still removes.
    final byte[] removal =
        new Raw(STREAM, 2, 3).list().list().i(1).s(INTS).i(0).list(A).list().bytes();
    assertSame(
        remove, assertThrows(RuntimeException.class, () -> loader.load(removal, removal.length)));
    assertFalse(ints.contains(a));
    assertEquals(3, loader.tick());
  }

  /**
   * Every value is written before the first listener runs; a listener that then destroys an entity
   * the delta wrote is followed: its update is not announced, and the replica stays sound.
   */
  /**
   * A delta gaining more entities than the replica's limit leaves is refused whole, as a change set
   * is (its creations come before its destructions): the replica, the map (the lost entity still
   * mapped) and the tick are as before; the same delta applies once there is room.
   */
  @Test
  void aDeltaNeedingMoreEntitiesThanTheLimitLeavesIsRefusedWhole() throws SnapshotFormatException {
    final Registry registry = new Registry(4);
    final DeltaLoader loader = replica(registry);
    final long own = registry.create();
    final long a = loader.map(A);
    final long d = Entity.of(4, 0);
    final byte[] delta =
        next()
            .list(A)
            .list(C, d)
            .i(1)
            .s(INTS)
            .i(1)
            .s("value")
            .b(SnapshotFormat.INT)
            .list()
            .list(B, C, d)
            .i(7, 8, 9)
            .bytes();
    final String before = LoaderWorlds.dump(registry);
    assertThrows(IllegalStateException.class, () -> loader.load(delta, delta.length));
    assertEquals(before, LoaderWorlds.dump(registry));
    assertEquals(1, loader.tick());
    assertEquals(2, loader.size());
    assertEquals(a, loader.map(A));
    assertEquals(Entity.NULL, loader.map(C));
    registry.destroy(own);
    loader.load(delta, delta.length);
    assertEquals(2, loader.tick());
    assertFalse(registry.valid(a));
    assertEquals(Entity.NULL, loader.map(A));
    assertEquals(7, intOf(registry, loader, B));
    assertEquals(8, intOf(registry, loader, C));
    assertEquals(9, intOf(registry, loader, d));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * A delta loaded while the registry is being cleared (from a destroy listener) is refused by the
   * change set's check: nothing changes, the tick stays, and it applies after the clear.
   */
  @Test
  void aDeltaLoadedDuringAClearIsRefusedWithNothingChanged() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final byte[] delta = next().list().list(C).i(0).bytes();
    final RuntimeException[] refused = new RuntimeException[1];
    final int[] mapped = {-1};
    registry
        .onDestroy()
        .connect(
            (r, e) -> {
              if (null == refused[0]) {
                try {
                  loader.load(delta, delta.length);
                } catch (final RuntimeException thrown) {
                  refused[0] = thrown;
                  mapped[0] = loader.size();
                } catch (final SnapshotFormatException unexpected) {
                  throw new AssertionError(unexpected);
                }
              }
            });
    registry.clear();
    assertTrue(
        refused[0] instanceof IllegalStateException
            || refused[0] instanceof ConcurrentModificationException,
        String.valueOf(refused[0]));
    assertEquals(2, mapped[0]);
    assertEquals(Entity.NULL, loader.map(C));
    assertEquals(1, loader.tick());
    assertEquals(0, registry.alive());
    loader.load(delta, delta.length);
    assertEquals(2, loader.tick());
    assertTrue(registry.valid(loader.map(C)));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aListenerThatDestroysDuringTheApplyIsFollowed() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final Storage<Row> ints = registry.storage(LoaderWorlds.INTS);
    final long b = loader.map(B);
    final long[] created = new long[1];
    final List<Integer> seen = new ArrayList<>();
    // When C is created, B is destroyed; C already holds the delta's int.
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              if (created[0] == 0) {
                created[0] = e;
                seen.add((Integer) r.get(e, LoaderWorlds.INTS).get(0));
                r.destroy(b);
              }
            });
    final List<Long> updated = new ArrayList<>();
    ints.onUpdate().connect((r, e) -> updated.add(e));
    final byte[] delta =
        next()
            .list()
            .list(C)
            .i(1)
            .s(INTS)
            .i(1)
            .s("value")
            .b(SnapshotFormat.INT)
            .list()
            .list(A, B, C)
            .i(10, 20, 30)
            .bytes();
    loader.load(delta, delta.length);
    assertEquals(List.of(30), seen, "C's int written before its creation was announced");
    assertFalse(registry.valid(b));
    assertEquals(10, intOf(registry, loader, A));
    assertEquals(30, intOf(registry, loader, C));
    assertEquals(created[0], loader.map(C));
    assertEquals(List.of(loader.map(A)), updated, "B, destroyed, is not announced");
    assertEquals(2, ints.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void anUpdateListenerSeesTheSectionsOtherValuesWritten() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final Storage<Row> ints = registry.storage(LoaderWorlds.INTS);
    final List<Integer> seen = new ArrayList<>();
    ints.onUpdate()
        .connect(
            (r, e) -> {
              seen.add((Integer) r.get(loader.map(A), LoaderWorlds.INTS).get(0));
              seen.add((Integer) r.get(loader.map(B), LoaderWorlds.INTS).get(0));
            });
    final byte[] delta =
        section(INTS, 1).s("value").b(SnapshotFormat.INT).list().list(A, B).i(11, 12).bytes();
    loader.load(delta, delta.length);
    assertEquals(List.of(11, 12, 11, 12), seen);
  }

  @Test
  void valuesWrittenIntoATrackedStorageStampTheReplicasTick() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = new DeltaLoader(registry).types(AllPrimitivesStorageB.TRACKED);
    final String key = SnapshotFormat.key(AllPrimitivesStorageB.TRACKED);
    final byte[] first =
        new Raw(STREAM, 0, 1)
            .list()
            .list(A, B)
            .i(1)
            .s(key)
            .i(1)
            .s("count")
            .b(SnapshotFormat.INT)
            .list()
            .list(A, B)
            .i(1, 2)
            .bytes();
    loader.load(first, first.length);
    final long seen = registry.advanceChangeTick();
    final Storage<Sample> tracked = registry.storage(AllPrimitivesStorageB.TRACKED);
    assertFalse(tracked.changedSince(loader.map(A), seen));
    final byte[] second =
        new Raw(STREAM, 1, 2)
            .list()
            .list(C)
            .i(1)
            .s(key)
            .i(1)
            .s("count")
            .b(SnapshotFormat.INT)
            .list()
            .list(B, C)
            .i(3, 4)
            .bytes();
    loader.load(second, second.length);
    assertFalse(tracked.changedSince(loader.map(A), seen));
    assertTrue(tracked.changedSince(loader.map(B), seen));
    assertTrue(tracked.changedSince(loader.map(C), seen));
    assertEquals(3, tracked.get(loader.map(B)).count());
  }

  /**
   * Every element a section writes into a tracked storage is in place and stamped before the first
   * listener runs: a construct listener finds the section's other element already there, and an
   * element it then writes itself carries its own, later tick.
   */
  @Test
  void aConstructListenerFindsTheWholeSectionWrittenAndStamped() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = new DeltaLoader(registry).types(AllPrimitivesStorageB.TRACKED);
    final String key = SnapshotFormat.key(AllPrimitivesStorageB.TRACKED);
    final byte[] first = new Raw(STREAM, 0, 1).list().list(A, B).i(0).bytes();
    loader.load(first, first.length);
    final Storage<Sample> tracked = registry.storage(AllPrimitivesStorageB.TRACKED);
    final long before = registry.advanceChangeTick();
    final long[] seen = {-1};
    final List<Integer> others = new ArrayList<>();
    tracked
        .onConstruct()
        .connect(
            (r, e) -> {
              final long other = e == loader.map(A) ? loader.map(B) : loader.map(A);
              others.add(r.get(other, AllPrimitivesStorageB.TRACKED).count());
              assertTrue(tracked.changedSince(other, before), "stamped before any listener");
              if (e == loader.map(B)) {
                seen[0] = r.advanceChangeTick();
                final Sample sample = r.get(e, AllPrimitivesStorageB.TRACKED);
                r.replace(e, AllPrimitivesStorageB.TRACKED, sample);
              }
            });
    final byte[] second =
        new Raw(STREAM, 1, 2)
            .list()
            .list()
            .i(1)
            .s(key)
            .i(1)
            .s("count")
            .b(SnapshotFormat.INT)
            .list()
            .list(A, B)
            .i(5, 6)
            .bytes();
    loader.load(second, second.length);
    // Announced last inserted first, as a change set announces insertions.
    assertEquals(List.of(5, 6), others);
    assertEquals(5, tracked.get(loader.map(A)).count());
    assertEquals(6, tracked.get(loader.map(B)).count());
    // A keeps the apply's tick; B, written again by the listener, carries the later one.
    assertTrue(tracked.changedSince(loader.map(A), before));
    assertFalse(tracked.changedSince(loader.map(A), seen[0]));
    assertTrue(tracked.changedSince(loader.map(B), seen[0]));
    assertEquals(List.of(), registry.verify());
  }

  /** A codec that fails on purpose, for {@link #aCodecThatThrowsRefusesTheDelta}. */
  private static final class Failing implements dev.phalanx.ecs.snapshot.ValueCodec<Point> {
    @Override
    public void write(final Point value, final DataOutput out) throws IOException {
      out.writeInt(value.x());
    }

    @Override
    public Point read(final DataInput in) {
      throw new IllegalArgumentException("no");
    }
  }

  @Test
  void aCodecThatThrowsRefusesTheDelta() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(registry)
            .types(AllPrimitivesStorageB.SWAP)
            .codec(Point.class, new Failing());
    final byte[] delta =
        new Raw(STREAM, 0, 1)
            .list()
            .list(A)
            .i(1)
            .s(SWAP)
            .i(1)
            .s("point")
            .b(SnapshotFormat.CODEC)
            .s(Point.class.getName())
            .list()
            .list(A)
            .i(4, 1)
            .bytes();
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(delta, delta.length));
    assertTrue(e.getCause() instanceof IllegalArgumentException);
    assertTrue(e.getMessage().contains("the codec failed"), e.getMessage());
    assertEquals(0, registry.alive());
    assertEquals(0, loader.size());
    // The same delta at position 7 of a buffer: the offset is counted from the delta's first byte.
    final byte[] padded = new byte[7 + delta.length];
    System.arraycopy(delta, 0, padded, 7, delta.length);
    final ByteBuffer buffer = ByteBuffer.wrap(padded);
    buffer.position(7);
    final SnapshotFormatException fromBuffer =
        assertThrows(SnapshotFormatException.class, () -> loader.load(buffer));
    assertTrue(e.offset() > DeltaFormat.HEADER, "the offset of the value: " + e.offset());
    assertEquals(e.offset(), fromBuffer.offset());
    assertEquals(e.getMessage(), fromBuffer.getMessage());
    assertEquals(7, buffer.position());
    assertEquals(0, registry.alive());
  }

  /** A type no test registers anywhere: a delta naming it needs {@link DeltaLoader#types}. */
  @Test
  void aGivenTypeWithoutAStorageIsCreatedOnlyWhenTheDeltaApplies() throws SnapshotFormatException {
    final ComponentType<?, ?> type = AllPrimitivesStorageB.IN_PLACE_TWIN;
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry).types(type);
    final byte[] refusedDelta =
        section(SnapshotFormat.key(type), 0).list().list(A).i(7).bytes(); // trailing bytes
    assertThrows(
        SnapshotFormatException.class, () -> loader.load(refusedDelta, refusedDelta.length));
    assertNull(registry.findStorage(type));
    final byte[] delta = section(SnapshotFormat.key(type), 0).list().list(A).bytes();
    loader.load(delta, delta.length);
    assertTrue(registry.findStorage(type).contains(loader.map(A)));
  }
}
