package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * A streamed server cleared and restored from a snapshot of a smaller world ({@link SnapshotLoader}
 * into the cleared registry): its entity storage shrinks, and entities created since the previous
 * delta, at indices past the new size, are in the writer's logs. The replica follows: the entities
 * past the restored world are lost, the restored ones hold the snapshot's values, and the streaming
 * goes on.
 */
class DeltaRestoredServerTest {

  private static final List<ComponentType<Row, PrimitiveColumnsStorageA>> TYPES =
      List.of(LoaderWorlds.INTS, LoaderWorlds.CHARS);

  /**
   * Restored worlds of 20 entities (at least 16: the entity storage adopts the loader's array of
   * exactly that length) and of 4, with the identifiers the server had, into a server of 30 and of
   * 10 with one entity more created since the previous delta.
   */
  @Test
  void aServerRestoredFromASmallerSnapshotStreamsOn() throws IOException {
    for (final int[] sizes : new int[][] {{30, 20}, {10, 4}}) {
      final Registry server = LoaderWorlds.intsAndChars(sizes[0]);
      final DeltaWriter writer = new DeltaWriter(server);
      final Registry replica = new Registry();
      final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
      send(writer, loader);
      // Created after the delta: its index is past every index the writer has seen.
      final long late = server.create();
      server.emplace(late, LoaderWorlds.INTS, Row.of(-1));
      final Registry saved = LoaderWorlds.intsAndChars(sizes[1]);
      for (final long e : LoaderWorlds.live(saved)) {
        saved.replace(e, LoaderWorlds.INTS, Row.of(1000 + Entity.index(e)));
      }
      server.clear();
      new SnapshotLoader(server)
          .types(LoaderWorlds.TYPES)
          .load(new ByteArrayInputStream(LoaderWorlds.save(saved)));
      assertEquals(sizes[1], server.entities().size());
      send(writer, loader);
      assertMirrors(server, replica, loader);
      final long more = server.create();
      server.emplace(more, LoaderWorlds.CHARS, Row.of('z'));
      server.destroy(LoaderWorlds.live(server)[1]);
      send(writer, loader);
      assertMirrors(server, replica, loader);
    }
  }

  /**
   * Restored with identifiers the replica never had (versions the server had not reached): the
   * replica gains them with their components. Fails today: without a predicate the writer finds a
   * gained entity's components in its logs only, and a {@link SnapshotLoader} fills the storages in
   * bulk without the after-insert signal the logs listen to, so the entities arrive bare.
   */
  @Disabled("DeltaWriter bug: a restored entity arrives without its components (reported)")
  @Test
  void aWorldRestoredWithNewIdentifiersArrivesWithItsComponents() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(10);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    send(writer, loader);
    final Registry saved = new Registry();
    final long[] entities = new long[6];
    saved.create(entities);
    for (final long e : entities) {
      saved.destroy(e);
    }
    saved.create(entities);
    for (int i = 0; i < entities.length; i++) {
      assertEquals(1, Entity.version(entities[i]));
      saved.emplace(entities[i], LoaderWorlds.INTS, Row.of(500 + i));
    }
    server.clear();
    new SnapshotLoader(server)
        .types(LoaderWorlds.TYPES)
        .load(new ByteArrayInputStream(LoaderWorlds.save(saved)));
    send(writer, loader);
    assertMirrors(server, replica, loader);
  }

  /**
   * With an interest predicate, the entities past the restored world's size leave the replica. (It
   * failed when the whole pass a predicate takes visited the entity storage's positions only: the
   * replica kept the entities whose indices the restored world no longer has.)
   */
  @Test
  void anInterestSetLosesTheEntitiesPastARestoredWorld() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(10);
    final DeltaWriter writer = new DeltaWriter(server).interest(e -> true);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    send(writer, loader);
    server.clear();
    new SnapshotLoader(server)
        .types(LoaderWorlds.TYPES)
        .load(new ByteArrayInputStream(LoaderWorlds.save(LoaderWorlds.intsAndChars(4))));
    send(writer, loader);
    assertMirrors(server, replica, loader);
  }

  private static void send(final DeltaWriter writer, final DeltaLoader loader) throws IOException {
    final int length = writer.write();
    loader.load(writer.bytes(), length);
  }

  /** Every live server entity mapped, with its values; nothing else on the replica. */
  private static void assertMirrors(
      final Registry server, final Registry replica, final DeltaLoader loader) {
    assertEquals(server.alive(), replica.alive());
    assertEquals(server.alive(), loader.size());
    for (final long e : LoaderWorlds.live(server)) {
      final long local = loader.map(e);
      assertTrue(replica.valid(local), Entity.toString(e));
      for (final ComponentType<Row, PrimitiveColumnsStorageA> type : TYPES) {
        assertEquals(
            server.tryGet(e, type),
            replica.tryGet(local, type),
            type.name() + " of " + Entity.toString(e));
      }
    }
    assertEquals(List.of(), replica.verify());
  }
}
