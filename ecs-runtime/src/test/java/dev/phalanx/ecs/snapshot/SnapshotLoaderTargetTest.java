package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.FreshClasses;
import dev.phalanx.ecs.NonOwningGroup;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a whole load does to its target registry beyond the elements: types found through {@code
 * types(...)}, aliases or the target's own storages, the hierarchy's context variable, groups
 * rebuilt, change ticks of tracked storages, and the refusal of a registry that has (or gets, while
 * the stream is read) entities or a locked or iterated storage.
 */
class SnapshotLoaderTargetTest {

  /** Loaded afresh by {@link FreshClasses}: a class the loader cannot find by name. */
  static final class Hidden {}

  static final class Amounts {}

  static final class Marks {}

  static final ComponentType<Row, PrimitiveColumnsStorageA> AMOUNTS =
      PrimitiveColumnsStorageA.define(
          Amounts.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("amount", int.class));
  static final ComponentType<Row, PrimitiveColumnsStorageA> MARKS =
      PrimitiveColumnsStorageA.define(
          Marks.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("mark", char.class));

  static byte[] save(final Registry registry) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out);
    return out.toByteArray();
  }

  @SuppressWarnings("unchecked")
  private static ComponentType<Object, EmptyStorage<Object>> freshTag() {
    return ComponentType.tag((Class<Object>) FreshClasses.load(Hidden.class));
  }

  @Test
  void aTypeTheLoaderCannotFindByNameIsTakenFromTypesOrFromTheTarget() throws IOException {
    // The saved key names Hidden, but the type is of a copy of it in another class loader: only
    // types(...) or a storage the target already has can lead the loader to it.
    final ComponentType<Object, EmptyStorage<Object>> fresh = freshTag();
    final Registry saved = new Registry();
    final long first = saved.create();
    final long second = saved.create();
    saved.storage(fresh).emplace(second);
    final byte[] bytes = save(saved);

    final Registry viaTypes = new Registry();
    new SnapshotLoader(viaTypes).types(fresh).load(new ByteArrayInputStream(bytes));
    assertTrue(viaTypes.has(second, fresh));
    assertEquals(1, viaTypes.storage(fresh).size());

    final Registry viaTarget = new Registry();
    viaTarget.storage(fresh);
    new SnapshotLoader(viaTarget).load(new ByteArrayInputStream(bytes));
    assertTrue(viaTarget.has(second, fresh));
    assertTrue(viaTarget.valid(first));
  }

  @Test
  void anAliasLoadsASavedClassIntoAnotherType() throws IOException {
    final Registry saved = new Registry();
    final long entity = saved.create();
    saved.emplace(entity, AMOUNTS, Row.of(41));
    final Registry loaded = new Registry();
    final SnapshotLoader loader = new SnapshotLoader(loaded).types(SnapshotTypes.of(saved));
    assertSame(loader, loader.alias(Amounts.class.getName(), MARKS));
    // The values go to MARKS, whose field has another name: it gets its default.
    loader.load(new ByteArrayInputStream(save(saved)));
    assertEquals(Row.of('\0'), loaded.get(entity, MARKS));
    assertNull(loaded.findStorage(AMOUNTS));
  }

  @Test
  void aLoadedHierarchyHasItsContextVariableAtOnce() throws IOException {
    final Registry saved = new Registry();
    final long parent = saved.create();
    final long child = saved.create();
    Hierarchy.of(saved).attach(child, parent);
    final Registry loaded = new Registry();
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .load(new ByteArrayInputStream(save(saved)));
    final Hierarchy hierarchy = loaded.context().find(Hierarchy.class);
    assertNotNull(hierarchy);
    assertEquals(parent, hierarchy.parent(child));
    // It keeps the links as entities go.
    loaded.destroy(parent);
    assertEquals(Entity.NULL, hierarchy.parent(child));
    assertEquals(List.of(), loaded.verify());

    final Registry plain = new Registry();
    new SnapshotLoader(plain).load(new ByteArrayInputStream(save(new Registry())));
    assertNull(plain.context().find(Hierarchy.class));
    assertNull(plain.findStorage(Hierarchy.TYPE));
  }

  @Test
  void groupsOfTheTargetAreRebuiltFromTheLoadedStorages() throws IOException {
    final Registry saved = new Registry();
    final long[] entities = new long[6];
    for (int i = 0; i < entities.length; i++) {
      entities[i] = saved.create();
      saved.emplace(entities[i], AMOUNTS, Row.of(i));
      if (i % 2 == 0) {
        saved.emplace(entities[i], MARKS, Row.of((char) ('a' + i)));
      }
    }
    final Registry loaded = new Registry();
    final OwningGroup owning = loaded.owningGroup(MARKS);
    final NonOwningGroup both =
        loaded.nonOwningGroup(
            new ComponentType<?, ?>[] {AMOUNTS, MARKS}, new ComponentType<?, ?>[0]);
    new SnapshotLoader(loaded)
        .types(SnapshotTypes.of(saved))
        .load(new ByteArrayInputStream(save(saved)));
    assertEquals(3, owning.size());
    assertEquals(3, both.size());
    for (int i = 0; i < entities.length; i++) {
      assertEquals(i % 2 == 0, both.contains(entities[i]));
      assertEquals(i % 2 == 0, owning.contains(entities[i]));
    }
    assertEquals(List.of(), loaded.verify());
  }

  @Test
  void aRegistryWithEntitiesIsRefusedBeforeTheStreamIsRead() {
    final Registry target = new Registry();
    target.create();
    final IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> new SnapshotLoader(target).load(new ByteArrayInputStream(new byte[] {1, 2, 3})));
    assertEquals(
        "cannot load a snapshot into a registry that has live entities (1): load into a new or"
            + " cleared registry, or use a ContinuousLoader",
        e.getMessage());
  }

  record Note(String text) {}

  static final ComponentType<Note, ObjectStorage<Note>> NOTE = ComponentType.object(Note.class);

  @Test
  void aRegistryThatGetsEntitiesWhileTheStreamIsReadIsRefusedUnchanged() throws IOException {
    // A codec (user code) creates an entity in the target while the snapshot is staged: the
    // load is refused before it changes anything.
    final Registry saved = new Registry();
    saved.emplace(saved.create(), NOTE, new Note("hello"));
    final byte[] snapshot = savedNote(saved);
    final Registry target = new Registry();
    final ValueCodec<Note> meddling =
        new ValueCodec<>() {
          @Override
          public void write(final Note value, final DataOutput out) {
            throw new UnsupportedOperationException();
          }

          @Override
          public Note read(final DataInput in) throws IOException {
            target.create();
            return new Note(in.readUTF());
          }
        };
    assertThrows(
        IllegalStateException.class,
        () ->
            new SnapshotLoader(target)
                .types(NOTE)
                .codec(Note.class, meddling)
                .load(new ByteArrayInputStream(snapshot)));
    assertEquals(1, target.entities().size());
    assertEquals(0, target.storage(NOTE).size());
  }

  /** A saved note written through {@code codec}: a string. */
  private static byte[] savedNote(final Registry saved) throws IOException {
    final ValueCodec<Note> writer =
        new ValueCodec<>() {
          @Override
          public void write(final Note value, final DataOutput out) throws IOException {
            out.writeUTF(value.text());
          }

          @Override
          public Note read(final DataInput in) {
            throw new UnsupportedOperationException();
          }
        };
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(saved).codec(Note.class, writer).write(out);
    return out.toByteArray();
  }

  /**
   * A registry with an iterated or a locked storage is refused with {@link
   * ConcurrentModificationException} naming it, unchanged; once the storage is idle again the same
   * snapshot loads.
   */
  @Test
  void aRegistryWithALockedOrIteratedStorageIsRefusedUnchanged() throws IOException {
    final Registry saved = new Registry();
    final long entity = saved.create();
    saved.emplace(entity, AMOUNTS, Row.of(7));
    final byte[] bytes = save(saved);
    final Registry target = new Registry();
    final Storage<Row> marks = target.storage(MARKS);
    final String message = "cannot load a snapshot: storage of Marks is locked or iterated";

    CoreTestAccess.beginIteration(marks);
    final ConcurrentModificationException iterated =
        assertThrows(
            ConcurrentModificationException.class,
            () -> new SnapshotLoader(target).types(AMOUNTS).load(new ByteArrayInputStream(bytes)));
    assertEquals(message, iterated.getMessage());
    CoreTestAccess.endIteration(marks);

    CoreTestAccess.lock(marks, "a test");
    final ConcurrentModificationException locked =
        assertThrows(
            ConcurrentModificationException.class,
            () -> new SnapshotLoader(target).types(AMOUNTS).load(new ByteArrayInputStream(bytes)));
    assertEquals(message, locked.getMessage());
    CoreTestAccess.unlock(marks);

    assertEquals(0, target.entities().size());
    assertNull(target.findStorage(AMOUNTS));
    new SnapshotLoader(target).types(AMOUNTS).load(new ByteArrayInputStream(bytes));
    assertEquals(Row.of(7), target.get(entity, AMOUNTS));
    assertEquals(List.of(), target.verify());
  }

  /**
   * A storage that a codec (user code) locks while the snapshot is staged is seen: the load is
   * refused before it changes anything.
   */
  @Test
  void aStorageLockedWhileTheStreamIsReadIsRefusedUnchanged() throws IOException {
    final Registry saved = new Registry();
    saved.emplace(saved.create(), NOTE, new Note("hello"));
    final byte[] bytes = savedNote(saved);
    final Registry target = new Registry();
    final Storage<Row> marks = target.storage(MARKS);
    final ValueCodec<Note> locking =
        new ValueCodec<>() {
          @Override
          public void write(final Note value, final DataOutput out) {
            throw new UnsupportedOperationException();
          }

          @Override
          public Note read(final DataInput in) throws IOException {
            CoreTestAccess.lock(marks, "a codec");
            return new Note(in.readUTF());
          }
        };
    final ConcurrentModificationException thrown =
        assertThrows(
            ConcurrentModificationException.class,
            () ->
                new SnapshotLoader(target)
                    .types(NOTE)
                    .codec(Note.class, locking)
                    .load(new ByteArrayInputStream(bytes)));
    assertEquals(
        "cannot load a snapshot: storage of Marks is locked or iterated", thrown.getMessage());
    CoreTestAccess.unlock(marks);
    assertEquals(0, target.entities().size());
    assertNull(target.findStorage(NOTE));
  }

  /**
   * A load is a write made now: every loaded element of a tracked storage (here two whole pages) is
   * stamped with the target's current change tick, so it counts as changed since any earlier tick;
   * the target's tick is left as it is.
   */
  @Test
  void everyLoadedElementOfATrackedStorageIsStampedWithTheCurrentTick() throws IOException {
    final Registry saved = new Registry();
    final long[] entities = new long[8];
    saved.create(entities);
    for (int i = 0; i < entities.length; i++) {
      saved.emplace(
          entities[i],
          AllPrimitivesStorageB.TRACKED,
          new Sample(
              false, (byte) 0, (short) 0, 'x', i, 0L, Entity.NULL, 0f, 0d, null, null, null));
    }
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(saved).codec(Point.class, AllPrimitivesStorageB.POINTS).write(out);
    final Registry target = new Registry();
    target.advanceChangeTick();
    final long seen = target.advanceChangeTick();
    final long now = target.changeTick();
    new SnapshotLoader(target)
        .types(AllPrimitivesStorageB.TRACKED)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(now, target.changeTick());
    final Storage<Sample> tracked = target.storage(AllPrimitivesStorageB.TRACKED);
    assertEquals(entities.length, tracked.size());
    for (int i = 0; i < entities.length; i++) {
      assertEquals(i, tracked.get(entities[i]).count());
      assertEquals(now, tracked.changeTickAt(tracked.indexOf(entities[i])));
      assertTrue(tracked.changedSince(entities[i], seen));
    }
    assertEquals(List.of(), target.verify());
  }
}
