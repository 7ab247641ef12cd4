package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.NestedCallsTest.Nested;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code orphans()} of each loader, called back into from the destroy listeners it runs: every call
 * that would change the loader or start another pass is refused naming {@code orphans()}, a query
 * answers, and the outer call destroys every orphan as it does without the nested calls. The loader
 * takes calls again once it returned.
 */
class OrphansNestedCallsTest {

  /** A world of 6 entities of which 2 have no int, saved with the ints only: 2 orphans. */
  private static byte[] intsOnly(final long[] entities) throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(entities.length);
    System.arraycopy(live(remote), 0, entities, 0, entities.length);
    remote.remove(entities[1], INTS);
    remote.remove(entities[4], INTS);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(remote).types(INTS).write(out);
    return out.toByteArray();
  }

  private static Nested calls(final LoaderSettings<?> loader, final byte[] bytes) {
    final Nested nested = new Nested();
    if (loader instanceof SnapshotLoader) {
      final SnapshotLoader whole = (SnapshotLoader) loader;
      nested
          .add("load(InputStream)", () -> whole.load(new ByteArrayInputStream(bytes)))
          .add("load(ByteBuffer)", () -> whole.load(ByteBuffer.wrap(bytes)))
          .add(
              "load(ReadableByteChannel)",
              () -> whole.load(Channels.newChannel(new ByteArrayInputStream(bytes))))
          .add("orphans", whole::orphans);
    } else {
      final ContinuousLoader continuous = (ContinuousLoader) loader;
      nested
          .add("load(InputStream)", () -> continuous.load(new ByteArrayInputStream(bytes)))
          .add("load(ByteBuffer)", () -> continuous.load(ByteBuffer.wrap(bytes)))
          .add(
              "load(ReadableByteChannel)",
              () -> continuous.load(Channels.newChannel(new ByteArrayInputStream(bytes))))
          .add("orphans", continuous::orphans)
          .add("map", () -> continuous.map(Entity.NULL))
          .add("contains", () -> continuous.contains(Entity.NULL))
          .add("size", continuous::size);
    }
    return nested
        .add("codec", () -> loader.codec(Point.class, AllPrimitivesStorageB.POINTS))
        .add("types", () -> loader.types(INTS))
        .add("alias", () -> loader.alias("no.such.Type", INTS));
  }

  @Test
  void aSnapshotLoaderRefusesNestedCallsFromTheDestroyListenersOfOrphans() throws IOException {
    final long[] entities = new long[6];
    final byte[] bytes = intsOnly(entities);
    final Registry target = new Registry();
    final SnapshotLoader loader = new SnapshotLoader(target).types(TYPES);
    loader.load(ByteBuffer.wrap(bytes));
    assertEquals(6, target.alive());
    final Nested nested = calls(loader, bytes);
    final int[] destroyed = {0};
    target
        .onDestroy()
        .connect(
            (r, e) -> {
              destroyed[0]++;
              nested.fire();
            });
    nested.armed = true;
    assertSame(loader, loader.orphans());
    nested.assertRefused("SnapshotLoader", "orphans()");
    assertEquals(2, destroyed[0], "the orphans, and nothing else");
    assertEquals(4, target.alive());
    assertFalse(target.valid(entities[1]));
    assertFalse(target.valid(entities[4]));
    assertTrue(target.valid(entities[0]));
    assertEquals(List.of(), target.verify());
    // Returned, the loader takes calls again.
    loader.types(INTS).orphans();
    assertEquals(4, target.alive());
    target.clear();
    loader.load(ByteBuffer.wrap(bytes));
    assertEquals(6, target.alive());
  }

  @Test
  void aContinuousLoaderRefusesNestedCallsFromTheDestroyListenersOfOrphans() throws IOException {
    final long[] entities = new long[6];
    final byte[] bytes = intsOnly(entities);
    final Registry local = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(local).types(TYPES);
    loader.load(ByteBuffer.wrap(bytes));
    assertEquals(6, local.alive());
    final long orphan = loader.map(entities[1]);
    final Nested nested = calls(loader, bytes);
    final int[] destroyed = {0};
    local
        .onDestroy()
        .connect(
            (r, e) -> {
              destroyed[0]++;
              nested.fire();
            });
    nested.armed = true;
    assertSame(loader, loader.orphans());
    nested.assertRefused("ContinuousLoader", "orphans()", "map", "contains", "size");
    assertEquals(2, destroyed[0], "the orphans, and nothing else");
    assertEquals(4, local.alive());
    assertEquals(4, loader.size());
    assertFalse(local.valid(orphan));
    assertFalse(loader.contains(entities[1]));
    assertFalse(loader.contains(entities[4]));
    assertTrue(loader.contains(entities[0]));
    assertEquals(List.of(), local.verify());
    // Returned, the loader takes calls again.
    loader.types(INTS).orphans();
    assertEquals(4, local.alive());
  }
}
