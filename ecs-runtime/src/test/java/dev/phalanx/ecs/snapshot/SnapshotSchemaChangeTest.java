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
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Loading a snapshot into types whose fields changed since it was saved (the saved class is aliased
 * to the new type): fields matched by name, a field the snapshot lacks gets its default, a field
 * the type lacks is skipped whatever its kind, a changed field type is refused, enum values are
 * matched by constant name, and reference fields go through their codecs, which are checked.
 */
class SnapshotSchemaChangeTest {

  enum Color {
    RED,
    GREEN,
    BLUE
  }

  /** {@link Color} in a newer version: reordered, without GREEN. */
  enum Colour {
    BLUE,
    RED
  }

  /** A value saved through a codec: a short header, then the text's bytes, of any length. */
  record Blob(String text) {}

  /** Another codec class, for a field whose class changed. */
  record OtherBlob(String text) {}

  static final ValueCodec<Blob> BLOBS =
      new ValueCodec<>() {
        @Override
        public void write(final Blob value, final DataOutput out) throws IOException {
          out.writeShort(0x5AFE);
          out.write(value.text().getBytes(StandardCharsets.ISO_8859_1));
        }

        @Override
        public Blob read(final DataInput in) throws IOException {
          if (0x5AFE != in.readUnsignedShort()) {
            throw new IOException("bad header");
          }
          // Reads the rest of the value in bulk: the loader bounds the input to the value.
          return new Blob(
              new String(((DataInputStream) in).readAllBytes(), StandardCharsets.ISO_8859_1));
        }
      };

  static final ValueCodec<OtherBlob> OTHER_BLOBS =
      new ValueCodec<>() {
        @Override
        public void write(final OtherBlob value, final DataOutput out) throws IOException {
          out.writeUTF(value.text());
        }

        @Override
        public OtherBlob read(final DataInput in) throws IOException {
          return new OtherBlob(in.readUTF());
        }
      };

  // Marker classes: their names are the keys snapshots save.
  static final class Wide {}

  static final class WideHoles {}

  static final class CountOnly {}

  static final class TinyOnly {}

  static final class AllStale {}

  static final class AllOldStale {}

  static final class MixedStale {}

  static final class CountFloat {}

  static final class BigEntity {}

  static final class BlobChanged {}

  static final class Recoloured {}

  /** Every kind of field, {@code count} among them. */
  static final Col[] WIDE_COLS = {
    Col.of("flag", boolean.class),
    Col.of("tiny", byte.class),
    Col.of("small", short.class),
    Col.of("letter", char.class),
    Col.of("name", String.class),
    Col.of("count", int.class),
    Col.of("big", long.class),
    Col.entity("owner"),
    Col.of("color", Color.class),
    Col.of("ratio", float.class),
    Col.of("blob", Blob.class),
    Col.of("precise", double.class)
  };

  static final ComponentType<Row, PrimitiveColumnsStorageA> WIDE =
      PrimitiveColumnsStorageA.define(
          Wide.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, WIDE_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> WIDE_HOLES =
      PrimitiveColumnsStorageA.define(
          WideHoles.class, 4, DeletionPolicy.IN_PLACE, Pages.KEEPS, WIDE_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> COUNT_ONLY =
      PrimitiveColumnsStorageA.define(
          CountOnly.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("count", int.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> TINY_ONLY =
      PrimitiveColumnsStorageA.define(
          TinyOnly.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("tiny", byte.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> ALL_STALE =
      PrimitiveColumnsStorageA.define(
          AllStale.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.KEEPS_STALE,
          SnapshotColumnLoadTest.ALL_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> ALL_OLD_STALE =
      PrimitiveColumnsStorageA.define(
          AllOldStale.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.REPLACES_STALE,
          SnapshotColumnLoadTest.ALL_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> MIXED_STALE =
      PrimitiveColumnsStorageA.define(
          MixedStale.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.KEEPS_STALE,
          Col.of("name", String.class),
          Col.of("count", int.class),
          Col.of("color", Color.class),
          Col.entity("owner"),
          Col.of("ratio", float.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> COUNT_FLOAT =
      PrimitiveColumnsStorageA.define(
          CountFloat.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.KEEPS,
          Col.of("count", float.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> BIG_ENTITY =
      PrimitiveColumnsStorageA.define(
          BigEntity.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.entity("big"));
  static final ComponentType<Row, PrimitiveColumnsStorageA> BLOB_CHANGED =
      PrimitiveColumnsStorageA.define(
          BlobChanged.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.KEEPS,
          Col.of("blob", OtherBlob.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> RECOLOURED =
      PrimitiveColumnsStorageA.define(
          Recoloured.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.KEEPS,
          Col.of("color", Colour.class),
          Col.of("count", int.class));

  /** A wide row: {@code count} is {@code 10 * i}; references are null when {@code i % 4 == 3}. */
  static Row wide(final int i, final Color color) {
    final boolean nulls = i % 4 == 3;
    return Row.of(
        true,
        (byte) i,
        (short) i,
        'w',
        nulls ? null : 0 == i ? "" : "name " + i,
        10 * i,
        (long) i,
        Entity.NULL,
        nulls ? null : color,
        1.5f,
        nulls ? null : new Blob("x".repeat(i * 13)),
        2.5d);
  }

  /** A registry with {@code n} entities, each with a wide row of {@code type}. */
  static Registry wideWorld(final ComponentType<Row, PrimitiveColumnsStorageA> type, final int n) {
    final Registry registry = new Registry();
    for (int i = 0; i < n; i++) {
      registry.emplace(registry.create(), type, wide(i, Color.values()[i % 2 * 2]));
    }
    return registry;
  }

  static byte[] save(final Registry registry) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).codec(Blob.class, BLOBS).write(out);
    return out.toByteArray();
  }

  static Registry load(final byte[] bytes, final ComponentType<?, ?> into, final Class<?> saved)
      throws IOException {
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .codec(Blob.class, BLOBS)
        .alias(saved.getName(), into)
        .load(new ByteArrayInputStream(bytes));
    return loaded;
  }

  @Test
  void fieldsTheSnapshotLacksGetTheirDefaultsInAdoptedAndInOwnPages() throws IOException {
    // Only "count" (or only "tiny") is saved. The storages hand out pages holding stale values:
    // every other field must still read as its default (0, false, null; Entity.NULL for an entity
    // reference), whether the pages are new ones from the loader (adopted) or the storage's own
    // (copied into). 9 elements: two whole pages of 4 and one padded.
    final Registry counts = new Registry();
    final Registry tinies = new Registry();
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      entities.add(counts.create());
      tinies.create();
      counts.emplace(entities.get(i), COUNT_ONLY, Row.of(100 + i));
      tinies.emplace(entities.get(i), TINY_ONLY, Row.of((byte) (100 + i)));
    }
    final byte[] countBytes = save(counts);
    final byte[] tinyBytes = save(tinies);
    for (final ComponentType<Row, PrimitiveColumnsStorageA> type :
        List.of(ALL_STALE, ALL_OLD_STALE)) {
      final Registry fromCounts = load(countBytes, type, CountOnly.class);
      final Registry fromTinies = load(tinyBytes, type, TinyOnly.class);
      for (int i = 0; i < 9; i++) {
        assertEquals(
            Row.of(false, (byte) 0, (short) 0, '\0', 100 + i, 0L, Entity.NULL, 0f, 0d),
            fromCounts.get(entities.get(i), type),
            type.name() + " " + i);
        assertEquals(
            Row.of(false, (byte) (100 + i), (short) 0, '\0', 0, 0L, Entity.NULL, 0f, 0d),
            fromTinies.get(entities.get(i), type),
            type.name() + " " + i);
      }
    }
    final Registry mixed = load(countBytes, MIXED_STALE, CountOnly.class);
    for (int i = 0; i < 9; i++) {
      assertEquals(
          Row.of(null, 100 + i, null, Entity.NULL, 0f), mixed.get(entities.get(i), MIXED_STALE));
    }
  }

  @Test
  void fieldsTheTypeLacksAreSkippedWhateverTheirKind() throws IOException {
    // Every kind of field, null references included, is skipped to reach "count" and the fields
    // after it; a skipped reference field needs no codec.
    for (final int n : new int[] {0, 1, 2, 9}) {
      final Registry saved = wideWorld(WIDE, n);
      final byte[] bytes = save(saved);
      final Registry loaded = new Registry();
      new SnapshotLoader(loaded)
          .types(SnapshotTypes.of(saved))
          .alias(Wide.class.getName(), COUNT_ONLY)
          .load(new ByteArrayInputStream(bytes));
      final Registry local = new Registry();
      final ContinuousLoader loader =
          new ContinuousLoader(local).alias(Wide.class.getName(), COUNT_ONLY);
      loader.load(new ByteArrayInputStream(bytes));
      assertEquals(n, loaded.storage(COUNT_ONLY).size());
      for (int i = 0; i < n; i++) {
        final long entity = saved.entities().packed()[i];
        assertEquals(Row.of(10 * i), loaded.get(entity, COUNT_ONLY), "size " + n);
        assertEquals(Row.of(10 * i), local.get(loader.map(entity), COUNT_ONLY), "size " + n);
      }
    }
  }

  @Test
  void everyKindOfFieldRoundTripsWithNullsAndLongCodecValues() throws IOException {
    // Strings, enums and codec values (empty, short, longer than the loader's first buffer) load
    // back equal, nulls included.
    final Registry saved = wideWorld(WIDE, 11);
    final Registry loaded = load(save(saved), WIDE, Wide.class);
    for (int i = 0; i < 11; i++) {
      final long entity = saved.entities().packed()[i];
      assertEquals(saved.get(entity, WIDE), loaded.get(entity, WIDE), "entity " + i);
    }
  }

  @Test
  void enumValuesAreMatchedByConstantName() throws IOException {
    // The enum class changed (renamed, reordered): values load by their constant's name.
    final Registry saved = new Registry();
    final long red = saved.create();
    final long blue = saved.create();
    final long none = saved.create();
    saved.emplace(red, WIDE, wide(0, Color.RED));
    saved.emplace(blue, WIDE, wide(1, Color.BLUE));
    saved.emplace(none, WIDE, wide(3, Color.BLUE)); // null color
    final Registry loaded = load(save(saved), RECOLOURED, Wide.class);
    assertEquals(Row.of(Colour.RED, 0), loaded.get(red, RECOLOURED));
    assertEquals(Row.of(Colour.BLUE, 10), loaded.get(blue, RECOLOURED));
    assertEquals(Row.of(null, 30), loaded.get(none, RECOLOURED));
  }

  @Test
  void aConstantThatNoLongerExistsIsRefusedWhereUsedButNotInAHole() throws IOException {
    // GREEN is gone from Colour. In a hole (a removed element of an in-place storage keeps its
    // stale value) nobody reads it; on a live element it is refused, naming where.
    final Registry saved = new Registry();
    final long first = saved.create();
    final long second = saved.create();
    final long third = saved.create();
    saved.emplace(first, WIDE_HOLES, wide(0, Color.RED));
    saved.emplace(second, WIDE_HOLES, wide(1, Color.GREEN));
    saved.emplace(third, WIDE_HOLES, wide(2, Color.BLUE));
    saved.remove(second, WIDE_HOLES);
    final Registry loaded = load(save(saved), RECOLOURED, WideHoles.class);
    assertEquals(Row.of(Colour.RED, 0), loaded.get(first, RECOLOURED));
    assertEquals(Row.of(Colour.BLUE, 20), loaded.get(third, RECOLOURED));
    assertEquals(2, loaded.storage(RECOLOURED).size());

    saved.emplace(second, WIDE_HOLES, wide(1, Color.GREEN)); // fills the hole
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class, () -> load(save(saved), RECOLOURED, WideHoles.class));
    assertEquals(
        "enum constant GREEN of "
            + Colour.class.getName()
            + " no longer exists (reading storage of Recoloured, field 'color', position 1)"
            + " (at byte "
            + refused.offset()
            + ")",
        refused.getMessage());
  }

  @Test
  void aChangedFieldTypeIsRefusedNamingBothTypes() throws IOException {
    final byte[] bytes = save(wideWorld(WIDE, 3));
    final SnapshotFormatException toFloat =
        assertThrows(SnapshotFormatException.class, () -> load(bytes, COUNT_FLOAT, Wide.class));
    assertEquals(
        "field 'count' of storage of CountFloat changed type: the snapshot has int, the class has"
            + " float; a changed field type cannot be loaded (rename the field to drop the old"
            + " values) (reading storage of CountFloat, field 'count') (at byte "
            + toFloat.offset()
            + ")",
        toFloat.getMessage());
    final SnapshotFormatException toEntity =
        assertThrows(SnapshotFormatException.class, () -> load(bytes, BIG_ENTITY, Wide.class));
    assertTrue(
        toEntity.getMessage().contains("the snapshot has long, the class has @EntityRef long"),
        toEntity.getMessage());
    final SnapshotFormatException otherCodec =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(new Registry())
                    .codec(OtherBlob.class, OTHER_BLOBS)
                    .alias(Wide.class.getName(), BLOB_CHANGED)
                    .load(new ByteArrayInputStream(bytes)));
    assertTrue(
        otherCodec
            .getMessage()
            .startsWith(
                "field 'blob' of storage of BlobChanged changed type: the snapshot has "
                    + Blob.class.getName()
                    + ", the class has "
                    + OtherBlob.class.getName()
                    + ";"),
        otherCodec.getMessage());
  }

  @Test
  void aCodecFieldWithoutItsCodecIsRefused() throws IOException {
    final byte[] bytes = save(wideWorld(WIDE, 3));
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(new Registry())
                    .types(WIDE)
                    .load(new ByteArrayInputStream(bytes)));
    assertEquals(
        "field 'blob' of storage of Wide is of type "
            + Blob.class.getName()
            + ", which needs a ValueCodec: register one with codec(Blob.class, ...)"
            + " (reading storage of Wide, field 'blob') (at byte "
            + refused.offset()
            + ")",
        refused.getMessage());
  }

  /** A codec for {@link Blob} values that misbehaves as told (it may return a non-Blob). */
  @SuppressWarnings({"unchecked", "rawtypes"}) // returns a wrong type on purpose
  private static ValueCodec<Blob> faulty(final String fault) {
    final ValueCodec<Object> codec =
        new ValueCodec<>() {
          @Override
          public void write(final Object value, final DataOutput out) {
            throw new UnsupportedOperationException();
          }

          @Override
          public Object read(final DataInput in) throws IOException {
            return switch (fault) {
              case "short" -> {
                in.readShort();
                yield new Blob("");
              }
              case "long" -> {
                in.skipBytes(Integer.MAX_VALUE);
                in.readByte(); // one past the end of the value
                yield new Blob("");
              }
              case "null" -> {
                BLOBS.read(in);
                yield null;
              }
              case "type" -> {
                BLOBS.read(in);
                yield "text";
              }
              default -> throw new IllegalStateException("boom");
            };
          }
        };
    return (ValueCodec) codec;
  }

  /** Loads {@code bytes} with a faulty codec; returns the refusal's message, without the offset. */
  private static String loadWith(final byte[] bytes, final String fault) {
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(new Registry())
                    .types(WIDE)
                    .codec(Blob.class, faulty(fault))
                    .load(new ByteArrayInputStream(bytes)));
    final String suffix = " (at byte " + refused.offset() + ")";
    assertTrue(refused.getMessage().endsWith(suffix), refused.getMessage());
    return refused.getMessage().substring(0, refused.getMessage().length() - suffix.length());
  }

  @Test
  void aCodecMustReadExactlyItsValueAndReturnAnInstance() throws IOException {
    // A value is 28 bytes (a 2-byte header and 26 of text): reading less, returning null or
    // another class is refused; reading past the value fails in the codec, as does throwing.
    final Registry saved = new Registry();
    saved.emplace(saved.create(), WIDE, wide(2, Color.RED));
    final byte[] bytes = save(saved);
    final String where = " (reading storage of Wide, field 'blob', position 0)";
    final String of = "the codec of " + Blob.class.getName();
    assertEquals(
        of + " read 2 of 28 bytes or returned a " + Blob.class.getName() + where,
        loadWith(bytes, "short"));
    assertEquals(of + " read 28 of 28 bytes or returned a null" + where, loadWith(bytes, "null"));
    assertEquals(
        of + " read 28 of 28 bytes or returned a java.lang.String" + where,
        loadWith(bytes, "type"));
    final String failed =
        of + " failed on the value at position 0 (reading storage of Wide, field 'blob'): ";
    assertEquals(failed + "java.io.EOFException", loadWith(bytes, "long"));
    assertEquals(failed + "java.lang.IllegalStateException: boom", loadWith(bytes, "throw"));
  }

  @Test
  void aCodecValueOfNoBytesLoads() throws IOException {
    // A codec may write nothing for a value (a singleton, say): length 0 is a value, not an error.
    final ValueCodec<Blob> empty =
        new ValueCodec<>() {
          @Override
          public void write(final Blob value, final DataOutput out) {}

          @Override
          public Blob read(final DataInput in) {
            return new Blob("only");
          }
        };
    final Registry saved = new Registry();
    final long entity = saved.create();
    saved.emplace(entity, WIDE, wide(1, Color.RED));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(saved).codec(Blob.class, empty).write(out);
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .codec(Blob.class, empty)
        .load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(new Blob("only"), loaded.get(entity, WIDE).get(10));
    assertEquals("name 1", loaded.get(entity, WIDE).get(4));
  }
}
