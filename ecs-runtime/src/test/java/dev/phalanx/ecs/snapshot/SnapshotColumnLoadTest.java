package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Loading the primitive fields of struct-of-arrays storages (as the processor generates them):
 * every width read into whole pages that the storage adopts, read flat for a continuous load,
 * copied into a storage that replaces installed pages, and compacted when holes meet a swap-and-pop
 * storage. Sizes around the page size (8) check the page arithmetic: empty, one element, exactly
 * one and two pages, and a padded last page.
 */
class SnapshotColumnLoadTest {

  static final Col[] ALL_COLS = {
    Col.of("flag", boolean.class),
    Col.of("tiny", byte.class),
    Col.of("small", short.class),
    Col.of("letter", char.class),
    Col.of("count", int.class),
    Col.of("big", long.class),
    Col.entity("owner"),
    Col.of("ratio", float.class),
    Col.of("precise", double.class)
  };

  static final int[] SIZES = {0, 1, 7, 8, 16, 21};

  // Marker classes: their names are the keys snapshots save.
  static final class All {}

  static final class AllOld {}

  static final class AllHoles {}

  static final class Named {}

  static final class NamedHoles {}

  static final ComponentType<Row, PrimitiveColumnsStorageA> ALL =
      PrimitiveColumnsStorageA.define(
          All.class, 8, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, ALL_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> ALL_OLD =
      PrimitiveColumnsStorageA.define(
          AllOld.class, 8, DeletionPolicy.SWAP_AND_POP, Pages.REPLACES, ALL_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> ALL_HOLES =
      PrimitiveColumnsStorageA.define(
          AllHoles.class, 8, DeletionPolicy.IN_PLACE, Pages.KEEPS, ALL_COLS);
  static final ComponentType<Row, PrimitiveColumnsStorageA> NAMED =
      PrimitiveColumnsStorageA.define(
          Named.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          Pages.KEEPS,
          Col.of("name", String.class),
          Col.of("count", int.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> NAMED_HOLES =
      PrimitiveColumnsStorageA.define(
          NamedHoles.class,
          4,
          DeletionPolicy.IN_PLACE,
          Pages.KEEPS,
          Col.of("name", String.class),
          Col.of("count", int.class));

  /** A row of distinct, non-default values for element {@code i} owned by {@code owner}. */
  static Row row(final int i, final long owner) {
    return Row.of(
        i % 3 != 1,
        (byte) (i + 1),
        (short) (-300 * (i + 1)),
        (char) ('a' + i % 26),
        70_000 * (i + 1),
        (i + 1L) << 40,
        owner,
        0.5f + i,
        -0.25d - i);
  }

  /** A registry with {@code n} entities, each with a row of {@code type}. */
  static Registry world(final ComponentType<Row, PrimitiveColumnsStorageA> type, final int n) {
    final Registry registry = new Registry();
    final PrimitiveColumnsStorageA storage = registry.storage(type);
    long previous = Entity.NULL;
    for (int i = 0; i < n; i++) {
      final long entity = registry.create();
      storage.emplace(entity, row(i, previous));
      previous = entity;
    }
    return registry;
  }

  static byte[] save(final Registry registry) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    return out.toByteArray();
  }

  static long[] live(final Registry registry) {
    final List<Long> live = new ArrayList<>();
    for (int i = 0; i < registry.entities().size(); i++) {
      final long entity = registry.entities().packed()[i];
      if (registry.valid(entity)) {
        live.add(entity);
      }
    }
    return live.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void everyPrimitiveWidthIsLoadedIntoPagesTheStorageAdopts() throws IOException {
    // A whole load reads each primitive field into whole pages and installs them: the storage
    // allocates none of the pages that hold loaded elements.
    for (final int n : SIZES) {
      final Registry saved = world(ALL, n);
      final Registry loaded = new Registry();
      new SnapshotLoader(loaded)
          .types(SnapshotTypes.of(saved))
          .load(new ByteArrayInputStream(save(saved)));
      final PrimitiveColumnsStorageA storage = loaded.storage(ALL);
      assertEquals(n, storage.size(), "size " + n);
      for (final long entity : live(saved)) {
        assertEquals(saved.get(entity, ALL), loaded.get(entity, ALL), "size " + n);
        assertEquals(saved.storage(ALL).indexOf(entity), storage.indexOf(entity));
      }
      for (int page = 0; page < (n + 7) / 8; page++) {
        for (int column = 0; column < ALL_COLS.length; column++) {
          assertFalse(storage.allocatedItself(column, page), "size " + n + ", page " + page);
        }
      }
      assertEquals(List.of(), loaded.verify());
      // The adopted pages are complete: the storage keeps growing past them.
      final long extra = loaded.create();
      storage.emplace(extra, row(99, extra));
      assertEquals(row(99, extra), loaded.get(extra, ALL));
    }
  }

  @Test
  void aContinuousLoadReadsEveryPrimitiveWidthFlat() throws IOException {
    // A continuous load stages flat arrays and copies them into the local storage's pages.
    for (final int n : SIZES) {
      final Registry saved = world(ALL, n);
      final Registry local = new Registry();
      local.create(); // local identifiers differ from the remote ones
      final ContinuousLoader loader = new ContinuousLoader(local).types(SnapshotTypes.of(saved));
      loader.load(new ByteArrayInputStream(save(saved)));
      assertEquals(n, local.storage(ALL).size(), "size " + n);
      for (final long remote : live(saved)) {
        final Row expected = saved.get(remote, ALL);
        final Row got = local.get(loader.map(remote), ALL);
        for (int column = 0; column < ALL_COLS.length; column++) {
          Object want = expected.get(column);
          if (ALL_COLS[column].entityRef() && Entity.NULL != (long) want) {
            want = loader.map((long) want); // entity references are mapped to local entities
          }
          assertEquals(want, got.get(column), "size " + n + ", column " + column);
        }
      }
      assertEquals(List.of(), local.verify());
    }
  }

  @Test
  void aStorageThatReplacesInstalledPagesIsFilledByCopyingEveryWidth() throws IOException {
    // The page probe finds that this storage replaces installed pages: values are copied into the
    // storage's own pages instead, and still arrive whole.
    for (final int n : SIZES) {
      final Registry saved = world(ALL_OLD, n);
      final Registry loaded = new Registry();
      new SnapshotLoader(loaded)
          .types(SnapshotTypes.of(saved))
          .load(new ByteArrayInputStream(save(saved)));
      final PrimitiveColumnsStorageA storage = loaded.storage(ALL_OLD);
      assertEquals(n, storage.size());
      for (final long entity : live(saved)) {
        assertEquals(saved.get(entity, ALL_OLD), loaded.get(entity, ALL_OLD), "size " + n);
      }
      for (int page = 0; page < (n + 7) / 8; page++) {
        assertTrue(storage.allocatedItself(0, page), "size " + n + ", page " + page);
      }
    }
  }

  @Test
  void aTypeWithAReferenceFieldIsReadFlatAndCopied() throws IOException {
    // Pages of references would need the field's own array class: a type with any reference field
    // is staged flat, primitive fields included, and copied into the storage's pages.
    final Registry saved = new Registry();
    for (int i = 0; i < 9; i++) {
      saved.emplace(saved.create(), NAMED, Row.of(i == 4 ? null : "name " + i, i * 11));
    }
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .load(new ByteArrayInputStream(save(saved)));
    for (final long entity : live(saved)) {
      assertEquals(saved.get(entity, NAMED), loaded.get(entity, NAMED));
    }
    assertTrue(loaded.storage(NAMED).allocatedItself(1, 0));
  }

  /** A registry of {@code type} (in place) with {@code n} elements, every third removed. */
  private static Registry withHoles(
      final ComponentType<Row, PrimitiveColumnsStorageA> type, final int n, final boolean named) {
    final Registry registry = new Registry();
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final long entity = registry.create();
      entities.add(entity);
      registry.emplace(entity, type, named ? Row.of("name " + i, i) : row(i, entity));
    }
    for (int i = 0; i < n; i += 3) {
      registry.remove(entities.get(i), type);
    }
    return registry;
  }

  @Test
  void holesAreDroppedWhenAnInPlaceStorageIsLoadedIntoASwapAndPopOne() throws IOException {
    // The saved type deleted in place; the type it is loaded into swaps and pops: its elements
    // keep their order without the holes, with their values (paged and flat staging alike).
    for (final int n : new int[] {2, 8, 17, 24}) {
      final Registry saved = withHoles(ALL_HOLES, n, false);
      final Registry loaded = new Registry();
      new SnapshotLoader(loaded)
          .types(SnapshotTypes.of(saved))
          .alias(AllHoles.class.getName(), ALL)
          .load(new ByteArrayInputStream(save(saved)));
      final Storage<?> before = saved.storage(ALL_HOLES);
      final PrimitiveColumnsStorageA after = loaded.storage(ALL);
      assertEquals(n - (n + 2) / 3, after.size(), "size " + n);
      int position = 0;
      for (int p = 0; p < before.size(); p++) {
        final long entity = before.packed()[p];
        if (!Entity.isTombstone(entity)) {
          assertEquals(entity, after.packed()[position++]);
          assertEquals(saved.get(entity, ALL_HOLES), loaded.get(entity, ALL));
        }
      }
      assertEquals(SparseSet.ABSENT, after.firstHole());
      assertEquals(List.of(), loaded.verify());

      final Registry named = withHoles(NAMED_HOLES, n, true);
      final Registry local = new Registry();
      final ContinuousLoader loader =
          new ContinuousLoader(local).alias(NamedHoles.class.getName(), NAMED);
      loader.load(new ByteArrayInputStream(save(named)));
      assertEquals(n - (n + 2) / 3, local.storage(NAMED).size());
      for (final long entity : live(named)) {
        assertEquals(named.tryGet(entity, NAMED_HOLES), local.tryGet(loader.map(entity), NAMED));
      }
      assertEquals(List.of(), local.verify());
    }
  }

  @Test
  void holesAreKeptWhenTheTargetDeletesInPlaceToo() throws IOException {
    final Registry saved = withHoles(ALL_HOLES, 17, false);
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .load(new ByteArrayInputStream(save(saved)));
    assertEquals(17, loaded.storage(ALL_HOLES).size());
    assertEquals(saved.storage(ALL_HOLES).firstHole(), loaded.storage(ALL_HOLES).firstHole());
    for (final long entity : live(saved)) {
      assertEquals(saved.tryGet(entity, ALL_HOLES), loaded.tryGet(entity, ALL_HOLES));
    }
    assertEquals(List.of(), loaded.verify());
  }

  // One single-field type per primitive kind, each replacing installed pages: the page probe must
  // look at every kind of field to find out.
  static final class OldBoolean {}

  static final class OldByte {}

  static final class OldShort {}

  static final class OldChar {}

  static final class OldInt {}

  static final class OldLong {}

  static final class OldFloat {}

  static final class OldDouble {}

  static final List<ComponentType<Row, PrimitiveColumnsStorageA>> OLD_SINGLES =
      List.of(
          single(OldBoolean.class, boolean.class),
          single(OldByte.class, byte.class),
          single(OldShort.class, short.class),
          single(OldChar.class, char.class),
          single(OldInt.class, int.class),
          single(OldLong.class, long.class),
          single(OldFloat.class, float.class),
          single(OldDouble.class, double.class));

  private static ComponentType<Row, PrimitiveColumnsStorageA> single(
      final Class<?> marker, final Class<?> field) {
    return PrimitiveColumnsStorageA.define(
        marker, 4, DeletionPolicy.SWAP_AND_POP, Pages.REPLACES, Col.of("value", field));
  }

  @Test
  void thePageProbeChecksFieldsOfEveryPrimitiveKind() throws IOException {
    // A storage of a single field of any kind whose allocatePage replaces installed pages must be
    // filled by copying: adopted pages would be replaced by empty ones.
    final Registry saved = new Registry();
    final long[] entities = new long[6];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = saved.create();
      for (final ComponentType<Row, PrimitiveColumnsStorageA> type : OLD_SINGLES) {
        final int kind = OLD_SINGLES.indexOf(type); // row() has the owner (a long) at 6
        final Object value = row(i, Entity.NULL).get(kind > 5 ? kind + 1 : kind);
        saved.emplace(entities[i], type, Row.of(value));
      }
    }
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .load(new ByteArrayInputStream(save(saved)));
    for (final ComponentType<Row, PrimitiveColumnsStorageA> type : OLD_SINGLES) {
      for (final long entity : entities) {
        assertEquals(saved.get(entity, type), loaded.get(entity, type), type.name());
      }
    }
  }
}
