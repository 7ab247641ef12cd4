package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.SnapshotSchemaChangeTest.Blob;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-made snapshots, each wrong in one way, are refused with a {@link SnapshotFormatException}
 * that says what is wrong and at which byte, and change nothing; the same snapshots made right
 * load. Covers the header, the entity section (counts, identifiers of full and partial snapshots),
 * extra blocks, storage headers (keys, policies, field headers), elements (live, unrepeated, a
 * well-formed free list of holes), values (enum indices, lengths) and the end marker.
 */
class SnapshotLoadBadInputTest {

  /** A little-endian byte builder in the snapshot format's encodings. */
  static final class Bytes {
    private ByteBuffer buffer = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

    /** Makes room for {@code n} more bytes. */
    private ByteBuffer room(final int n) {
      if (buffer.remaining() < n) {
        final ByteBuffer bigger =
            ByteBuffer.allocate(Math.max(2 * buffer.capacity(), buffer.position() + n))
                .order(ByteOrder.LITTLE_ENDIAN);
        buffer = bigger.put(buffer.flip());
      }
      return buffer;
    }

    Bytes b(final int value) {
      room(1).put((byte) value);
      return this;
    }

    Bytes i(final int value) {
      room(4).putInt(value);
      return this;
    }

    Bytes l(final long... values) {
      room(8 * values.length).asLongBuffer().put(values);
      buffer.position(buffer.position() + 8 * values.length);
      return this;
    }

    /** A metadata string: UTF-8 length, bytes. */
    Bytes s(final String value) {
      final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      i(bytes.length);
      room(bytes.length).put(bytes);
      return this;
    }

    Bytes ints(final int... values) {
      for (final int value : values) {
        i(value);
      }
      return this;
    }

    /** The header of a snapshot with {@code flags}. */
    Bytes header(final int flags) {
      return b('P').b('H').b('N').b('X').i(1).i(flags);
    }

    /** Header, entity section and no extra block. */
    Bytes start(final int flags, final int alive, final long... entities) {
      return header(flags).i(entities.length).i(alive).l(entities).i(0);
    }

    /** A storage of {@link #COUNTS}' shape under {@code key}: one int field, "count". */
    Bytes counts(
        final String key,
        final int policy,
        final int firstHole,
        final long[] packed,
        final int... values) {
      return s(key)
          .b(policy)
          .i(1)
          .s("count")
          .b(SnapshotFormat.INT)
          .i(packed.length)
          .i(firstHole)
          .l(packed)
          .ints(values);
    }

    Bytes end() {
      return b('E').b('N').b('D').b('!');
    }

    int size() {
      return buffer.position();
    }

    byte[] get() {
      return Arrays.copyOf(buffer.array(), buffer.position());
    }
  }

  enum Shade {
    LIGHT,
    DARK
  }

  static final class Counts {}

  static final class CountsInPlace {}

  static final class Shades {}

  static final ComponentType<Row, PrimitiveColumnsStorageA> COUNTS =
      PrimitiveColumnsStorageA.define(
          Counts.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("count", int.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> COUNTS_IN_PLACE =
      PrimitiveColumnsStorageA.define(
          CountsInPlace.class, 4, DeletionPolicy.IN_PLACE, Pages.KEEPS, Col.of("count", int.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> SHADES =
      PrimitiveColumnsStorageA.define(
          Shades.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("shade", Shade.class));

  /** The types these snapshots name, given to every loader (a stream names only known types). */
  static final ComponentType<?, ?>[] TYPES = {COUNTS, COUNTS_IN_PLACE, SHADES};

  static final String KEY = "class:" + Counts.class.getName();
  static final String IN_PLACE_KEY = "class:" + CountsInPlace.class.getName();
  static final int FULL = SnapshotFormat.FLAG_FULL;

  static final long E0 = Entity.of(0, 0);
  static final long E1 = Entity.of(1, 0);
  static final long E2 = Entity.of(2, 3);

  /** The tombstone of a hole whose free-list link is {@code next}. */
  static long hole(final int next) {
    return Entity.of(next, Entity.TOMBSTONE_VERSION);
  }

  /** Loads a whole snapshot into a new registry. */
  static Registry load(final byte[] bytes) throws IOException {
    final Registry target = new Registry();
    new SnapshotLoader(target).types(TYPES).load(new ByteArrayInputStream(bytes));
    return target;
  }

  /** Loads any snapshot into a new registry with a continuous loader. */
  static ContinuousLoader loadContinuously(final byte[] bytes) throws IOException {
    final ContinuousLoader loader = new ContinuousLoader(new Registry()).types(TYPES);
    loader.load(new ByteArrayInputStream(bytes));
    return loader;
  }

  /**
   * The ways a loader can read {@code bytes}: a stream, an array read in place (a slice with a
   * nonzero array offset and position), and a direct buffer (read through a channel).
   */
  private static List<Source> sources(final byte[] bytes) {
    final byte[] padded = new byte[bytes.length + 11];
    System.arraycopy(bytes, 0, padded, 5, bytes.length);
    final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 2);
    direct.put(bytes).flip();
    return List.of(
        new Source("stream", null, new ByteArrayInputStream(bytes)),
        new Source("array", ByteBuffer.wrap(padded, 2, bytes.length + 3).slice().position(3), null),
        new Source("direct buffer", direct, null));
  }

  /** One way to read a snapshot: a buffer, or else a stream. */
  record Source(String name, ByteBuffer buffer, InputStream stream) {
    Map<String, byte[]> into(final SnapshotLoader loader) throws IOException {
      return null == buffer ? loader.load(stream) : loader.load(buffer);
    }

    Map<String, byte[]> into(final ContinuousLoader loader) throws IOException {
      return null == buffer ? loader.load(stream) : loader.load(buffer);
    }
  }

  /**
   * Checks that a whole load refuses {@code bytes} with {@code message} at {@code offset}, from
   * every source, leaving the registry empty and a buffer's position where it was.
   */
  static void refused(final Bytes bytes, final String message, final long offset) {
    for (final Source source : sources(bytes.get())) {
      final Registry target = new Registry();
      final int before = null == source.buffer() ? 0 : source.buffer().position();
      final SnapshotFormatException e =
          assertThrows(
              SnapshotFormatException.class,
              () -> source.into(new SnapshotLoader(target).types(TYPES)),
              source.name());
      assertEquals(message + " (at byte " + offset + ")", e.getMessage(), source.name());
      assertEquals(offset, e.offset(), source.name());
      assertEquals(0, target.entities().size(), source.name());
      for (int i = 0; i < target.storageCount(); i++) {
        assertEquals(0, target.storageAt(i).size(), target.storageAt(i).describe());
      }
      if (null != source.buffer()) {
        assertEquals(before, source.buffer().position(), source.name());
      }
    }
  }

  /** As {@link #refused}, through a continuous loader. */
  static void refusedContinuously(final Bytes bytes, final String message, final long offset) {
    for (final Source source : sources(bytes.get())) {
      final SnapshotFormatException e =
          assertThrows(
              SnapshotFormatException.class,
              () -> source.into(new ContinuousLoader(new Registry()).types(TYPES)),
              source.name());
      assertEquals(message + " (at byte " + offset + ")", e.getMessage(), source.name());
    }
  }

  @Test
  void theHeaderMustHaveTheMagicAKnownVersionAndKnownFlags() throws IOException {
    for (int at = 0; at < 4; at++) {
      final byte[] bytes = new Bytes().start(FULL, 0).i(0).end().get();
      bytes[at] = 'x';
      final Bytes bad = new Bytes();
      for (final byte b : bytes) {
        bad.b(b);
      }
      refused(bad, "not a Phalanx snapshot: wrong magic (expected the bytes 'PHNX')", at);
    }
    refused(
        new Bytes().b('P').b('H').b('N').b('X').i(2).i(FULL),
        "snapshot format version 2 is newer than this runtime's, 1; upgrade Phalanx to load it",
        4);
    refused(new Bytes().b('P').b('H').b('N').b('X').i(0).i(FULL), "corrupt format version 0", 4);
    refused(new Bytes().header(2), "corrupt header flags 2", 8);
    refused(new Bytes().header(3), "corrupt header flags 3", 8);
    // The smallest valid snapshot: no entity, no extra, no storage.
    assertEquals(0, load(new Bytes().start(FULL, 0).i(0).end().get()).entities().size());
  }

  @Test
  void entityCountsMustBeInRange() {
    refused(
        new Bytes().header(FULL).i(-1),
        "corrupt count of identifiers: -1 (expected 0 to 2147483632) (reading the entity section)",
        12);
    refused(
        new Bytes().header(FULL).i(2).i(3),
        "corrupt count of live identifiers: 3 (expected 0 to 2) (reading the entity section)",
        16);
    refused(
        new Bytes().header(0).i(2).i(1),
        "corrupt entity list: 1 live of 2 listed (reading the entity section)",
        20);
  }

  @Test
  void aHugeCorruptCountRunsIntoTheEndOfTheStreamFirst() {
    // Two billion identifiers announced, three given: refused as truncated, without allocating
    // room for all of them first.
    final Bytes bytes = new Bytes().header(FULL).i(2_000_000_000).i(0).l(E0, E1, E2);
    for (final Source source : sources(bytes.get())) {
      final SnapshotFormatException e =
          assertThrows(
              SnapshotFormatException.class,
              () -> source.into(new SnapshotLoader(new Registry()).types(TYPES)),
              source.name());
      assertEquals(
          "truncated stream: 8 more byte(s) expected (reading the entity section) (at byte 44)",
          e.getMessage(),
          source.name());
    }
  }

  @Test
  void moreThanTwoMillionIdentifiersLoad() throws IOException {
    // The identifiers are read into an array grown as they arrive (a million, two, then all):
    // every one arrives in place.
    final int count = (2 << 20) + 3;
    final long[] identifiers = new long[count];
    for (int index = 0; index < count; index++) {
      identifiers[index] = Entity.of(index, index % 5);
    }
    final Bytes bytes = new Bytes().header(FULL).i(count).i(count - 1).l(identifiers);
    final Registry loaded = load(bytes.i(0).i(0).end().get());
    assertEquals(count, loaded.entities().size());
    assertEquals(count - 1, loaded.alive());
    for (final int index : new int[] {0, 1 << 20, 2 << 20, count - 2}) {
      assertTrue(loaded.valid(Entity.of(index, index % 5)), "index " + index);
    }
    assertEquals(Entity.of(count - 1, (count - 1) % 5), loaded.create());
  }

  @Test
  void theIdentifiersOfAWholeSnapshotAreIndicesZeroToCountOnce() throws IOException {
    // Each bad identifier sits at entity 2 (offset 20 + 16).
    final String suffix = ": out of range, repeated or a tombstone (reading the entity section)";
    for (final long bad : new long[] {Entity.of(4, 0), Entity.of(-5, 0), E1, hole(2)}) {
      refused(
          new Bytes().start(FULL, 4, E0, E1, bad, Entity.of(3, 0)),
          "corrupt identifier " + Entity.toString(bad) + " at entity 2" + suffix,
          36);
    }
    refused(
        new Bytes().start(FULL, 3, E0, E1, Entity.of(3, 0)),
        "corrupt identifier " + Entity.toString(Entity.of(3, 0)) + " at entity 2" + suffix,
        36);
    // In any order, with any versions.
    final Registry loaded = load(new Bytes().start(FULL, 3, E2, E0, E1).i(0).end().get());
    assertTrue(loaded.valid(E2) && loaded.valid(E0) && loaded.valid(E1));
  }

  @Test
  void theIdentifiersOfAPartialSnapshotAreDistinctLiveIdentifiers() throws IOException {
    final String suffix = ": out of range, repeated or a tombstone (reading the entity section)";
    final long last = Entity.of(Entity.MAX_INDEX, 0);
    final long beyond = Entity.of(Entity.MAX_INDEX + 1, 0);
    for (final long bad : new long[] {beyond, Entity.of(-1, 7), E0, hole(5)}) {
      refusedContinuously(
          new Bytes().start(0, 3, E0, E1, bad),
          "corrupt identifier " + Entity.toString(bad) + " at entity 2" + suffix,
          36);
    }
    // The largest index is an identifier like any other.
    final ContinuousLoader loader =
        loadContinuously(new Bytes().start(0, 3, E0, last, E1).i(0).end().get());
    assertEquals(3, loader.size());
    assertTrue(loader.contains(last));
  }

  @Test
  void aPartialSnapshotIsRefusedByTheWholeLoader() {
    final Registry target = new Registry();
    final SnapshotFormatException e =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(target)
                    .types(TYPES)
                    .load(new ByteArrayInputStream(new Bytes().start(0, 1, E0).i(0).end().get())));
    assertEquals(
        "this snapshot holds chosen entities, not a whole entity storage: load it with a"
            + " ContinuousLoader, which maps identifiers",
        e.getMessage());
    assertEquals(-1, e.offset());
    assertEquals(0, target.entities().size());
  }

  @Test
  void extraBlocksMustHaveSaneCountsAndLengths() throws IOException {
    refused(
        new Bytes().header(FULL).i(0).i(0).i(-1),
        "corrupt count of extra blocks: -1 (expected 0 to 65536) (reading the extra blocks)",
        20);
    refused(
        new Bytes().header(FULL).i(0).i(0).i(1).s("notes").i(-1),
        "corrupt count of bytes: -1 (expected 0 to 2147483631) (reading extra block 'notes')",
        33);
    // A block longer than the loader's 64 KiB chunks arrives whole.
    final byte[] big = new byte[150_000];
    for (int k = 0; k < big.length; k++) {
      big[k] = (byte) (k * 31 + k / 1000);
    }
    final Registry saved = new Registry();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(saved).extra("big", big).extra("empty", new byte[0]).write(out);
    final var extras =
        new SnapshotLoader(new Registry())
            .types(TYPES)
            .load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(List.of("big", "empty"), List.copyOf(extras.keySet()));
    assertTrue(Arrays.equals(big, extras.get("big")));
    assertEquals(0, extras.get("empty").length);
  }

  @Test
  void storagesMustBeKnownOnceWithKnownPolicies() {
    final Bytes start = new Bytes().start(FULL, 1, E0);
    final int at = start.size(); // 32: the storage count
    refused(
        new Bytes().start(FULL, 1, E0).i(-1),
        "corrupt count of storages: -1 (expected 0 to 1048576) (reading the storage section)",
        at);
    final int secondKeyAt = at + 4 + 4 + KEY.length() + 1 + 4 + 9 + 1 + 8 + 8 + 4;
    refused(
        new Bytes().start(FULL, 1, E0).i(2).counts(KEY, 0, -1, new long[] {E0}, 5).s(KEY),
        "corrupt storage section: storage " + KEY + " appears twice",
        secondKeyAt);
    // A bad key after a whole storage is reported as part of the storage section.
    refused(
        new Bytes().start(FULL, 1, E0).i(2).counts(KEY, 0, -1, new long[] {E0}, 5).i(70_000),
        "corrupt count of string bytes: 70000 (expected 0 to 65536) (reading the storage section)",
        secondKeyAt);
    for (final String key :
        new String[] {"class:no.such.Type", "void:", "void:never-given", "mystery:x"}) {
      refused(
          new Bytes().start(FULL, 1, E0).i(1).s(key),
          "unknown component type "
              + key
              + ": a stream may name only the types given to the loader (types(...),"
              + " alias(...)) and those the target registry has a storage of",
          at + 4);
    }
    final int policyAt = at + 4 + 4 + KEY.length();
    refused(
        new Bytes().start(FULL, 1, E0).i(1).s(KEY).b(2),
        "corrupt deletion policy 2 (reading storage of Counts)",
        policyAt + 1);
    refused(
        new Bytes().start(FULL, 1, E0).i(1).s(KEY).b(0).i(-1),
        "corrupt count of fields: -1 (expected 0 to 65536) (reading storage of Counts)",
        policyAt + 1);
  }

  @Test
  void fieldHeadersMustHaveKnownTypeCodes() throws IOException {
    final int codeAt = 32 + 4 + 4 + KEY.length() + 1 + 4 + 4 + "count".length();
    for (final int code : new int[] {0, 13, -1}) {
      refused(
          new Bytes().start(FULL, 1, E0).i(1).s(KEY).b(0).i(1).s("count").b(code),
          "corrupt type code " + code + " (reading storage of Counts, field 'count')",
          codeAt);
    }
    refused(
        new Bytes()
            .start(FULL, 1, E0)
            .i(1)
            .s(KEY)
            .b(0)
            .i(1)
            .s("count")
            .b(SnapshotFormat.ENUM)
            .s("some.Enum")
            .i(-1),
        "corrupt count of enum constants: -1 (expected 0 to 65536)"
            + " (reading storage of Counts, field 'count')",
        codeAt + 1 + 4 + "some.Enum".length());
    // Booleans (the first code) and codec values (the last) are known.
    final Bytes flags =
        new Bytes()
            .start(FULL, 1, E0)
            .i(1)
            .s(KEY)
            .b(0)
            .i(2)
            .s("on")
            .b(SnapshotFormat.BOOLEAN)
            .s("blob")
            .b(SnapshotFormat.CODEC)
            .s(Blob.class.getName())
            .i(1)
            .i(-1)
            .l(E0)
            .b(1)
            .i(-1)
            .end();
    assertEquals(1, load(flags.get()).storage(COUNTS).size());
  }

  @Test
  void elementsMustBeLiveEntitiesOfTheSnapshotOnce() throws IOException {
    // Three identifiers, two live (E1 is released); the bad element sits at position 2.
    final long released = E1;
    final long[] entities = {E0, E2, released};
    final int elementsAt = 12 + 8 + 24 + 4 + 4 + 4 + KEY.length() + 1 + 4 + 4 + 5 + 1;
    final long packedAt = elementsAt + 8;
    final String where = " of storage of Counts: ";
    refused(
        new Bytes().start(FULL, 2, entities).i(1).counts(KEY, 0, -1, new long[4], 1, 2, 3, 4),
        "corrupt count of elements: 4 (expected 0 to 3) (reading storage of Counts, its elements)",
        elementsAt);
    for (final long bad :
        new long[] {
          released, Entity.of(3, 0), Entity.of(-2, 0), Entity.of(0, 1), Entity.of(2, 0)
        }) {
      refused(
          new Bytes().start(FULL, 2, entities).i(1).counts(KEY, 0, -1, new long[] {E0, E2, bad}),
          "corrupt element at position 2"
              + where
              + Entity.toString(bad)
              + " is not a live entity of the snapshot",
          packedAt + 16);
    }
    refused(
        new Bytes().start(FULL, 2, entities).i(1).counts(KEY, 0, -1, new long[] {E2, E0, E2}),
        "corrupt element at position 2" + where + Entity.toString(E2) + " appears twice",
        packedAt + 16);
    // The same storage, right.
    final Registry loaded =
        load(
            new Bytes()
                .start(FULL, 2, entities)
                .i(1)
                .counts(KEY, 0, -1, new long[] {E2, E0}, 7, 8)
                .end()
                .get());
    assertEquals(Row.of(7), loaded.get(E2, COUNTS));
    assertEquals(Row.of(8), loaded.get(E0, COUNTS));
  }

  @Test
  void theElementsOfAPartialSnapshotAreListedEntitiesOnce() throws IOException {
    final long[] listed = {E0, E1, E2};
    final int packedAt = 12 + 8 + 24 + 4 + 4 + 4 + KEY.length() + 1 + 4 + 4 + 5 + 1 + 8;
    refusedContinuously(
        new Bytes().start(0, 3, listed).i(1).counts(KEY, 0, -1, new long[] {E0, E1, E0}),
        "corrupt element at position 2 of storage of Counts: "
            + Entity.toString(E0)
            + " appears twice",
        packedAt + 16);
    final long stranger = Entity.of(1, 9);
    refusedContinuously(
        new Bytes().start(0, 3, listed).i(1).counts(KEY, 0, -1, new long[] {E0, E1, stranger}),
        "corrupt element at position 2 of storage of Counts: "
            + Entity.toString(stranger)
            + " is not a live entity of the snapshot",
        packedAt + 16);
    // The same entities in two storages, and a partial storage with a hole, are fine.
    final Registry local = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(local).types(TYPES);
    loader.load(
        new ByteArrayInputStream(
            new Bytes()
                .start(0, 3, listed)
                .i(2)
                .counts(KEY, 0, -1, new long[] {E0, E1}, 1, 2)
                .counts(IN_PLACE_KEY, 1, 1, new long[] {E0, hole(-1), E1}, 3, 0, 4)
                .end()
                .get()));
    assertEquals(Row.of(2), local.get(loader.map(E1), COUNTS));
    assertEquals(Row.of(3), local.get(loader.map(E0), COUNTS_IN_PLACE));
    assertEquals(Row.of(4), local.get(loader.map(E1), COUNTS_IN_PLACE));
  }

  /** The free list of a partial snapshot's storage is checked as a whole snapshot's is. */
  @Test
  void holesMustFormOneFreeListInAPartialSnapshotToo() {
    final long[] entities = {E0, E1, E2, Entity.of(3, 0), Entity.of(4, 0)};
    final int holeAt = 12 + 8 + 40 + 4 + 4 + 4 + IN_PLACE_KEY.length() + 1 + 4 + 4 + 5 + 1 + 4;
    final String list = "corrupt free list of storage of CountsInPlace: ";
    final long[] packed = {E0, hole(-1), E1, hole(1), E2};
    final int[] values = {1, 0, 2, 0, 3};
    refusedContinuously(
        new Bytes().start(0, 5, entities).i(1).counts(KEY, 0, -1, packed, values),
        "corrupt storage of Counts: holes in a swap-and-pop storage",
        holeAt - IN_PLACE_KEY.length() + KEY.length());
    for (final int first : new int[] {0, 2, 5, -2}) {
      refusedContinuously(
          new Bytes().start(0, 5, entities).i(1).counts(IN_PLACE_KEY, 1, first, packed, values),
          list + "link " + first + " is not a hole, or the list loops",
          holeAt);
    }
    refusedContinuously(
        new Bytes().start(0, 5, entities).i(1).counts(IN_PLACE_KEY, 1, 1, packed, values),
        list + "it reaches 1 of 2 holes",
        holeAt);
    refusedContinuously(
        new Bytes().start(0, 5, entities).i(1).counts(IN_PLACE_KEY, 1, -1, packed, values),
        list + "it reaches 0 of 2 holes",
        holeAt);
  }

  @Test
  void holesMustFormOneFreeListInAnInPlaceStorage() throws IOException {
    final long[] entities = {E0, E1, E2, Entity.of(3, 0), Entity.of(4, 0)};
    final int holeAt = 12 + 8 + 40 + 4 + 4 + 4 + IN_PLACE_KEY.length() + 1 + 4 + 4 + 5 + 1 + 4;
    final String list = "corrupt free list of storage of CountsInPlace: ";
    // Holes need not have a live entity's index: the three live elements are E0, E1 and E2.
    // Positions 1 and 3 are holes (3 links to 1, 1 ends the list).
    final long[] packed = {E0, hole(-1), E1, hole(1), E2};
    final int[] values = {1, 0, 2, 0, 3};
    refused(
        new Bytes().start(FULL, 5, entities).i(1).counts(KEY, 0, -1, packed, values),
        "corrupt storage of Counts: holes in a swap-and-pop storage",
        holeAt - IN_PLACE_KEY.length() + KEY.length());
    for (final int first : new int[] {0, 2, 5, -2}) {
      refused(
          new Bytes().start(FULL, 5, entities).i(1).counts(IN_PLACE_KEY, 1, first, packed, values),
          list + "link " + first + " is not a hole, or the list loops",
          holeAt);
    }
    refused(
        new Bytes().start(FULL, 5, entities).i(1).counts(IN_PLACE_KEY, 1, 1, packed, values),
        list + "it reaches 1 of 2 holes",
        holeAt);
    refused(
        new Bytes()
            .start(FULL, 5, entities)
            .i(1)
            .counts(IN_PLACE_KEY, 1, 3, new long[] {E0, hole(3), E1, hole(1), E2}, values),
        list + "link 3 is not a hole, or the list loops",
        holeAt);
    refused(
        new Bytes().start(FULL, 5, entities).i(1).counts(IN_PLACE_KEY, 1, -1, packed, values),
        list + "it reaches 0 of 2 holes",
        holeAt);
    final Registry loaded =
        load(
            new Bytes()
                .start(FULL, 5, entities)
                .i(1)
                .counts(IN_PLACE_KEY, 1, 3, packed, values)
                .end()
                .get());
    assertEquals(3, loaded.storage(COUNTS_IN_PLACE).firstHole());
    assertEquals(Row.of(3), loaded.get(E2, COUNTS_IN_PLACE));
    assertEquals(List.of(), loaded.verify());
  }

  @Test
  void valuesMustHaveSaneEnumIndicesAndLengths() throws IOException {
    final String shades = "class:" + Shades.class.getName();
    final Bytes header =
        new Bytes()
            .start(FULL, 3, E0, E1, E2)
            .i(1)
            .s(shades)
            .b(0)
            .i(1)
            .s("shade")
            .b(SnapshotFormat.ENUM)
            .s(Shade.class.getName())
            .i(2)
            .s("DARK")
            .s("LIGHT")
            .i(3)
            .i(-1)
            .l(E0, E1, E2);
    final int valuesAt = header.size();
    final byte[] prefix = header.get();
    for (final int bad : new int[] {2, -2}) {
      refused(
          copy(prefix).ints(0, 1, bad),
          "corrupt enum index " + bad + " (reading storage of Shades, field 'shade')",
          valuesAt + 8);
    }
    final Registry loaded = load(copy(prefix).ints(1, -1, 0).end().get());
    assertEquals(Row.of(Shade.LIGHT), loaded.get(E0, SHADES));
    assertEquals(Row.of((Object) null), loaded.get(E1, SHADES));
    assertEquals(Row.of(Shade.DARK), loaded.get(E2, SHADES));
  }

  @Test
  void skippedFieldsMustHaveSaneLengths() throws IOException {
    // The saved type had a String and a codec field before "count"; the type it loads into has
    // only "count". Skipped values are checked as they are skipped.
    for (final byte code : new byte[] {SnapshotFormat.STRING, SnapshotFormat.CODEC}) {
      final Bytes header =
          new Bytes().start(FULL, 2, E0, E1).i(1).s("class:gone.Wide").b(0).i(2).s("gone").b(code);
      if (SnapshotFormat.CODEC == code) {
        header.s("gone.Value");
      }
      header.s("count").b(SnapshotFormat.INT).i(2).i(-1).l(E0, E1);
      final int valuesAt = header.size();
      final Registry target = new Registry();
      final SnapshotFormatException e =
          assertThrows(
              SnapshotFormatException.class,
              () ->
                  new SnapshotLoader(target)
                      .types(TYPES)
                      .alias("gone.Wide", COUNTS)
                      .load(new ByteArrayInputStream(copy(header.get()).i(-1).i(-2).get())));
      assertEquals(
          "corrupt value length -2 (reading storage of Counts, field 'gone') (at byte "
              + (valuesAt + 4)
              + ")",
          e.getMessage());
      // Right: a null, then a value of 3 (chars of a string, bytes of a codec value).
      final Bytes good = copy(header.get()).i(-1).i(3);
      for (int k = 0; k < (SnapshotFormat.STRING == code ? 6 : 3); k++) {
        good.b(0);
      }
      final Registry loaded = new Registry();
      new SnapshotLoader(loaded)
          .types(TYPES)
          .alias("gone.Wide", COUNTS)
          .load(new ByteArrayInputStream(good.ints(7, 8).end().get()));
      assertEquals(Row.of(8), loaded.get(E1, COUNTS));
    }
  }

  @Test
  void aCodecValueMustHaveASaneLength() {
    final String key = "class:" + SnapshotSchemaChangeTest.Wide.class.getName();
    final Bytes bytes =
        new Bytes()
            .start(FULL, 1, E0)
            .i(1)
            .s(key)
            .b(0)
            .i(1)
            .s("blob")
            .b(SnapshotFormat.CODEC)
            .s(Blob.class.getName())
            .i(1)
            .i(-1)
            .l(E0);
    final int valueAt = bytes.size();
    final SnapshotFormatException e =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(new Registry())
                    .types(TYPES)
                    .types(SnapshotSchemaChangeTest.WIDE)
                    .codec(Blob.class, SnapshotSchemaChangeTest.BLOBS)
                    .load(new ByteArrayInputStream(bytes.i(-2).get())));
    assertEquals(
        "corrupt value length -2 (reading storage of Wide, field 'blob') (at byte " + valueAt + ")",
        e.getMessage());
  }

  @Test
  void theEndMarkerMustFollowTheLastStorage() {
    for (int at = 0; at < 4; at++) {
      final Bytes bytes = new Bytes().start(FULL, 0).i(0);
      final int end = bytes.size();
      for (int k = 0; k < 4; k++) {
        bytes.b(k == at ? '?' : "END!".charAt(k));
      }
      refused(
          bytes,
          "corrupt snapshot: the end marker 'END!' is missing (reading the end marker)",
          end + at + 1);
    }
  }

  @Test
  void aSnapshotWithMoreIdentifiersThanTheTargetAllowsIsRefused() throws IOException {
    final byte[] three = new Bytes().start(FULL, 3, E0, E1, E2).i(0).end().get();
    final Registry small = new Registry(2);
    final SnapshotFormatException e =
        assertThrows(
            SnapshotFormatException.class,
            () -> new SnapshotLoader(small).load(new ByteArrayInputStream(three)));
    assertEquals(
        "the snapshot has 3 identifiers, more than the target registry's limit of 2",
        e.getMessage());
    assertEquals(0, small.entities().size());
    final Registry exact = new Registry(3);
    new SnapshotLoader(exact).load(new ByteArrayInputStream(three));
    assertEquals(3, exact.alive());
  }

  private static Bytes copy(final byte[] prefix) {
    final Bytes bytes = new Bytes();
    for (final byte b : prefix) {
      bytes.b(b);
    }
    return bytes;
  }
}
