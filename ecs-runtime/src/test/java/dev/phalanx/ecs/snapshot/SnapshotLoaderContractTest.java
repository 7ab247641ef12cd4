package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.CHARS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.MIXED;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.canonical;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.dump;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.save;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.SnapshotLoadBadInputTest.Bytes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotLoader} accepts a cleared registry (as EnTT does), publishes construct and group
 * enter once the world is whole (listeners may throw: the load completes, the first exception is
 * rethrown), offers {@code orphans()}; and both loaders refuse two storage sections that resolve to
 * one type before anything changes.
 */
class SnapshotLoaderContractTest {

  private static SnapshotLoader loader(final Registry target) {
    return new SnapshotLoader(target).types(TYPES);
  }

  /** A saved world with ints, chars and mixed components, holes and recycled identifiers. */
  private static Registry saved() {
    final Registry remote = LoaderWorlds.intsAndChars(12);
    final SplittableRandom random = new SplittableRandom(3);
    LoaderWorlds.churn(remote, random, 40);
    final long[] entities = live(remote);
    for (int i = 0; i < entities.length; i += 2) {
      LoaderWorlds.mix(remote, entities[i], entities, random);
    }
    remote.remove(entities[2], MIXED); // a hole in the in-place storage
    return remote;
  }

  /** A registry that created, destroyed and cleared entities takes a whole snapshot. */
  @Test
  void aClearedRegistryTakesAWholeSnapshot() throws IOException {
    final Registry remote = saved();
    final byte[] bytes = save(remote);
    final Registry target = new Registry();
    final long[] old = new long[30];
    target.create(old);
    for (final long entity : old) {
      target.emplace(entity, MIXED, Row.of("x", null, 1f, Entity.NULL));
    }
    target.destroy(old[3]); // a hole left behind in the in-place storage
    target.clear();
    loader(target).load(ByteBuffer.wrap(bytes));
    assertArrayEquals(canonical(remote), canonical(target));
    assertEquals(List.of(), target.verify());

    final Registry destroyedOneByOne = new Registry();
    final long[] others = new long[9];
    destroyedOneByOne.create(others);
    for (final long entity : others) {
      destroyedOneByOne.emplace(entity, MIXED, Row.of("y", null, 2f, Entity.NULL));
    }
    for (final long entity : others) {
      destroyedOneByOne.destroy(entity); // holes only: the in-place storage is not empty
    }
    loader(destroyedOneByOne).load(ByteBuffer.wrap(bytes));
    assertArrayEquals(canonical(remote), canonical(destroyedOneByOne));
    assertEquals(List.of(), destroyedOneByOne.verify());
  }

  /**
   * Group enter listeners hear every loaded member once the whole world is in; one that throws does
   * not stop the others or the load: the first exception is rethrown. Construct is not published
   * (the snapshot holds what construct listeners derived).
   */
  @Test
  void enterIsPublishedOnceTheWorldIsWholeAndConstructIsNot() throws IOException {
    final Registry remote = saved();
    final byte[] bytes = save(remote);
    final Registry target = new Registry();
    final Group both = target.owningGroup(INTS, CHARS);
    final List<Long> constructed = new ArrayList<>();
    final List<Long> entered = new ArrayList<>();
    target.storage(INTS).onConstruct().connect((r, e) -> constructed.add(e));
    both.onEnter()
        .connect(
            (r, e) -> {
              assertEquals(remote.alive(), r.alive(), "the world is whole");
              entered.add(e);
              throw new IllegalStateException("enter " + Entity.toString(e));
            });
    final IllegalStateException thrown =
        assertThrows(
            IllegalStateException.class, () -> loader(target).load(ByteBuffer.wrap(bytes)));
    assertEquals(List.of(), constructed);
    assertTrue(both.size() > 2, both.size() + " members");
    assertEquals(both.size(), entered.size());
    assertEquals(both.size() - 1, thrown.getSuppressed().length);
    for (final long entity : live(remote)) {
      assertEquals(remote.has(entity, INTS) && remote.has(entity, CHARS), entered.contains(entity));
    }
    LoaderWorlds.assertSameWorld(remote, target);
    assertEquals(List.of(), target.verify());
  }

  /** An enter listener that destroys entities during the announcement leaves a sound world. */
  @Test
  void aListenerChangingTheWorldDuringTheAnnouncementLeavesItSound() throws IOException {
    final Registry remote = saved();
    final byte[] bytes = save(remote);
    int members = 0;
    for (int k = 1; k <= Math.max(1, members); k++) {
      final Registry target = new Registry();
      final Group both = target.owningGroup(INTS, CHARS);
      final int[] calls = new int[1];
      final int at = k;
      both.onEnter()
          .connect(
              (r, e) -> {
                if (++calls[0] == at) {
                  r.destroy(e);
                  final long[] alive = live(r);
                  r.destroy(alive[alive.length / 2]);
                }
              });
      loader(target).load(ByteBuffer.wrap(bytes));
      members = Math.max(members, calls[0]);
      assertEquals(List.of(), target.verify(), "k=" + k);
      assertEquals(remote.alive() - 2, target.alive(), "k=" + k);
    }
    assertTrue(members > 2, members + " members");
  }

  /**
   * {@code orphans()} destroys the entities left without a component, as after loading chosen
   * types.
   */
  @Test
  void orphansDestroysEntitiesWithoutComponents() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(6);
    final long[] entities = live(remote);
    remote.remove(entities[1], INTS);
    remote.remove(entities[4], INTS);
    final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    new SnapshotWriter(remote).types(INTS).write(out);
    final Registry target = new Registry();
    final SnapshotLoader loader = loader(target);
    loader.load(ByteBuffer.wrap(out.toByteArray()));
    assertEquals(6, target.alive());
    assertTrue(loader.orphans() == loader);
    assertEquals(4, target.alive());
    assertFalse(target.valid(entities[1]));
    assertFalse(target.valid(entities[4]));
    assertTrue(target.valid(entities[0]));
    assertEquals(List.of(), target.verify());
  }

  /** A target loaded with the ints of 6 saved entities, 2 of which have none: 2 orphans. */
  private static long[] loadedWithTwoOrphans(final SnapshotLoader loader) throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(6);
    final long[] entities = live(remote);
    remote.remove(entities[1], INTS);
    remote.remove(entities[4], INTS);
    final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    new SnapshotWriter(remote).types(INTS).write(out);
    loader.load(ByteBuffer.wrap(out.toByteArray()));
    return entities;
  }

  /**
   * Destroy listeners that throw, from the k-th call on for every k, do not stop {@code orphans()}:
   * every orphan is destroyed, then the first exception is rethrown, later ones suppressed.
   */
  @Test
  void orphansRethrowsTheFirstListenerExceptionOnceEveryOrphanIsGone() throws IOException {
    for (int k = 1; k <= 2; k++) {
      final Registry target = new Registry();
      final SnapshotLoader loader = loader(target);
      final long[] entities = loadedWithTwoOrphans(loader);
      final int at = k;
      final int[] calls = new int[1];
      target
          .onDestroy()
          .connect(
              (r, e) -> {
                if (++calls[0] >= at) {
                  throw new IllegalStateException("destroy " + calls[0]);
                }
              });
      final IllegalStateException thrown =
          assertThrows(IllegalStateException.class, loader::orphans, "k=" + k);
      assertEquals("destroy " + k, thrown.getMessage());
      assertEquals(2 - k, thrown.getSuppressed().length, "k=" + k);
      assertEquals(4, target.alive(), "k=" + k);
      assertFalse(target.valid(entities[1]));
      assertFalse(target.valid(entities[4]));
      assertEquals(List.of(), target.verify(), "k=" + k);
    }
  }

  /**
   * {@code orphans()} while a storage is locked or iterated is refused with {@link
   * ConcurrentModificationException} naming it; no orphan is destroyed.
   */
  @Test
  void orphansWhileAStorageIsLockedOrIteratedIsRefused() throws IOException {
    final Registry target = new Registry();
    final SnapshotLoader loader = loader(target);
    final long[] entities = loadedWithTwoOrphans(loader);
    CoreTestAccess.lock(target.storage(INTS), "a test");
    final ConcurrentModificationException thrown =
        assertThrows(ConcurrentModificationException.class, loader::orphans);
    assertEquals(
        "cannot destroy orphans: storage of Ints is locked or iterated", thrown.getMessage());
    CoreTestAccess.unlock(target.storage(INTS));
    assertEquals(6, target.alive());
    assertTrue(target.valid(entities[1]));
    loader.orphans();
    assertEquals(4, target.alive());
    assertEquals(List.of(), target.verify());
  }

  /**
   * Two storage sections that resolve to one type (one by its own key, one through an alias) are
   * refused before anything changes, by both loaders; assertions enabled or not.
   */
  @Test
  void twoSectionsLoadingIntoOneTypeAreRefused() throws IOException {
    final String key = "class:" + LoaderWorlds.Ints.class.getName();
    final String old = "class:old.Ints";
    final long e0 = Entity.of(0, 0);
    final long e1 = Entity.of(1, 0);
    final Bytes bytes =
        new Bytes()
            .start(SnapshotFormat.FLAG_FULL, 2, e0, e1)
            .i(2)
            .s(key)
            .b(0)
            .i(1)
            .s("value")
            .b(SnapshotFormat.INT)
            .i(2)
            .i(-1)
            .l(e0, e1)
            .ints(1, 2);
    final int secondAt = bytes.size();
    bytes.s(old).b(0).i(1).s("value").b(SnapshotFormat.INT).i(2).i(-1).l(e0, e1).ints(3, 4).end();
    final String message =
        "corrupt storage section: storages "
            + key
            + " and "
            + old
            + " both load into type Ints (through an alias): one of them would be lost (at byte "
            + secondAt
            + ")";
    final Registry target = new Registry();
    final SnapshotFormatException whole =
        assertThrows(
            SnapshotFormatException.class,
            () -> loader(target).alias("old.Ints", INTS).load(ByteBuffer.wrap(bytes.get())));
    assertEquals(message, whole.getMessage());
    assertEquals(0, target.entities().size());
    assertEquals(0, target.storageCount());

    final Registry local = new Registry();
    final ContinuousLoader continuous = new ContinuousLoader(local).types(TYPES);
    continuous.load(ByteBuffer.wrap(save(LoaderWorlds.intsAndChars(1))));
    final String before = dump(local);
    final SnapshotFormatException mirrored =
        assertThrows(
            SnapshotFormatException.class,
            () -> continuous.alias("old.Ints", INTS).load(ByteBuffer.wrap(bytes.get())));
    assertEquals(message, mirrored.getMessage());
    assertEquals(before, dump(local));
    assertEquals(1, continuous.size());
  }
}
