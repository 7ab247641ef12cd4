package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.FreshClasses;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ContinuousLoader} keeping a local registry in step with a remote one, on a storage with a
 * column of every kind: local entities stay the same across loads and get updates (not removals and
 * re-insertions), entities and components gone remotely go locally, references are remapped, fields
 * the snapshot lacks get defaults, and a load into a busy storage changes nothing.
 */
class ContinuousLoaderMirrorTest {

  /** A component stored as an object, written through {@link #NOTES}. */
  record Note(String text) {}

  static final ComponentType<Note, ObjectStorage<Note>> NOTE = ComponentType.object(Note.class);

  static final ValueCodec<Note> NOTES =
      new ValueCodec<>() {
        @Override
        public void write(final Note value, final DataOutput out) throws IOException {
          out.writeUTF(value.text());
        }

        @Override
        public Note read(final DataInput in) throws IOException {
          return new Note(in.readUTF());
        }
      };

  /** Marker class loaded again by {@link FreshClasses}, so no class name lookup finds its type. */
  static final class FreshTagB {}

  private static final Sample DEFAULTS =
      new Sample(false, (byte) 0, (short) 0, '\0', 0, 0L, Entity.NULL, 0f, 0d, null, null, null);

  private final SplittableRandom random = new SplittableRandom(17);

  private static long[] live(final Registry registry) {
    return Arrays.copyOf(registry.entities().packed(), registry.alive());
  }

  private static byte[] save(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.codec(Point.class, AllPrimitivesStorageB.POINTS).write(out);
    return out.toByteArray();
  }

  private static void load(final ContinuousLoader loader, final byte[] bytes) throws IOException {
    loader.load(new ByteArrayInputStream(bytes));
  }

  /** A remote world of {@code n} entities, each with a random sample. */
  private Registry remote(final int n) {
    final Registry remote = new Registry();
    final long[] entities = new long[n];
    remote.create(entities);
    for (final long entity : entities) {
      remote.emplace(
          entity,
          AllPrimitivesStorageB.SWAP,
          SnapshotAllColumnsTest.randomSample(random, entities));
    }
    return remote;
  }

  /** Checks every remote element against its local copy, references mapped. */
  private static void assertMirrored(
      final Registry remote, final Registry local, final ContinuousLoader loader) {
    final AllPrimitivesStorageB<Sample> theirs = remote.storage(AllPrimitivesStorageB.SWAP);
    final AllPrimitivesStorageB<Sample> mine = local.storage(AllPrimitivesStorageB.SWAP);
    for (final long entity : live(remote)) {
      final long copy = loader.map(entity);
      assertTrue(local.valid(copy));
      assertEquals(theirs.contains(entity), mine.contains(copy));
      if (theirs.contains(entity)) {
        final Sample sample = theirs.sampleAt(theirs.indexOf(entity));
        SnapshotAllColumnsTest.assertSample(
            SnapshotAllColumnsTest.withTarget(sample, loader.map(sample.target())),
            mine.sampleAt(mine.indexOf(copy)));
      }
    }
  }

  /**
   * A remote entity keeps its local entity across loads; changed values arrive as updates, in
   * place, with no removal and no re-insertion; local entities never mapped are left alone.
   */
  @Test
  void localEntitiesStayAndChangedValuesArriveAsUpdates() throws IOException {
    final Registry remote = remote(40);
    final Registry local = new Registry();
    final long own = local.create();
    final Sample ownSample = SnapshotAllColumnsTest.randomSample(random, new long[] {own});
    local.emplace(own, AllPrimitivesStorageB.SWAP, ownSample);
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(AllPrimitivesStorageB.SWAP);
    load(loader, save(new SnapshotWriter(remote)));
    assertEquals(40, loader.size());
    assertMirrored(remote, local, loader);

    final Map<Long, Long> before = new HashMap<>();
    final Map<Long, Integer> positions = new HashMap<>();
    for (final long entity : live(remote)) {
      before.put(entity, loader.map(entity));
      positions.put(entity, local.storage(AllPrimitivesStorageB.SWAP).indexOf(loader.map(entity)));
    }
    final int[] events = new int[3];
    final AllPrimitivesStorageB<Sample> mine = local.storage(AllPrimitivesStorageB.SWAP);
    mine.onConstruct().connect((registry, entity) -> events[0]++);
    mine.onUpdate().connect((registry, entity) -> events[1]++);
    mine.onDestroy().connect((registry, entity) -> events[2]++);
    final long[] entities = live(remote);
    for (final long entity : entities) {
      remote.replace(
          entity,
          AllPrimitivesStorageB.SWAP,
          SnapshotAllColumnsTest.randomSample(random, entities));
    }
    load(loader, save(new SnapshotWriter(remote)));
    assertEquals(40, loader.size());
    for (final long entity : entities) {
      assertEquals(before.get(entity), loader.map(entity));
      assertEquals(positions.get(entity), mine.indexOf(loader.map(entity)));
    }
    assertEquals(0, events[0], "constructs");
    assertEquals(40, events[1], "updates");
    assertEquals(0, events[2], "removals");
    assertMirrored(remote, local, loader);
    assertEquals(ownSample, mine.get(own));
    assertEquals(41, local.alive());
  }

  /**
   * Entities destroyed remotely are destroyed locally (unless already gone) and unmapped;
   * components removed remotely are removed locally; a mapped local entity destroyed locally is
   * created again.
   */
  @Test
  void whatIsGoneRemotelyGoesLocallyAndWhatIsGoneLocallyComesBack() throws IOException {
    final Registry remote = remote(60);
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(AllPrimitivesStorageB.SWAP);
    load(loader, save(new SnapshotWriter(remote)));
    final long[] entities = live(remote);
    final long[] destroyed = Arrays.copyOfRange(entities, 0, 5);
    final long[] stripped = Arrays.copyOfRange(entities, 5, 30); // more than 16 at once
    final long alreadyGone = loader.map(destroyed[0]);
    local.destroy(alreadyGone);
    final long recreatedRemote = entities[40];
    final long lostLocal = loader.map(recreatedRemote);
    local.destroy(lostLocal);
    final long[] destroyedLocals = new long[destroyed.length];
    for (int i = 0; i < destroyed.length; i++) {
      destroyedLocals[i] = loader.map(destroyed[i]);
      remote.destroy(destroyed[i]);
    }
    for (final long entity : stripped) {
      remote.remove(entity, AllPrimitivesStorageB.SWAP);
    }
    // Samples referring to destroyed entities now refer to nothing.
    load(loader, save(new SnapshotWriter(remote)));
    assertEquals(55, loader.size());
    for (int i = 0; i < destroyed.length; i++) {
      assertFalse(loader.contains(destroyed[i]));
      assertEquals(Entity.NULL, loader.map(destroyed[i]));
      assertFalse(local.valid(destroyedLocals[i]));
    }
    for (final long entity : stripped) {
      assertTrue(local.valid(loader.map(entity)));
      assertFalse(local.storage(AllPrimitivesStorageB.SWAP).contains(loader.map(entity)));
    }
    assertNotEquals(lostLocal, loader.map(recreatedRemote));
    assertTrue(local.valid(loader.map(recreatedRemote)));
    assertEquals(55, local.alive());
    assertEquals(30, local.storage(AllPrimitivesStorageB.SWAP).size());
    assertMirrored(remote, local, loader);
    assertEquals(List.of(), local.verify());
  }

  /**
   * Fields of the local type that the snapshot's storage lacks get their defaults: false, zero,
   * {@link Entity#NULL} for references to entities, null for objects.
   */
  @Test
  void fieldsTheSnapshotLacksGetTheirDefaults() throws IOException {
    final Registry remote = remote(20);
    final long[] entities = live(remote);
    for (int i = 0; i < 10; i++) {
      remote.emplace(entities[i], NOTE, new Note("note " + i));
    }
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(AllPrimitivesStorageB.SWAP)
            .alias(Note.class.getName(), AllPrimitivesStorageB.SWAP);
    load(loader, save(new SnapshotWriter(remote).types(AllPrimitivesStorageB.SWAP)));
    assertMirrored(remote, local, loader);
    // The notes' storage, loaded into the samples' type: no field in common.
    load(loader, save(new SnapshotWriter(remote).types(NOTE).codec(Note.class, NOTES)));
    final AllPrimitivesStorageB<Sample> mine = local.storage(AllPrimitivesStorageB.SWAP);
    assertEquals(10, mine.size());
    for (int i = 0; i < 20; i++) {
      final long entity = loader.map(entities[i]);
      if (i < 10) {
        SnapshotAllColumnsTest.assertSample(DEFAULTS, mine.sampleAt(mine.indexOf(entity)));
      } else {
        assertFalse(mine.contains(entity));
      }
    }
    assertNull(local.findStorage(NOTE), "aliased, the notes' own type is not used");
  }

  /** {@code types} names a type that no lookup by class name would find (another class loader). */
  @Test
  void typesGivesTheLoaderTypesItCannotFindByName() throws IOException {
    final ComponentType<?, ?> fresh = ComponentType.tag(FreshClasses.load(FreshTagB.class));
    final Registry remote = new Registry();
    final long tagged = remote.create();
    remote.create();
    ((EmptyStorage<?>) remote.storage(fresh)).emplace(tagged);
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local).codec(Point.class, AllPrimitivesStorageB.POINTS).types(fresh);
    load(loader, save(new SnapshotWriter(remote)));
    final Storage<?> storage = local.findStorage(fresh);
    assertNotNull(storage);
    assertEquals(1, storage.size());
    assertTrue(storage.contains(loader.map(tagged)));
  }

  /**
   * The hierarchy is set up locally only by a snapshot that has one, and mirrored in full; a
   * snapshot of chosen types carries it too, unlisted, once the remote world has one.
   */
  @Test
  void theHierarchyComesOnlyWithASnapshotThatHasOne() throws IOException {
    final Registry remote = remote(10);
    final long[] entities = live(remote);
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(AllPrimitivesStorageB.SWAP);
    load(loader, save(new SnapshotWriter(remote).types(AllPrimitivesStorageB.SWAP)));
    assertNull(local.context().find(Hierarchy.class));
    assertNull(local.findStorage(Hierarchy.TYPE));
    final Hierarchy tree = Hierarchy.of(remote);
    tree.attach(entities[1], entities[0]);
    tree.attach(entities[2], entities[0]);
    tree.attach(entities[3], entities[2]);
    load(loader, save(new SnapshotWriter(remote).types(AllPrimitivesStorageB.SWAP)));
    final Hierarchy mirrored = local.context().find(Hierarchy.class);
    assertNotNull(mirrored);
    assertEquals(tree.nodes().size(), mirrored.nodes().size());
    for (final long entity : entities) {
      final long mine = loader.map(entity);
      assertEquals(loader.map(tree.parent(entity)), mirrored.parent(mine));
      assertEquals(loader.map(tree.firstChild(entity)), mirrored.firstChild(mine));
      assertEquals(loader.map(tree.nextSibling(entity)), mirrored.nextSibling(mine));
      assertEquals(loader.map(tree.previousSibling(entity)), mirrored.previousSibling(mine));
      assertEquals(tree.childCount(entity), mirrored.childCount(mine));
      assertEquals(tree.depth(entity), mirrored.depth(mine));
    }
    assertEquals(2, mirrored.depth(loader.map(entities[3])));
    assertEquals(List.of(), mirrored.verify());
    assertEquals(List.of(), local.verify());
  }

  /**
   * A load into a storage that is iterated or locked throws and changes nothing: not the registry,
   * not the map.
   */
  @Test
  void aBusyStorageRefusesTheLoadAndNothingChanges() throws IOException {
    final Registry remote = remote(8);
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(AllPrimitivesStorageB.SWAP);
    load(loader, save(new SnapshotWriter(remote)));
    final String dump = dump(local);
    final long gone = live(remote)[0];
    remote.destroy(gone);
    final long added = remote.create();
    final byte[] changed = save(new SnapshotWriter(remote));
    final AllPrimitivesStorageB<Sample> mine = local.storage(AllPrimitivesStorageB.SWAP);
    CoreTestAccess.beginIteration(mine);
    final ConcurrentModificationException iterated =
        assertThrows(ConcurrentModificationException.class, () -> load(loader, changed));
    assertEquals(
        "cannot load a snapshot: storage of SwapSample is locked or iterated",
        iterated.getMessage());
    CoreTestAccess.endIteration(mine);
    CoreTestAccess.lock(mine, "a test");
    assertThrows(ConcurrentModificationException.class, () -> load(loader, changed));
    CoreTestAccess.unlock(mine);
    assertEquals(dump, dump(local));
    assertEquals(8, loader.size());
    assertTrue(loader.contains(gone));
    assertFalse(loader.contains(added));
    load(loader, changed);
    assertEquals(8, loader.size());
    assertFalse(loader.contains(gone));
    assertTrue(loader.contains(added));
    assertMirrored(remote, local, loader);
  }

  /** The null entity is never mapped. */
  @Test
  void theNullEntityIsNeverMapped() throws IOException {
    final Registry remote = remote(3);
    final ContinuousLoader loader =
        new ContinuousLoader(new Registry())
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .types(AllPrimitivesStorageB.SWAP);
    load(loader, save(new SnapshotWriter(remote)));
    assertFalse(loader.contains(Entity.NULL));
    assertEquals(Entity.NULL, loader.map(Entity.NULL));
    assertTrue(loader.contains(live(remote)[2]));
  }

  private static String dump(final Registry registry) throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    return text.toString();
  }
}
