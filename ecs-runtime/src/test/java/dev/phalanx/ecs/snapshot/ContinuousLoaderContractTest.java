package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.CHARS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.LOCAL_ONLY;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.assertMirrors;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.dump;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.save;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Mood;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.CoreTestAccess;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ContinuousLoader} keeps the core's contract: every refusal is known before the first
 * change (no ghost entity after a refused load), a load applies in full whatever listeners throw
 * (collected, the first rethrown at the end), a listener that destroys a mapped entity during the
 * load does not abort it, update signals go only to values that changed, and {@code orphans()}
 * destroys mapped entities left without components.
 */
class ContinuousLoaderContractTest {

  private static ContinuousLoader loader(final Registry local) {
    return new ContinuousLoader(local).types(TYPES);
  }

  private static void load(final ContinuousLoader loader, final Registry remote)
      throws IOException {
    loader.load(ByteBuffer.wrap(save(remote)));
  }

  /**
   * The case: with 5 remote entities and a construct listener that always throws, the
   * mirror ends with all 5 ints, all 5 chars and 5 mapped entities; the first exception is
   * rethrown, the other 4 suppressed.
   */
  @Test
  void aThrowingConstructListenerDoesNotStopTheLoadHalfWay() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(5);
    final Registry local = new Registry();
    local
        .storage(INTS)
        .onConstruct()
        .connect(
            (r, e) -> {
              throw new IllegalStateException("construct listener failed");
            });
    final ContinuousLoader loader = loader(local);
    final IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> load(loader, remote));
    assertEquals("construct listener failed", thrown.getMessage());
    assertEquals(4, thrown.getSuppressed().length);
    assertEquals(5, loader.size());
    assertEquals(5, local.storage(INTS).size());
    assertEquals(5, local.storage(CHARS).size());
    assertMirrors(remote, local, loader);
  }

  /**
   * A listener that destroys another mapped entity during the load does not abort it: that entity
   * is simply gone (unmapped, its values dropped) and the next load creates it again.
   */
  @Test
  void aListenerDestroyingAMappedEntityDuringTheLoadDoesNotAbortIt() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(5);
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    final long[] entities = live(remote);
    final long victim = entities[3];
    final ComponentListener destroyer =
        (r, e) -> {
          final long mine = loader.map(victim);
          if (e != mine && r.valid(mine)) {
            r.destroy(mine);
          }
        };
    local.storage(INTS).onConstruct().connect(destroyer);
    load(loader, remote);
    assertFalse(loader.contains(victim), "the destroyed entity is unmapped");
    assertEquals(4, loader.size());
    assertEquals(4, local.alive());
    assertEquals(4, local.storage(CHARS).size());
    assertEquals(List.of(), local.verify());
    local.storage(INTS).onConstruct().disconnect(destroyer);
    load(loader, remote);
    assertMirrors(remote, local, loader);
  }

  /**
   * A load refused because a storage is iterated (here one the snapshot does not name, holding a
   * mapped entity the load would destroy) changes nothing: the remote entity stays mapped and its
   * local entity alive, so the next load destroys it (no ghost).
   */
  @Test
  void aLoadRefusedByAnIterationOrALockLeavesNoGhost() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(3);
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    load(loader, remote);
    final long gone = live(remote)[0];
    final long mine = loader.map(gone);
    local.storage(LOCAL_ONLY).emplace(mine);
    remote.destroy(gone);
    final String before = dump(local);
    final EmptyStorage<Object> busy = local.storage(LOCAL_ONLY);
    CoreTestAccess.beginIteration(busy);
    assertThrows(ConcurrentModificationException.class, () -> load(loader, remote));
    CoreTestAccess.endIteration(busy);
    CoreTestAccess.lock(busy, "a test");
    final ConcurrentModificationException locked =
        assertThrows(ConcurrentModificationException.class, () -> load(loader, remote));
    assertEquals(
        "cannot load a snapshot: storage of LocalOnly is locked or iterated", locked.getMessage());
    CoreTestAccess.unlock(busy);
    assertEquals(before, dump(local));
    assertTrue(loader.contains(gone));
    assertTrue(local.valid(mine));
    load(loader, remote);
    assertFalse(loader.contains(gone));
    assertFalse(local.valid(mine));
    assertMirrors(remote, local, loader);
  }

  /** Values that did not change are not written again: no update, no new change tick. */
  @Test
  void onlyValuesThatChangedArePublishedAsUpdates() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(5);
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    load(loader, remote);
    final int[] updates = new int[1];
    local.storage(INTS).onUpdate().connect((r, e) -> updates[0]++);
    local.storage(CHARS).onUpdate().connect((r, e) -> updates[0]++);
    load(loader, remote);
    assertEquals(0, updates[0], "nothing changed");
    final long changed = live(remote)[2];
    remote.replace(changed, INTS, Row.of(-1));
    final long[] who = new long[1];
    local.storage(INTS).onUpdate().connect((r, e) -> who[0] = e);
    load(loader, remote);
    assertEquals(1, updates[0], "one value changed");
    assertEquals(loader.map(changed), who[0]);
    assertMirrors(remote, local, loader);
  }

  /** A nested load from a listener is refused; the outer load completes. */
  @Test
  void aLoadFromAListenerOfALoadIsRefused() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(3);
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    final byte[] bytes = save(remote);
    local
        .storage(CHARS)
        .onConstruct()
        .connect(
            (r, e) -> {
              try {
                loader.load(ByteBuffer.wrap(bytes));
              } catch (final IOException ex) {
                throw new AssertionError(ex);
              }
            });
    final IllegalStateException nested =
        assertThrows(IllegalStateException.class, () -> loader.load(ByteBuffer.wrap(bytes)));
    assertEquals(
        "cannot load a snapshot: this ContinuousLoader is running load(...), and a call made from"
            + " user code that it runs (a predicate, a codec or a listener) is refused; nothing"
            + " changed",
        nested.getMessage());
    assertMirrors(remote, local, loader);
  }

  /**
   * {@code orphans()} destroys the mapped local entities that have no component and unmaps them;
   * local entities never mapped are left alone, even without components.
   */
  @Test
  void orphansDestroysMappedEntitiesWithoutComponents() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(4);
    final long[] entities = live(remote);
    remote.remove(entities[1], INTS);
    remote.remove(entities[1], CHARS);
    final long bare = remote.create();
    final Registry local = new Registry();
    final long own = local.create();
    final ContinuousLoader loader = loader(local);
    load(loader, remote);
    final long bareLocal = loader.map(bare);
    final long strippedLocal = loader.map(entities[1]);
    assertTrue(local.orphan(bareLocal));
    assertTrue(loader.orphans() == loader);
    assertFalse(local.valid(bareLocal));
    assertFalse(local.valid(strippedLocal));
    assertFalse(loader.contains(bare));
    assertFalse(loader.contains(entities[1]));
    assertTrue(local.valid(own), "never mapped: left alone");
    assertEquals(3, loader.size());
    assertEquals(List.of(), local.verify());
  }

  /**
   * A load needing more entities than the local registry's limit leaves is refused whole, as a
   * change set is (its creations come before its destructions): nothing is created, destroyed,
   * written or mapped, and the map still names the remote entity that went. Once there is room, it
   * loads.
   */
  @Test
  void aLoadNeedingMoreEntitiesThanTheLimitLeavesIsRefusedWhole() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(3);
    final long[] entities = live(remote);
    final Registry local = new Registry(4);
    final ContinuousLoader loader = loader(local);
    load(loader, remote);
    final long gone = loader.map(entities[0]);
    remote.destroy(entities[0]);
    remote.replace(entities[1], INTS, Row.of(-1));
    for (int i = 0; i < 2; i++) {
      remote.emplace(remote.create(), INTS, Row.of(i));
    }
    final String before = dump(local);
    assertThrows(IllegalStateException.class, () -> load(loader, remote));
    assertEquals(before, dump(local));
    assertEquals(3, loader.size());
    assertEquals(gone, loader.map(entities[0]), "the map is as it was");
    assertEquals(List.of(), local.verify());
    local.destroy(gone);
    load(loader, remote);
    assertFalse(loader.contains(entities[0]));
    assertMirrors(remote, local, loader);
  }

  /** {@code orphans()} from a listener of a load is refused; the load completes. */
  @Test
  void orphansFromAListenerOfALoadIsRefused() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(3);
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    final List<Throwable> refused = new ArrayList<>();
    local
        .storage(CHARS)
        .onConstruct()
        .connect(
            (r, e) -> {
              try {
                loader.orphans();
              } catch (final IllegalStateException thrown) {
                refused.add(thrown);
              }
            });
    load(loader, remote);
    assertEquals(3, refused.size());
    assertEquals(
        "cannot destroy orphans: this ContinuousLoader is running load(...), and a call made from"
            + " user code that it runs (a predicate, a codec or a listener) is refused; nothing"
            + " changed",
        refused.get(0).getMessage());
    assertMirrors(remote, local, loader);
  }

  /**
   * {@code orphans()} over many orphans (more than the first batch it unmaps) destroys and unmaps
   * every one though a destroy listener throws at each; the first exception is rethrown once all
   * are gone, the others suppressed.
   */
  @Test
  void orphansGoesOnWhenADestroyListenerThrowsAndRethrowsAtTheEnd() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(2);
    final int bare = 40;
    for (int i = 0; i < bare; i++) {
      remote.create();
    }
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    load(loader, remote);
    assertEquals(2 + bare, loader.size());
    final int[] calls = {0};
    local
        .onDestroy()
        .connect(
            (r, e) -> {
              throw new IllegalStateException("destroy listener failed at " + ++calls[0]);
            });
    final IllegalStateException thrown = assertThrows(IllegalStateException.class, loader::orphans);
    assertEquals("destroy listener failed at 1", thrown.getMessage());
    assertEquals(bare - 1, thrown.getSuppressed().length);
    assertEquals(2, loader.size(), "every orphan unmapped");
    assertEquals(2, local.alive());
    for (final long entity : live(remote)) {
      assertEquals(remote.orphan(entity), !loader.contains(entity));
    }
    assertEquals(List.of(), local.verify());
  }

  /**
   * A nested load from a listener is refused before it reads anything: the stream it was handed is
   * left untouched, for a later load.
   */
  @Test
  void aLoadFromAListenerOfALoadLeavesItsStreamUnread() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(3);
    final Registry local = new Registry();
    final ContinuousLoader loader = loader(local);
    final byte[] bytes = save(remote);
    final java.io.ByteArrayInputStream nested = new java.io.ByteArrayInputStream(bytes);
    final AtomicReference<Throwable> refused = new AtomicReference<>();
    local
        .storage(INTS)
        .onConstruct()
        .connect(
            (r, e) -> {
              if (null == refused.get()) {
                try {
                  loader.load(nested);
                } catch (final IllegalStateException | IOException thrown) {
                  refused.set(thrown);
                }
              }
            });
    load(loader, remote);
    assertTrue(refused.get() instanceof IllegalStateException, String.valueOf(refused.get()));
    assertEquals(bytes.length, nested.available(), "nothing was read");
    assertMirrors(remote, local, loader);
  }

  /**
   * Values a load writes into a tracked storage are stamped with the replica's change tick, whether
   * emplaced or rewritten in place; values left alone keep their stamp.
   */
  @Test
  void valuesALoadWritesIntoATrackedStorageAreStamped() throws IOException {
    final Registry remote = new Registry();
    final long a = remote.create();
    final long b = remote.create();
    remote.emplace(a, AllPrimitivesStorageB.TRACKED, sample(1));
    remote.emplace(b, AllPrimitivesStorageB.TRACKED, sample(2));
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local)
            .types(AllPrimitivesStorageB.TRACKED)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    final long before = local.advanceChangeTick();
    loader.load(ByteBuffer.wrap(saveTracked(remote)));
    final Storage<Sample> tracked = local.storage(AllPrimitivesStorageB.TRACKED);
    assertTrue(tracked.changedSince(loader.map(a), before), "emplaced: stamped");
    assertTrue(tracked.changedSince(loader.map(b), before), "emplaced: stamped");
    final long seen = local.advanceChangeTick();
    remote.replace(b, AllPrimitivesStorageB.TRACKED, sample(3));
    loader.load(ByteBuffer.wrap(saveTracked(remote)));
    assertFalse(tracked.changedSince(loader.map(a), seen), "unchanged: not stamped again");
    assertTrue(tracked.changedSince(loader.map(b), seen), "rewritten: stamped");
    assertEquals(3, tracked.get(loader.map(b)).count());
    assertEquals(List.of(), local.verify());
  }

  /**
   * A remote entity whose local entity was destroyed, and whose new one the entity limit refuses:
   * the load is refused before any change, no listener runs, and the map is left as it was (the
   * remote entity still names its dead local one). Once there is room, the next load gives it a new
   * local entity.
   */
  @Test
  void aRefusedLoadLeavesTheMapAsItWas() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(2);
    final long[] entities = live(remote);
    final Registry local = new Registry(2);
    final ContinuousLoader loader = loader(local);
    load(loader, remote);
    // The first remote entity's local one is destroyed, its index taken by a local entity.
    final long dead = loader.map(entities[0]);
    local.destroy(dead);
    final long own = local.create();
    final List<Long> updated = new ArrayList<>();
    local.storage(INTS).onUpdate().connect((r, e) -> updated.add(e));
    remote.replace(entities[1], INTS, Row.of(-1));
    final Row kept = local.get(loader.map(entities[1]), INTS);
    assertThrows(IllegalStateException.class, () -> load(loader, remote));
    assertEquals(List.of(), updated, "no listener ran");
    assertEquals(dead, loader.map(entities[0]), "the map is as it was");
    assertEquals(2, loader.size());
    assertEquals(kept, local.get(loader.map(entities[1]), INTS));
    assertEquals(List.of(), local.verify());
    local.destroy(own);
    load(loader, remote);
    assertTrue(local.valid(loader.map(entities[0])));
    assertEquals(List.of(loader.map(entities[1])), updated);
    assertMirrors(remote, local, loader);
  }

  private static Sample sample(final int count) {
    return new Sample(
        true,
        (byte) 1,
        (short) 2,
        'c',
        count,
        5L,
        Entity.NULL,
        1.5f,
        2.5,
        "s" + count,
        Mood.CALM,
        new Point(count, -count));
  }

  private static byte[] saveTracked(final Registry remote) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(remote)
        .types(AllPrimitivesStorageB.TRACKED)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .write(out);
    return out.toByteArray();
  }
}
