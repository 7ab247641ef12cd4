package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
   * replica gains them with their components. (It failed when, without a predicate, the writer
   * found a gained entity's components in its logs only: a {@link SnapshotLoader} fills the
   * storages in bulk without the after-insert signal the logs listen to, so the entities arrived
   * bare.)
   */
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

  /**
   * Restored with the very identifiers the replicas hold, at the positions they had, but with other
   * components: entities 0 to 4 regain a {@code char} they had lost, entity 5, which had no
   * component, gets both, entity 6 loses its {@code char}. The entity storage's packed array reads
   * as before, so no pass over it sees the restore, and the added components are in no log: the
   * writers learn of the load from the loader. Two writers of one server (one with a predicate)
   * both follow, and the streaming goes on.
   */
  @Test
  void entitiesRestoredUnderTheirIdentifiersTakeTheirRestoredComponents() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(10);
    final long[] before = LoaderWorlds.live(server);
    for (int i = 0; i < 5; i++) {
      server.remove(before[i], LoaderWorlds.CHARS);
    }
    server.remove(before[5], LoaderWorlds.INTS);
    server.remove(before[5], LoaderWorlds.CHARS);
    final DeltaWriter[] writers = {
      new DeltaWriter(server), new DeltaWriter(server).interest(e -> true)
    };
    final Registry[] replicas = {new Registry(), new Registry()};
    final DeltaLoader[] loaders = new DeltaLoader[2];
    for (int r = 0; r < 2; r++) {
      loaders[r] = new DeltaLoader(replicas[r]).types(LoaderWorlds.TYPES);
      send(writers[r], loaders[r]);
    }
    final Registry saved = LoaderWorlds.intsAndChars(10);
    final long[] restored = LoaderWorlds.live(saved);
    saved.remove(restored[6], LoaderWorlds.CHARS);
    server.clear();
    new SnapshotLoader(server)
        .types(LoaderWorlds.TYPES)
        .load(new ByteArrayInputStream(LoaderWorlds.save(saved)));
    assertArrayEquals(before, LoaderWorlds.live(server));
    for (int r = 0; r < 2; r++) {
      send(writers[r], loaders[r]);
      assertMirrors(server, replicas[r], loaders[r]);
    }
    server.remove(before[2], LoaderWorlds.INTS);
    server.emplace(server.create(), LoaderWorlds.CHARS, Row.of('y'));
    server.remove(before[3], LoaderWorlds.CHARS);
    server.destroy(before[4]);
    for (int r = 0; r < 2; r++) {
      send(writers[r], loaders[r]);
      assertMirrors(server, replicas[r], loaders[r]);
    }
  }

  /**
   * Cleared, streamed (the replica loses everything), then restored with the identifiers it had
   * before the clear: each is new to the replica again, and arrives with its components.
   */
  @Test
  void aClearedServerRestoredAfterADeltaArrivesWhole() throws IOException {
    final Registry server = LoaderWorlds.intsAndChars(10);
    final byte[] snapshot = LoaderWorlds.save(server);
    final DeltaWriter writer = new DeltaWriter(server);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    send(writer, loader);
    server.clear();
    send(writer, loader);
    assertEquals(0, replica.alive());
    new SnapshotLoader(server).types(LoaderWorlds.TYPES).load(new ByteArrayInputStream(snapshot));
    send(writer, loader);
    assertEquals(10, replica.alive());
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
